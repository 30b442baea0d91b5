// The settings children of a project: parameters (default), sites, duration, admins, guests, integrations, collectors,
// and the collection links (issue 19).
import { NavLink, Outlet, useLocation, useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ScreenPermission } from '@fieldwork/access';
import type { Project } from '../../projects/types';
import { AccessHint } from '../AccessHint';

const TABS: { path: string; screens: ScreenPermission[] }[] = [
  { path: 'parameters', screens: ['parameters'] },
  { path: 'sites', screens: ['sites'] },
  { path: 'duration', screens: ['parameters'] },
  { path: 'admins', screens: ['admins'] },
  { path: 'guests', screens: ['admins'] },
  { path: 'collectors', screens: ['admins', 'staff'] },
  { path: 'integrations', screens: ['parameters'] },
  { path: 'links', screens: ['parameters'] },
];

export function SettingsLayout() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  // The tab in the address (parameters when none): a tab the caller's role does not open says which role it needs.
  const here = TABS.find((tab) => tab.path === (useLocation().pathname.split('/')[4] || 'parameters'));
  const allowed = (screens: readonly string[]) => screens.some((s) => project.permissions.includes(s));
  return (
    <section>
      <nav className="tabs">
        {TABS.filter((tab) => allowed(tab.screens)).map((tab) => (
          <NavLink key={tab.path} to={tab.path} data-testid={`settings-${tab.path}`}>
            {t(`project.settings.${tab.path}`)}
          </NavLink>
        ))}
      </nav>
      {here && !allowed(here.screens) ? <AccessHint screens={here.screens} /> : <Outlet context={project} />}
    </section>
  );
}
