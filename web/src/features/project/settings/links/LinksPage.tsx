// Collection links of a project (issue 19): make an anonymous or an expiring (survey) link, list them with their
// state, copy a link, show its QR code, expire or revoke it after a confirmation.
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../../app/hooks';
import { Dialog } from '../../../../components/Dialog';
import { notify } from '../../../../components/noticesSlice';
import { formatDate } from '../../../../lib/dates';
import { failure } from '../../../errors/failures';
import type { Project } from '../../../projects/types';
import { QrCode } from './QrCode';
import {
  linkState,
  linkUrl,
  useCreateLinkMutation,
  useExpireLinkMutation,
  useLinksQuery,
  useRevokeLinkMutation,
  type Link,
} from './linksApi';

type Kind = 'anonymous' | 'survey';
interface Draft {
  kind: Kind;
  name: string;
  expiry: string;
  site: string;
  requireLogin: boolean;
}
const EMPTY: Draft = { kind: 'anonymous', name: '', expiry: '', site: '', requireLogin: false };

/** The origin the administrator reached the app on: links are made for that host, never localhost. */
const appBase = () => `${window.location.origin}/`;

export function LinksPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const { data, error, isLoading } = useLinksQuery(project.id);
  const [qrOf, setQrOf] = useState<Link | null>(null);
  const [ending, setEnding] = useState<{ link: Link; how: 'expire' | 'revoke' } | null>(null);
  const links = data?.results ?? [];
  const closed = project.project_state === 'F' || project.project_state === 'D';
  return (
    <div data-testid="links">
      <p className="muted">{t('links.intro')}</p>
      {error && (
        <p className="banner error" role="alert">
          {failure(error, t('links.loadFailed'))}
        </p>
      )}
      {closed ? <p className="banner warning">{t('links.closed')}</p> : <LinkForm project={project} />}
      <h2>{t('links.listTitle')}</h2>
      {isLoading && <div className="loading">{t('app.loading')}</div>}
      {data && links.length === 0 && <p className="muted">{t('links.none')}</p>}
      <ul className="links">
        {links.map((link) => (
          <LinkCard
            key={link.id}
            link={link}
            project={project}
            onQr={() => setQrOf(link)}
            onEnd={(how) => setEnding({ link, how })}
          />
        ))}
      </ul>
      {qrOf && (
        <Dialog
          title={t('links.qrTitle', { name: linkName(qrOf, t) })}
          onClose={() => setQrOf(null)}
          testId="qr-dialog"
        >
          <QrCode
            text={linkUrl(qrOf, appBase())}
            label={t('links.qrAlt', { url: linkUrl(qrOf, appBase()) })}
            fileName={`link-${qrOf.id}-qr.png`}
          />
          <p className="link-url">{linkUrl(qrOf, appBase())}</p>
        </Dialog>
      )}
      {ending && <EndDialog project={project} {...ending} onClose={() => setEnding(null)} />}
    </div>
  );
}

function linkName(link: Link, t: (k: string, o?: Record<string, unknown>) => string): string {
  return link.name || t('links.unnamed', { id: link.id });
}

