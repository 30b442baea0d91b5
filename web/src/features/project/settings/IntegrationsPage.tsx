// The workspace's integrations, attached to or detached from this project.
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FAILURES, failure } from '../../errors/failures';
import type { Project } from '../../projects/types';
import { useIntegrationsQuery, useSetIntegrationProjectsMutation } from '../../workspace/workspaceApi';

export function IntegrationsPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const { data, error } = useIntegrationsQuery(project.primary_organization);
  const [setProjects, state] = useSetIntegrationProjectsMutation();
  return (
    <section className="card" data-testid="project-integrations">
      {error && <p className="banner error">{failure(error, FAILURES.integrationsLoad)}</p>}
      {state.error && <p className="banner error">{failure(state.error, FAILURES.integrationUpdate)}</p>}
      {data?.results.length === 0 && <p className="muted">{t('workspace.noIntegrations')}</p>}
      <ul>
        {data?.results.map((i) => (
          <li key={i.token}>
            <label className="check">
              <input
                type="checkbox"
                checked={i.projects.includes(project.id)}
                onChange={(e) =>
                  void setProjects({
                    organizationId: project.primary_organization,
                    token: i.token,
                    projects: e.target.checked
                      ? [...i.projects, project.id]
                      : i.projects.filter((p) => p !== project.id),
                  })
                }
              />
              {i.integration_type.toUpperCase()}{' '}
              {i.verified ? `✓ ${t('workspace.verified')}` : t('workspace.notVerified')}{' '}
              <code>{i.token.slice(0, 8)}…</code>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
