// The settings children of a project: parameters (default), sites, duration, admins, guests, integrations, collectors.
import { NavLink, Outlet, useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../projects/types';

const TABS: { path: string; screens: string[] }[] = [
  { path: 'parameters', screens: ['parameters'] },
  { path: 'sites', screens: ['sites'] },
  { path: 'duration', screens: ['parameters'] },
  { path: 'admins', screens: ['admins'] },
  { path: 'guests', screens: ['admins'] },
  { path: 'collectors', screens: ['admins', 'staff'] },
  { path: 'integrations', screens: ['parameters'] },
];

export function SettingsLayout() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  return (
    <section>
      <nav className="tabs">
        {TABS.filter((tab) => tab.screens.some((s) => project.permissions.includes(s))).map((tab) => (
          <NavLink key={tab.path} to={tab.path} data-testid={`settings-${tab.path}`}>
            {t(`project.settings.${tab.path}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet context={project} />
    </section>
  );
}
