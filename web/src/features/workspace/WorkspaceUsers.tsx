// Workspace users (spec 000 §3 Workspace user, §6 workspace flags): paged and searched on the server, created or
// invited, renamed, given admin flags, removed, all in dialogs; and the workspace's feature flags, each with what it
// turns on, set by staff only (spec 000 §6: "Staff or superuser: everything allowed").
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WORKSPACE_FEATURES } from '@fieldwork/access';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Dialog } from '../../components/Dialog';
import { notify } from '../../components/noticesSlice';
import { Pager } from '../../components/Pager';
import { PersonFields } from '../../components/PersonFields';
import { FAILURES, failure } from '../errors/failures';
import { useGetOrganizationQuery } from '../session/sessionApi';
import { useWorkspace } from '../session/useWorkspace';
import { splitName } from '../../lib/text';
import {
  useCreateWorkspaceUserMutation,
  useRemoveWorkspaceUserMutation,
  useRenameWorkspaceUserMutation,
  useSetWorkspaceFeaturesMutation,
  useWorkspaceUsersQuery,
  type WorkspaceUser,
} from './workspaceApi';

const FLAGS = ['user_admin', 'project_admin', 'billing_admin'] as const;
type Flag = (typeof FLAGS)[number];
export const MEMBERS_PAGE = 25;