function LinkForm({ project }: { project: Project }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [create, made] = useCreateLinkMutation();
  const fields = fieldErrors(made.error);
  const sites = (project.sites ?? []).filter((s) => s.active_flag);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // datetime-local is the administrator's local time; the API takes an instant.
    const expiry = draft.expiry === '' ? null : new Date(draft.expiry);
    try {
      await create({
        projectId: project.id,
        body: {
          kind: draft.kind,
          name: draft.name.trim() || null,
          expiry_date: expiry && !Number.isNaN(expiry.getTime()) ? expiry.toISOString() : draft.expiry || null,
          site: draft.site === '' ? null : Number(draft.site),
          proceed_unauthenticated: draft.kind === 'anonymous' ? !draft.requireLogin : null,
        },
      }).unwrap();
      dispatch(notify(t('links.created')));
      setDraft(EMPTY);
    } catch {
      // shown below
    }
  };
  return (
    <form className="card link-form" onSubmit={(e) => void submit(e)} data-testid="link-form" noValidate>
      <h2>{t('links.newTitle')}</h2>
      {made.error && !fields && (
        <p className="banner error" role="alert">
          {failure(made.error, t('links.createFailed'))}
        </p>
      )}
      <fieldset className="link-kinds">
        <legend>{t('links.kind')}</legend>
        {(['anonymous', 'survey'] as const).map((kind) => (
          <label key={kind} className="check link-kind">
            <input
              type="radio"
              name="link-kind"
              value={kind}
              checked={draft.kind === kind}
              onChange={() => setDraft({ ...draft, kind })}
              data-testid={`link-kind-${kind}`}
            />
            <span>
              <strong>{t(`links.kinds.${kind}`)}</strong>
              <br />
              <span className="muted">{t(`links.kindHelp.${kind}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label>
        {t('links.name')}
        <input
          name="link-name"
          maxLength={100}
          value={draft.name}
          placeholder={t('links.namePlaceholder')}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
        <FieldError messages={fields?.name} />
      </label>
      <div className="row">
        <label>
          {draft.kind === 'survey' ? t('links.expiryRequired') : t('links.expiryOptional')}
          <input
            type="datetime-local"
            name="link-expiry"
            value={draft.expiry}
            required={draft.kind === 'survey'}
            onChange={(e) => setDraft({ ...draft, expiry: e.target.value })}
          />
          <FieldError messages={fields?.expiry_date} />
        </label>
        <label>
          {t('links.site')}
          <select name="link-site" value={draft.site} onChange={(e) => setDraft({ ...draft, site: e.target.value })}>
            <option value="">{t('links.noSite')}</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <FieldError messages={fields?.site} />
        </label>
      </div>
      {draft.kind === 'anonymous' && (
        <label className="check">
          <input
            type="checkbox"
            name="link-require-login"
            checked={draft.requireLogin}
            onChange={(e) => setDraft({ ...draft, requireLogin: e.target.checked })}
          />
          {t('links.requireLogin')}
        </label>
      )}
      <FieldError messages={fields?.kind} />
      <button type="submit" disabled={made.isLoading} data-testid="create-link">
        {t('links.create')}
      </button>
    </form>
  );
}

function FieldError({ messages }: { messages?: string[] }) {
  return messages?.length ? <p className="field-error">{messages[0]}</p> : null;
}

/** The per-field messages of a 400 answer ({"field": ["message"]}), if it is one. */
function fieldErrors(error: unknown): Record<string, string[]> | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (typeof data !== 'object' || data === null || 'non_field_errors' in data || 'detail' in data) return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(data)) if (Array.isArray(v)) out[k] = v.filter((m) => typeof m === 'string');
  return Object.keys(out).length > 0 ? out : undefined;
}

function LinkCard({
  link,
  project,
  onQr,
  onEnd,
}: {
  link: Link;
  project: Project;
  onQr: () => void;
  onEnd: (how: 'expire' | 'revoke') => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const state = linkState(link);
  const url = linkUrl(link, appBase());
  const site = link.site ? project.sites?.find((s) => s.id === link.site)?.name : undefined;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      dispatch(notify(t('links.copied')));
    } catch {
      // No clipboard (an insecure origin, a refused permission): the address is selected for the user to copy.
      const field = document.getElementById(`link-url-${link.id}`);
      if (field instanceof HTMLInputElement) field.select();
      dispatch(notify(t('links.copyByHand')));
    }
  };
  return (
    <li className="card link-card" data-testid="link" data-link-id={link.id} data-state={state}>
      <div className="link-head">
        <strong className="link-name">{linkName(link, t)}</strong>
        <span className="link-kind-label">{t(`links.kinds.${link.kind}`)}</span>
        <span className={`link-state ${state}`} data-testid="link-state">
          {t(`links.states.${state}`)}
        </span>
      </div>
      <p className="muted">
        {link.revoked_at
          ? t('links.revokedOn', { date: formatDate(link.revoked_at) })
          : link.expiry_date === null
            ? t('links.neverExpires')
            : t(state === 'active' ? 'links.expiresOn' : 'links.expiredOn', { date: formatDate(link.expiry_date) })}
        {' · '}
        {t('links.createdOn', { date: formatDate(link.time_created) })}
        {site && ` · ${t('links.siteIs', { site })}`}
        {link.kind === 'anonymous' && !link.proceed_unauthenticated && ` · ${t('links.loginRequired')}`}
      </p>
      {state === 'active' && (
        <>
          <input
            id={`link-url-${link.id}`}
            className="link-url"
            readOnly
            value={url}
            aria-label={t('links.address')}
            onFocus={(e) => e.target.select()}
            data-testid="link-url"
          />
          <div className="link-actions">
            <button type="button" onClick={() => void copy()} data-testid="copy-link">
              {t('links.copy')}
            </button>
            <button type="button" onClick={onQr} data-testid="show-qr">
              {t('links.showQr')}
            </button>
            <button type="button" className="secondary" onClick={() => onEnd('expire')} data-testid="expire-link">
              {t('links.expire')}
            </button>
            <button type="button" className="danger" onClick={() => onEnd('revoke')} data-testid="revoke-link">
              {t('links.revoke')}
            </button>
          </div>
        </>
      )}
    </li>
  );
}

function EndDialog({
  project,
  link,
  how,
  onClose,
}: {
  project: Project;
  link: Link;
  how: 'expire' | 'revoke';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [expire, expiring] = useExpireLinkMutation();
  const [revoke, revoking] = useRevokeLinkMutation();
  const state = how === 'expire' ? expiring : revoking;
  const confirm = async () => {
    try {
      await (how === 'expire' ? expire : revoke)({ projectId: project.id, surveyId: link.id }).unwrap();
      dispatch(notify(t(how === 'expire' ? 'links.expiredNotice' : 'links.revokedNotice')));
      onClose();
    } catch {
      // shown in the dialog
    }
  };
  return (
    <Dialog
      title={t(how === 'expire' ? 'links.expireTitle' : 'links.revokeTitle', { name: linkName(link, t) })}
      onClose={onClose}
      testId="end-link-dialog"
    >
      <p>{t(how === 'expire' ? 'links.expireWhat' : 'links.revokeWhat')}</p>
      {state.error && (
        <p className="banner error" role="alert">
          {failure(state.error, t(how === 'expire' ? 'links.expireFailed' : 'links.revokeFailed'))}
        </p>
      )}
      <div className="link-actions">
        <button type="button" className="secondary" onClick={onClose}>
          {t('links.keep')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={state.isLoading}
          onClick={() => void confirm()}
          data-testid="confirm-end-link"
        >
          {t(how === 'expire' ? 'links.expire' : 'links.revoke')}
        </button>
      </div>
    </Dialog>
  );
}
