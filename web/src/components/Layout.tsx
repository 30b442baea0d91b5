// The frame of logged-in screens: product name, workspace, user menu, language.
import { Link, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../app/hooks';
import { useWorkspace } from '../features/session/useWorkspace';
import { LanguageSelect } from './LanguageSelect';

export function Layout() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.session.user);
  const workspace = useAppSelector((s) => s.session.organizationName);
  const organizationId = useAppSelector((s) => s.session.organizationId);
  const ws = useWorkspace();
  // Workspace settings only for those with a workspace role that has something there.
  const settles = (['org_details', 'user_access', 'user_create', 'billing'] as const).some((p) => ws.can(p));
  return (
    <div className="layout">
      <header className="topbar">
        <Link to="/projects" className="brand">
          {t('app.name')}
        </Link>
        {workspace && (
          <span className="workspace" title={t('nav.workspace')}>
            {workspace}
          </span>
        )}
        <nav className="usermenu">
          <LanguageSelect />
          {organizationId !== null && settles && (
            <Link to={`/workspace-settings/${organizationId}`} data-testid="workspace-settings-link">
              {t('nav.workspaceSettings')}
            </Link>
          )}
          <Link to="/user-settings" data-testid="user-settings-link">
            {user?.name ?? t('nav.userSettings')}
          </Link>
          <Link to="/logout" data-testid="logout">
            {t('nav.logout')}
          </Link>
        </nav>
      </header>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
