// Edits one project user's roles and read_sites in a dialog. What is saved is the user's permissions, the screen
// names of spec 000 §6 that a project user's permissions list, through POST project-users/permissions/: the names
// read are the names written. A role the editor does not hold is not offered (mayGrantRole); the server refuses it
// all the same.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mayGrantRole, projectScreens, type ScreenPermission } from '@fieldwork/access';
import { Dialog } from '../../../components/Dialog';
import { FAILURES, failure } from '../../errors/failures';
import { useSetPermissionsMutation } from '../../projects/projectsApi';
import { ROLE_NAMES, type Project, type ProjectUser, type RoleName } from '../../projects/types';

export function ProjectUserDialog({
  project,
  user,
  onClose,
}: {
  project: Project;
  user: ProjectUser;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [roles, setRoles] = useState<Record<RoleName, boolean>>(
    Object.fromEntries(ROLE_NAMES.map((r) => [r, user[r] === true])) as Record<RoleName, boolean>,
  );
  const [readSites, setReadSites] = useState(new Set(user.read_sites));
  const [save, saved] = useSetPermissionsMutation();
  const mine = new Set(project.permissions as ScreenPermission[]);
  const permissions = [...projectScreens(roles)];
  const submit = () =>
    void save({ projectId: project.id, userIds: [user.user_id], permissions, read_sites: [...readSites] })
      .unwrap()
      .then(onClose, () => undefined);
  return (
    <Dialog
      title={t('people.editProjectUser', { name: user.display_name || user.email })}
      onClose={onClose}
      testId="project-user-dialog"
    >
      {saved.error && (
        <p className="banner error" role="alert">
          {failure(saved.error, FAILURES.userSave)}
        </p>
      )}
      <fieldset>
        <legend>{t('project.rolesTitle')}</legend>
        {ROLE_NAMES.map((r) => {
          const offered = roles[r] || mayGrantRole(mine, r);
          return (
            <label key={r} className="check" title={offered ? undefined : t('people.roleNotHeld')}>
              <input
                type="checkbox"
                name={`edit-role-${r}`}
                checked={roles[r]}
                disabled={!offered}
                onChange={(e) => setRoles({ ...roles, [r]: e.target.checked })}
              />
              {t(`project.roles.${r}`)}
            </label>
          );
        })}
      </fieldset>
      <p className="muted" data-testid="edit-permissions">
        {t('people.permissionsGiven')}{' '}
        {permissions.length > 0 ? permissions.map((p) => t(`people.screen.${p}`)).join(', ') : t('project.roles.guest')}
      </p>
      <fieldset>
        <legend>{t('people.readSites')}</legend>
        <p className="muted">{t('people.readSitesHelp')}</p>
        {(project.sites ?? []).map((s) => (
          <label key={s.id} className="check">
            <input
              type="checkbox"
              name={`read-site-${s.id}`}
              checked={readSites.has(s.id)}
              onChange={(e) => {
                const next = new Set(readSites);
                if (e.target.checked) next.add(s.id);
                else next.delete(s.id);
                setReadSites(next);
              }}
            />
            {s.name}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="button" onClick={onClose}>
          {t('people.cancel')}
        </button>
        <button type="button" data-testid="project-user-save" disabled={saved.isLoading} onClick={submit}>
          {t('settings.save')}
        </button>
      </div>
    </Dialog>
  );
}
