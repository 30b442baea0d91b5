// The project area: a drawer (open or docked) with the sections the user's screen permissions allow, and the chosen one.
import { useState } from 'react';
import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import { PROJECT_OPERATIONS, type ScreenPermission } from '@fieldwork/access';
import { useTranslation } from 'react-i18next';
import { FEATURES } from '../../app/features';
import { titleCase } from '../../lib/text';
import { errorMessage } from '../errors/messages';
import { useGetProjectQuery } from '../projects/projectsApi';
import { AccessHint } from './AccessHint';

const SECTIONS: { path: string; screens: ScreenPermission[] }[] = [
  { path: '', screens: ['home'] },
  { path: 'settings', screens: ['parameters', 'sites', 'admins', 'staff'] },
  { path: 'builder', screens: ['form'] },
  { path: 'create-form-from-upload', screens: ['form'] },
  { path: 'results', screens: ['results'] },
  // The views of spec 001 §2 read results as the results screen does.
  { path: 'summary', screens: ['results'] },
  { path: 'performance', screens: ['results'] },
  { path: 'tracking', screens: ['results'] },
  { path: 'collect', screens: ['collector', 'dataManager'] },
  { path: 'import', screens: ['parameters', 'projectLevelIngestion'] },
  ...(FEATURES.printResults ? [{ path: 'export', screens: [...PROJECT_OPERATIONS.export] as ScreenPermission[] }] : []),
];
/** Sections reached from another one, not listed in the drawer. */
const HIDDEN = new Set(['create-form-from-upload']);

export function ProjectArea() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  const id = Number(projectId);
  const { data: project, error, isLoading } = useGetProjectQuery(id, { skip: !Number.isSafeInteger(id) || id <= 0 });
  const [docked, setDocked] = useState(false);
  // The section in the address (/project/{id}/{section}/…), whose screens the caller must hold.
  const here = useLocation().pathname.split('/')[3] ?? '';
  const section = SECTIONS.find((s) => s.path !== '' && s.path === here);
  if (error) return <p className="banner error">{errorMessage(error)}</p>;
  if (isLoading || !project) return <div className="loading">{t('app.loading')}</div>;
  const can = (screens: readonly string[]) => screens.some((s) => project.permissions.includes(s));
  return (
    <div className={docked ? 'project-area docked' : 'project-area'} data-testid="project-area">
      <aside className="drawer">
        <button
          type="button"
          className="link"
          onClick={() => setDocked(!docked)}
          aria-label={t('project.toggleDrawer')}
        >
          {docked ? '»' : '«'}
        </button>
        <nav>
          {SECTIONS.filter((s) => can(s.screens) && !HIDDEN.has(s.path)).map((s) => (
            <NavLink
              key={s.path}
              to={`/project/${id}/${s.path}`}
              end={s.path === ''}
              data-testid={`nav-${s.path || 'home'}`}
            >
              {t(`project.sections.${s.path || 'home'}`)}
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className="project-main">
        <header className="project-head">
          <span className="swatch" style={{ background: `#${project.frontend_color}` }} />
          <h1>{titleCase(project.name)}</h1>
          <span className="state" data-testid="project-state">
            {t(`projects.states.${project.project_state}`)}
          </span>
        </header>
        {section && !can(section.screens) ? <AccessHint screens={section.screens} /> : <Outlet context={project} />}
      </div>
    </div>
  );
}
