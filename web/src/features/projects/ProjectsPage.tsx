// The default landing: the workspace's projects (the full projects screen with folders follows with its issue).
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { formatDate } from '../../lib/dates';
import { titleCase } from '../../lib/text';
import { errorMessage } from '../errors/messages';
import { useGetOrganizationQuery, useListOrganizationsQuery } from '../session/sessionApi';
import { workspaceChosen } from '../session/sessionSlice';

export function ProjectsPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const organizationId = useAppSelector((s) => s.session.organizationId);
  const { data: org, error, isLoading } = useGetOrganizationQuery(organizationId ?? 0, { skip: organizationId === null });
  const { data: all } = useListOrganizationsQuery(undefined);
  const projects = org?.project_details ?? [];

  return (
    <section data-testid="projects-screen">
      <nav className="breadcrumb" aria-label="breadcrumb">
        <span>{t('projects.home')}</span>
      </nav>
      <div className="page-head">
        <h1>{t('projects.title')}</h1>
        {all && all.results.length > 1 && (
          <label>
            {t('projects.switch')}{' '}
            <select
              data-testid="workspace-select"
              value={organizationId ?? ''}
              onChange={(e) => {
                const chosen = all.results.find((o) => o.id === Number(e.target.value));
                if (chosen) dispatch(workspaceChosen({ id: chosen.id, name: chosen.name }));
              }}
            >
              {all.results.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {error && <p className="banner error">{errorMessage(error)}</p>}
      {isLoading && <p>{t('app.loading')}</p>}
      {org && projects.length === 0 && <p className="empty">{t('projects.empty')}</p>}
      <ul className="project-grid">
        {projects.map((p) => (
          <li key={p.id} className="project-card" data-testid="project-card">
            <Link to={`/project/${p.id}`}>
              <span className="swatch" style={{ background: `#${p.frontend_color}` }} aria-hidden="true" />
              <span className="project-name">{titleCase(p.name)}</span>
              <span className="state">{t(`projects.states.${p.project_state}`, { defaultValue: p.project_state })}</span>
              <span className="muted">{t('projects.responses', { count: p.total_responses })}</span>
              <span className="muted">{t('projects.updated', { date: formatDate(p.time_updated) })}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
