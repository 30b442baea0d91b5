// Collection without an account (spec 001 §2): anonymous links (collect/anonymous/{token}[/{email}]) and surveys
// (collect/survey/{token}), their success and cancel pages, and get-native/{os}: the installable web app.
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../app/baseQuery';
import { latestOnly } from '../../lib/latest';
import { translateKnown } from '../../i18n/known';
import { FormEditor, useSchemaDoc } from './FormEditor';
import { localStore, onLocalChange, type SyncState } from './localStore';
import { startSync } from './sync';

interface Opened {
  project_details: { id: number; name: string; sites?: { id: number }[] };
  sampler_schemas: { id: number; name: string; level: number }[];
  proceed_unauthenticated: boolean;
  token: string;
}

/** The spec's link failure text: the reason's details, detail or error, else 'This link has expired.' */
export function linkFailure(body: unknown): string {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  for (const k of ['details', 'detail', 'error']) if (typeof b[k] === 'string' && b[k] !== '') return b[k];
  if (Array.isArray(b.non_field_errors) && typeof b.non_field_errors[0] === 'string') return b.non_field_errors[0];
  return translateKnown('This link has expired.');
}

function fingerprint(): string {
  let f = localStorage.getItem('fw.fingerprint');
  if (!f) {
    f = crypto.randomUUID();
    localStorage.setItem('fw.fingerprint', f);
  }
  return f;
}

export function PublicCollectPage({ kind }: { kind: 'anonymous' | 'survey' }) {
  const { t } = useTranslation();
  const { token = '', email = '' } = useParams();
  const navigate = useNavigate();
  const [opened, setOpened] = useState<Opened | undefined>();
  const [failure, setFailure] = useState('');
  useEffect(() => startSync(), []);
  useEffect(() => {
    void (async () => {
      try {
        const res =
          kind === 'anonymous'
            ? await fetch(`${API_BASE}collect/${encodeURIComponent(token)}/`, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
                body: JSON.stringify({ token, fingerprint: fingerprint(), email }),
              })
            : await fetch(`${API_BASE}collect/survey/${encodeURIComponent(token)}/`, {
                headers: { Accept: 'application/json' },
              });
        const body = (await res.json().catch(() => null)) as Opened | null;
        if (!res.ok || !body) return setFailure(linkFailure(body));
        // Authentication required: the respondent logs in and collects as themselves.
        if (!body.proceed_unauthenticated)
          return void navigate(`/project/${body.project_details.id}/collect/newrecord`);
        setOpened(body);
      } catch {
        setFailure(t('collect.offline'));
      }
    })();
  }, [kind, token, email, navigate, t]);
  if (failure) {
    return (
      <section className="public-collect">
        <p className="banner error" data-testid="link-failure">
          {failure}
        </p>
      </section>
    );
  }
  if (!opened) return <div className="loading">{t('app.loading')}</div>;
  return <PublicForm opened={opened} kind={kind} email={email} />;
}

function PublicForm({ opened, kind, email }: { opened: Opened; kind: 'anonymous' | 'survey'; email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const schema = opened.sampler_schemas.find((s) => s.level === 0) ?? opened.sampler_schemas[0];
  const { doc, error } = useSchemaDoc(schema?.id ?? 0, opened.token);
  if (!schema || error) return <p className="banner error">{t('collect.formUnavailable')}</p>;
  if (!doc) return <div className="loading">{t('app.loading')}</div>;
  return (
    <section className="public-collect" data-testid="public-collect">
      <h1>{opened.project_details.name}</h1>
      <FormEditor
        doc={doc}
        projectId={opened.project_details.id}
        user="anon"
        token={opened.token}
        email={email || undefined}
        // The thank-you page only once the server has the response; else the page says it waits on this device.
        onSubmitted={(how, r) =>
          void navigate(`/collect/${kind}/success`, {
            state: how === 'uploaded' ? undefined : { queued: r.response_id },
          })
        }
        onCancel={() => void navigate(`/collect/${kind}/cancel`)}
      />
    </section>
  );
}

/** Where a response that waits on this device is now (it keeps being sent while this page is open). */
function useQueued(responseId: string | undefined): SyncState | undefined {
  const [state, setState] = useState<SyncState | undefined>();
  useEffect(() => {
    if (!responseId) return;
    const read = latestOnly(
      () => localStore.get(responseId),
      (r) => setState(r?.sync),
    );
    read();
    const stopSync = startSync();
    const stopListening = onLocalChange(read);
    return () => {
      stopSync();
      stopListening();
    };
  }, [responseId]);
  return state;
}

export function CollectDonePage({ outcome }: { outcome: 'success' | 'cancel' }) {
  const { t } = useTranslation();
  const queued = (useLocation().state as { queued?: string } | null)?.queued;
  const state = useQueued(outcome === 'success' ? queued : undefined);
  if (queued && state !== 'uploaded') {
    return (
      <section className="public-collect" data-testid="collect-queued">
        <h1>{t('collect.done.queued.title')}</h1>
        <p>{state === 'failed' ? t('collect.done.queued.failed') : t('collect.done.queued.text')}</p>
      </section>
    );
  }
  return (
    <section className="public-collect" data-testid={`collect-${outcome}`}>
      <h1>{t(`collect.done.${outcome}.title`)}</h1>
      <p>{t(`collect.done.${outcome}.text`)}</p>
    </section>
  );
}

interface InstallPrompt extends Event {
  prompt: () => Promise<void>;
}

/** Our answer to the native app: the installable web app, offline first. */
export function GetNativePage() {
  const { t } = useTranslation();
  const { os = '' } = useParams();
  const [prompt, setPrompt] = useState<InstallPrompt | undefined>();
  useEffect(() => {
    const keep = (e: Event) => {
      e.preventDefault();
      setPrompt(e as InstallPrompt);
    };
    window.addEventListener('beforeinstallprompt', keep);
    return () => window.removeEventListener('beforeinstallprompt', keep);
  }, []);
  const steps = os.toLowerCase() === 'ios' ? 'ios' : os.toLowerCase() === 'android' ? 'android' : 'desktop';
  return (
    <section className="get-native" data-testid="get-native">
      <h1>{t('collect.native.title')}</h1>
      <p>{t('collect.native.intro')}</p>
      <p>{t(`collect.native.${steps}`)}</p>
      {prompt && (
        <button type="button" className="primary" onClick={() => void prompt.prompt()}>
          {t('collect.native.install')}
        </button>
      )}
      <p>
        <Link to="/projects">{t('collect.native.open')}</Link>
      </p>
    </section>
  );
}
