import { mayDo } from '@fieldwork/access';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate, formatInteger } from '../../i18n/format';
import { useProjectHomeQuery } from '../projects/projectsApi';
import type { Project } from '../projects/types';
import { AdvancedResults } from '../results/AdvancedResults';

export function ProjectHome() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const { data } = useProjectHomeQuery(project.id);
  const figures = [
    'total_responses',
    'complete_responses',
    'incomplete_responses',
    'sites',
    'groups',
    'teams',
    'users',
    'collectors',
    'questions',
  ];
  return (
    <section data-testid="project-home">
      <p>{project.description}</p>
      <dl className="figures">
        {figures.map((f) => (
          <div key={f}>
            <dt>{t(`project.home.${f}`)}</dt>
            <dd>{data ? formatInteger(Number(data[f] ?? 0)) : '…'}</dd>
          </div>
        ))}
      </dl>
      {data?.last_response ? <p className="muted">{formatDate(String(data.last_response))}</p> : null}
      {mayDo(project.permissions, 'readResults') && <AdvancedResults project={project} />}
    </section>
  );
}
