// Parameters: edit the project, its state, type (trend options), timing column, entity flag and hierarchy.
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { notify } from '../../../components/noticesSlice';
import { FAILURES, failure } from '../../errors/failures';
import { ProjectEditor } from '../../projects/ProjectEditor';
import {
  useSetHierarchyMutation,
  useSetStatusMutation,
  useSetTimingColumnMutation,
  useSetTypeMutation,
  useUpdateProjectMutation,
} from '../../projects/projectsApi';
import type { Level, Project } from '../../projects/types';

const STATES = ['P', 'O', 'G', 'F'];
const TYPES = ['S', 'T', 'L'];
const PERIODS = ['day', 'week', 'month', 'quarter', 'year'];
const AGGREGATORS = ['sum', 'avg', 'count', 'min', 'max', 'stddev', 'var'];
const TIMING = ['time_created', 'time_updated', 'time_completed', 'time_uploaded'];

export function ParametersPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const project = useOutletContext<Project>();
  const [editing, setEditing] = useState(false);
  const [state, setState] = useState(project.project_state);
  const [type, setType] = useState(project.project_type);
  const [trend, setTrend] = useState(
    project.trend_series_options ?? {
      time_particle: 'month',
      trend_question: '',
      aggregator: 'avg',
      trend_question_schema: 0,
    },
  );
  const [levelName, setLevelName] = useState('');
  const [setStatus, status] = useSetStatusMutation();
  const [saveType, typeState] = useSetTypeMutation();
  const [setTiming] = useSetTimingColumnMutation();
  const [setHierarchy, hierarchy] = useSetHierarchyMutation();
  const [update] = useUpdateProjectMutation();
  const levels = project.project_hierarchy;

  const changeHierarchy = (next: Level[]) =>
    void setHierarchy({
      projectId: project.id,
      is_hierarchical: next.length > 1,
      project_hierarchy: next.map((l, i) => ({ ...l, level: i })),
    })
      .unwrap()
      .then(
        () => dispatch(notify(t('project.saved'))),
        () => undefined,
      );

  return (
    <div className="settings-grid" data-testid="parameters">
      <section className="card">
        <h2>{t('project.settings.parameters')}</h2>
        <p>{project.description}</p>
        <button type="button" data-testid="edit-project" onClick={() => setEditing(true)}>
          {t('projects.edit')}
        </button>
        <label className="check">
          <input
            type="checkbox"
            checked={project.is_entity}
            onChange={(e) => void update({ projectId: project.id, is_entity: e.target.checked })}
          />
          {t('project.entity')}
        </label>
      </section>
      <section className="card">
        <h2>{t('project.status')}</h2>
        {status.error && (
          <p className="banner error" role="alert" data-testid="status-error">
            {failure(status.error, FAILURES.status)}
          </p>
        )}
        <select data-testid="status-select" value={state} onChange={(e) => setState(e.target.value)}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(`projects.states.${s}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="status-save"
          onClick={() =>
            void setStatus({ projectId: project.id, project_state: state })
              .unwrap()
              .then(
                () => dispatch(notify(t('project.saved'))),
                () => undefined,
              )
          }
        >
          {t('project.setStatus')}
        </button>
      </section>
      <section className="card">
        <h2>{t('project.type')}</h2>
        {typeState.error && <p className="banner error">{failure(typeState.error, FAILURES.type)}</p>}
        <select data-testid="type-select" value={type} onChange={(e) => setType(e.target.value)}>
          {TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`project.types.${x}`)}
            </option>
          ))}
        </select>
        {type === 'T' && (
          <div className="row">
            <select
              aria-label="time_particle"
              value={trend.time_particle}
              onChange={(e) => setTrend({ ...trend, time_particle: e.target.value })}
            >
              {PERIODS.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
            <input
              aria-label="trend_question"
              placeholder="Q1_1"
              value={trend.trend_question}
              onChange={(e) => setTrend({ ...trend, trend_question: e.target.value })}
            />
            <select
              aria-label="aggregator"
              value={trend.aggregator}
              onChange={(e) => setTrend({ ...trend, aggregator: e.target.value })}
            >
              {AGGREGATORS.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
        )}
        <button
          type="button"
          onClick={() =>
            void saveType({
              projectId: project.id,
              project_type: type,
              ...(type === 'T' ? { trend_series_options: trend } : {}),
            })
              .unwrap()
              .then(
                () => dispatch(notify(t('project.saved'))),
                () => undefined,
              )
          }
        >
          {t('settings.save')}
        </button>
        <label>
          {t('project.timing')}
          <select
            value={project.timing_column}
            onChange={(e) => void setTiming({ projectId: project.id, timing_column: e.target.value })}
          >
            {TIMING.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </section>
      <section className="card" data-testid="hierarchy">
        <h2>{t('project.hierarchy')}</h2>
        {hierarchy.error && (
          <p className="banner error" role="alert">
            {failure(hierarchy.error, FAILURES.hierarchy)}
          </p>
        )}
        <ol>
          {levels.map((l) => (
            <li key={`${l.level}-${l.schema_id}`}>
              {l.name || `Level ${l.level + 1}`}
              {levels.length > 1 && (
                <button type="button" className="link" onClick={() => changeHierarchy(levels.filter((x) => x !== l))}>
                  {t('project.removeLevel')}
                </button>
              )}
            </li>
          ))}
        </ol>
        <input aria-label={t('project.levelName')} value={levelName} onChange={(e) => setLevelName(e.target.value)} />
        <button
          type="button"
          onClick={() => {
            changeHierarchy([...levels, { level: levels.length, name: levelName, schema_id: 0 }]);
            setLevelName('');
          }}
        >
          {t('project.addLevel')}
        </button>
      </section>
      {editing && <ProjectEditor project={project} onClose={() => setEditing(false)} />}
    </div>
  );
}