export function WorkspaceUsers({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const ws = useWorkspace();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const { data, error, isFetching } = useWorkspaceUsersQuery({ organizationId, page, search, pageSize: MEMBERS_PAGE });
  const [editing, setEditing] = useState<WorkspaceUser | null>(null);
  const [removing, setRemoving] = useState<WorkspaceUser | null>(null);
  const [creating, setCreating] = useState(false);
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / (data?.page_size || MEMBERS_PAGE)));
  const canCreate = ws.can('user_create') || ws.can('org_details');
  const canEdit = ws.can('user_access');
  return (
    <div data-testid="ws-users">
      {error && <p className="banner error">{failure(error, FAILURES.usersLoad)}</p>}
      <div className="toolbar">
        <input
          aria-label={t('people.searchMembers')}
          placeholder={t('people.searchMembers')}
          data-testid="ws-user-search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        {canCreate && (
          <button type="button" data-testid="ws-user-create" onClick={() => setCreating(true)}>
            {t('people.createUser')}
          </button>
        )}
      </div>
      <p className="muted" data-testid="ws-user-count">
        {t('people.memberCount', { count: data?.count ?? 0 })}
        {isFetching ? ' …' : ''}
      </p>
      <div className="table-scroll">
        <table className="users">
          <thead>
            <tr>
              <th>{t('settings.name')}</th>
              <th>{t('settings.email')}</th>
              <th>{t('people.flags')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.results.map((u) => (
              <tr key={u.user} data-testid="ws-user">
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>
                  {[u.owner && 'owner', ...FLAGS.filter((f) => u[f])].filter(Boolean).map((f) => (
                    <span key={String(f)} className="chip">
                      {t(`people.flag.${String(f)}`)}
                    </span>
                  ))}
                </td>
                <td>
                  {!u.owner && canEdit && (
                    <>
                      <button type="button" className="link" data-testid="ws-user-edit" onClick={() => setEditing(u)}>
                        {t('people.edit')}
                      </button>
                      <button
                        type="button"
                        className="link danger"
                        data-testid="ws-user-remove"
                        onClick={() => setRemoving(u)}
                      >
                        {t('project.remove')}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager testId="ws-user-pager" page={page} pages={pages} onPage={setPage} />
      {creating && <CreateUser organizationId={organizationId} onClose={() => setCreating(false)} />}
      {editing && <EditUser organizationId={organizationId} user={editing} onClose={() => setEditing(null)} />}
      {removing && <RemoveUser organizationId={organizationId} user={removing} onClose={() => setRemoving(null)} />}
      <Features organizationId={organizationId} />
    </div>
  );
}

function CreateUser({ organizationId, onClose }: { organizationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const ws = useWorkspace();
  const [create, created] = useCreateWorkspaceUserMutation();
  const [form, setForm] = useState({ email: '', first_name: '', last_name: '' });
  const [flags, setFlags] = useState<Record<Flag, boolean>>({
    user_admin: false,
    project_admin: false,
    billing_admin: false,
  });
  // Only an owner hands out workspace roles (org_details); a user admin creates plain members.
  const mayFlag = ws.can('org_details');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await create({ organization: organizationId, ...form, ...(mayFlag ? flags : {}) }).unwrap();
      dispatch(notify(t('people.userCreated', { email: form.email })));
      onClose();
    } catch {
      // shown in the dialog
    }
  };
  return (
    <Dialog title={t('people.createUser')} onClose={onClose} testId="ws-create-dialog">
      <form onSubmit={(e) => void submit(e)}>
        {created.error && (
          <p className="banner error" role="alert">
            {failure(created.error, FAILURES.userCreate)}
          </p>
        )}
        <PersonFields prefix="ws" form={form} onChange={setForm} emailRequired />
        {/* No password here: one chosen by someone else must never sign in (docs/security.md). */}
        <p className="muted">{t('people.inviteHelp')}</p>
        {mayFlag && (
          <fieldset>
            <legend>{t('people.flags')}</legend>
            {FLAGS.map((f) => (
              <label key={f} className="check">
                <input
                  type="checkbox"
                  name={`ws-${f}`}
                  checked={flags[f]}
                  onChange={(e) => setFlags({ ...flags, [f]: e.target.checked })}
                />
                {t(`people.flag.${f}`)} — <span className="muted">{t(`people.flagHelp.${f}`)}</span>
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" data-testid="ws-create-save" disabled={created.isLoading}>
          {t('people.create')}
        </button>
      </form>
    </Dialog>
  );
}

function EditUser({
  organizationId,
  user,
  onClose,
}: {
  organizationId: number;
  user: WorkspaceUser;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const ws = useWorkspace();
  const [save, saved] = useRenameWorkspaceUserMutation();
  const [name, setName] = useState(user.name);
  const [flags, setFlags] = useState<Record<Flag, boolean>>({
    user_admin: user.user_admin,
    project_admin: user.project_admin,
    billing_admin: user.billing_admin,
  });
  const mayFlag = ws.can('org_details');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await save({
        organizationId,
        userId: user.user,
        ...(name !== user.name ? splitName(name) : {}),
        ...(mayFlag ? flags : {}),
      }).unwrap();
      dispatch(notify(t('people.userSaved')));
      onClose();
    } catch {
      // shown in the dialog
    }
  };
  return (
    <Dialog title={t('people.editUser', { email: user.email })} onClose={onClose} testId="ws-edit-dialog">
      <form onSubmit={(e) => void submit(e)}>
        {saved.error && (
          <p className="banner error" role="alert">
            {failure(saved.error, FAILURES.userSave)}
          </p>
        )}
        <label>
          {t('settings.name')}
          <input name="ws-name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <fieldset disabled={!mayFlag}>
          <legend>{t('people.flags')}</legend>
          {!mayFlag && <p className="muted">{t('people.flagsOwnerOnly')}</p>}
          {FLAGS.map((f) => (
            <label key={f} className="check">
              <input
                type="checkbox"
                name={`ws-${f}`}
                checked={flags[f]}
                onChange={(e) => setFlags({ ...flags, [f]: e.target.checked })}
              />
              {t(`people.flag.${f}`)} — <span className="muted">{t(`people.flagHelp.${f}`)}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" data-testid="ws-edit-save" disabled={saved.isLoading}>
          {t('settings.save')}
        </button>
      </form>
    </Dialog>
  );
}

function RemoveUser({
  organizationId,
  user,
  onClose,
}: {
  organizationId: number;
  user: WorkspaceUser;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [remove, removed] = useRemoveWorkspaceUserMutation();
  return (
    <Dialog title={t('workspace.confirmRemove')} onClose={onClose} testId="ws-remove-dialog">
      {removed.error && <p className="banner error">{failure(removed.error, FAILURES.userDelete)}</p>}
      <p>{t('people.removeExplain', { name: user.name, email: user.email })}</p>
      <div className="row">
        <button type="button" onClick={onClose}>
          {t('people.cancel')}
        </button>
        <button
          type="button"
          className="danger"
          data-testid="ws-remove-confirm"
          onClick={() =>
            void remove({ organizationId, userId: user.user })
              .unwrap()
              .then(onClose, () => undefined)
          }
        >
          {t('project.remove')}
        </button>
      </div>
    </Dialog>
  );
}

/** The workspace's feature flags, each with what it turns on; staff and superusers change them. */
function Features({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.session.user);
  const { data: org } = useGetOrganizationQuery(organizationId);
  const [setFeatures, set] = useSetWorkspaceFeaturesMutation();
  const staff = user?.is_staff === true || user?.is_superuser === true;
  if (!org) return null;
  const on = new Set(org.flagged_features ?? []);
  return (
    <section className="card" data-testid="ws-features">
      <h2>{t('people.features')}</h2>
      <p className="muted">{staff ? t('people.featuresStaff') : t('people.featuresWho')}</p>
      {set.error && <p className="banner error">{failure(set.error, FAILURES.userSave)}</p>}
      <ul>
        {WORKSPACE_FEATURES.map((f) => (
          <li key={f}>
            <label className="check">
              <input
                type="checkbox"
                data-testid={`ws-feature-${f}`}
                checked={on.has(f)}
                disabled={!staff || set.isLoading}
                onChange={(e) => {
                  const next = new Set(on);
                  if (e.target.checked) next.add(f);
                  else next.delete(f);
                  void setFeatures({ organizationId, name: org.name, flagged_features: [...next].sort() })
                    .unwrap()
                    .then(
                      () => dispatch(notify(t('people.featuresSaved'))),
                      () => undefined,
                    );
                }}
              />
              <strong>{f}</strong> — {t(`people.feature.${f}`)} ({on.has(f) ? t('people.on') : t('people.off')})
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
