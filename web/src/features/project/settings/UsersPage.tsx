// Project users of one kind (admins, guests, collectors): role filter, search, paging, add, remove, bulk upload.
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { mayGrantRole, type ScreenPermission } from '@fieldwork/access';
import { useAppDispatch } from '../../../app/hooks';
import { notify } from '../../../components/noticesSlice';
import { Pager } from '../../../components/Pager';
import { PersonFields } from '../../../components/PersonFields';
import { FAILURES, failure } from '../../errors/failures';
import {
  useAddProjectUserMutation,
  useBulkUploadMutation,
  useProjectUsersQuery,
  useRemoveProjectUserMutation,
  useUpdateProjectUserMutation,
} from '../../projects/projectsApi';
import { ROLE_NAMES, type BulkReport, type Project, type ProjectUser, type RoleName } from '../../projects/types';
import { Dialog } from '../../../components/Dialog';
import { ProjectUserDialog } from './ProjectUserDialog';

const ROLE_OF_PAGE: Record<string, string> = { admins: 'project_admin', guests: 'guest', collectors: 'collector' };

export function UsersPage({ kind }: { kind: 'admins' | 'guests' | 'collectors' }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const project = useOutletContext<Project>();
  const [role, setRole] = useState(ROLE_OF_PAGE[kind]!);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const { data, error } = useProjectUsersQuery({ projectId: project.id, page, role, search });
  const [add, added] = useAddProjectUserMutation();
  const [remove, removed] = useRemoveProjectUserMutation();
  const [move, moved] = useUpdateProjectUserMutation();
  const [bulk, bulkState] = useBulkUploadMutation();
  const [report, setReport] = useState<BulkReport | null>(null);
  const [editing, setEditing] = useState<ProjectUser | null>(null);
  const [removing, setRemoving] = useState<ProjectUser | null>(null);
  const [form, setForm] = useState({
    email: '',
    first_name: '',
    last_name: '',
    team: String(project.teams?.[0]?.id ?? ''),
    roles: new Set<RoleName>(kind === 'collectors' ? ['collector'] : kind === 'admins' ? ['project_admin'] : []),
  });
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / (data?.page_size || 20)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await add({
        projectId: project.id,
        email: form.email,
        first_name: form.first_name,
        last_name: form.last_name,
        team: Number(form.team) || undefined,
        ...Object.fromEntries(ROLE_NAMES.map((r) => [r, form.roles.has(r)])),
      }).unwrap();
      dispatch(notify(t('project.userAdded')));
      setForm({ ...form, email: '', first_name: '', last_name: '' });
    } catch {
      // shown above
    }
  };

  return (
    <div data-testid={`users-${kind}`}>
      {/* The staff screen of spec 000 §6: the staff admin manages the project's collectors (its field staff). */}
      {kind === 'collectors' && <p className="muted">{t('people.staffScreen')}</p>}
      {error && <p className="banner error">{failure(error, FAILURES.usersLoad)}</p>}
      {added.error && (
        <p className="banner error" role="alert">
          {failure(added.error, FAILURES.userCreate)}
        </p>
      )}
      {removed.error && <p className="banner error">{failure(removed.error, FAILURES.userDelete)}</p>}
      {moved.error && <p className="banner error">{failure(moved.error, FAILURES.userSave)}</p>}
      <div className="toolbar">
        <select
          aria-label={t('project.roleFilter')}
          data-testid="role-filter"
          value={role}
          onChange={(e) => {
            setRole(e.target.value);
            setPage(1);
          }}
        >
          <option value="">{t('project.allRoles')}</option>
          {[...ROLE_NAMES, 'guest'].map((r) => (
            <option key={r} value={r}>
              {t(`project.roles.${r}`)}
            </option>
          ))}
        </select>
        <input
          aria-label={t('project.search')}
          placeholder={t('project.search')}
          data-testid="user-search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <div className="table-scroll">
        <table className="users">
          <thead>
            <tr>
              <th>{t('settings.name')}</th>
              <th>{t('settings.email')}</th>
              <th>{t('project.rolesTitle')}</th>
              <th>{t('project.team')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.results.map((u) => (
              <tr key={u.user_id} data-testid="user-row">
                <td>{u.display_name}</td>
                <td>{u.email}</td>
                <td>
                  {ROLE_NAMES.filter((r) => u[r])
                    .map((r) => t(`project.roles.${r}`))
                    .join(', ') || t('project.roles.guest')}
                </td>
                <td>
                  {/* Changing the team moves the user between team, group and site (spec 000 §4). */}
                  <select
                    aria-label={t('project.team')}
                    data-testid="user-team"
                    value={u.team ?? ''}
                    onChange={(e) =>
                      void move({ projectId: project.id, userId: u.user_id, team: Number(e.target.value) })
                    }
                  >
                    <option value="">—</option>
                    {(project.teams ?? []).map((tm) => (
                      <option key={tm.id} value={tm.id}>
                        {tm.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button type="button" className="link" data-testid="user-edit" onClick={() => setEditing(u)}>
                    {t('people.edit')}
                  </button>
                  <button
                    type="button"
                    className="link danger"
                    data-testid="user-remove"
                    onClick={() => setRemoving(u)}
                  >
                    {t('project.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager testId="users-pager" page={page} pages={pages} onPage={setPage}>
        ({t('people.memberCount', { count: data?.count ?? 0 })})
      </Pager>
      {editing && <ProjectUserDialog project={project} user={editing} onClose={() => setEditing(null)} />}
      {removing && (
        <Dialog title={t('people.removeFromProject')} onClose={() => setRemoving(null)} testId="user-remove-dialog">
          <p>{t('people.removeProjectExplain', { name: removing.display_name || removing.email })}</p>
          <div className="row">
            <button type="button" onClick={() => setRemoving(null)}>
              {t('people.cancel')}
            </button>
            <button
              type="button"
              className="danger"
              data-testid="user-remove-confirm"
              onClick={() =>
                void remove({ projectId: project.id, userId: removing.user_id })
                  .unwrap()
                  .then(
                    () => setRemoving(null),
                    () => setRemoving(null),
                  )
              }
            >
              {t('project.remove')}
            </button>
          </div>
        </Dialog>
      )}
      <form className="card" onSubmit={(e) => void submit(e)} data-testid="add-user">
        <h2>{t('project.addUser')}</h2>
        <div className="row">
          <PersonFields prefix="user" form={form} onChange={setForm} />
        </div>
        <label>
          {t('project.team')}
          <select name="user-team" value={form.team} onChange={(e) => setForm({ ...form, team: e.target.value })}>
            {(project.teams ?? []).map((tm) => (
              <option key={tm.id} value={tm.id}>
                {tm.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          {ROLE_NAMES.map((r) => (
            <label key={r} className="check">
              <input
                type="checkbox"
                name={`role-${r}`}
                checked={form.roles.has(r)}
                disabled={!form.roles.has(r) && !mayGrantRole(new Set(project.permissions as ScreenPermission[]), r)}
                onChange={(e) => {
                  const roles = new Set(form.roles);
                  if (e.target.checked) roles.add(r);
                  else roles.delete(r);
                  setForm({ ...form, roles });
                }}
              />
              {t(`project.roles.${r}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" data-testid="add-user-save">
          {t('project.addUser')}
        </button>
      </form>
      <section className="card" data-testid="bulk">
        <h2>{t('project.bulk')}</h2>
        <p>
          {t('people.bulkHelp')}{' '}
          <a href="/bulk_user_template.csv" download data-testid="bulk-template">
            bulk_user_template.csv
          </a>
        </p>
        {bulkState.error && <p className="banner error">{failure(bulkState.error, FAILURES.userCreate)}</p>}
        <input
          type="file"
          accept=".csv,text/csv"
          data-testid="bulk-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file)
              void bulk({ projectId: project.id, file })
                .unwrap()
                .then(setReport, () => undefined);
          }}
        />
        {report && (
          <div data-testid="bulk-report">
            <p>{t('project.bulkResult', { added: report.added, failed: report.failed })}</p>
            <ul>
              {report.rows
                .filter((r) => r.status === 'failed')
                .map((r) => (
                  <li key={r.row} className="field-error">
                    {t('project.row', { row: r.row })} {r.email}: {r.errors.join(' ')}
                  </li>
                ))}
            </ul>
          </div>
        )}
      </section>
    </div>
  );
}
