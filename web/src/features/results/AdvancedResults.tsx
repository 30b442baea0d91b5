// Advanced results on the project view (spec 001 §2): each formula's value over the project's responses, marked
// against its thresholds, with an editor for those who hold the results permission. On the results page the same
// values are read (without the editor) through the page's filters, which the server applies in ClickHouse.
import { useState } from 'react';
import type { FilterModel } from '@fieldwork/sampler';
import { useTranslation } from 'react-i18next';
import { errorMessage, fieldErrors } from '../errors/messages';
import type { Project } from '../projects/types';
import { formatCurrency, formatNumber, formatPercent } from './format';
import {
  useAdvancedValuesQuery,
  useDeleteAdvancedMutation,
  useSaveAdvancedMutation,
  type AdvancedFields,
  type AdvancedValue,
} from './advancedApi';

const EMPTY: AdvancedFields = {
  name: '',
  description: '',
  formula: '',
  editor_state: {},
  show_on_project_summary: true,
  show_on_site_summary: false,
  display_type: 'number',
  edit_mode: false,
};

function shown(r: AdvancedValue): string {
  if (r.value === null) return r.error ?? '—';
  if (r.display_type === 'percent') return formatPercent(r.value);
  if (r.display_type === 'currency') return formatCurrency(r.value);
  return formatNumber(r.value);
}

export function AdvancedResults({
  project,
  filters,
  schemaId,
  readOnly = false,
}: {
  project: Project;
  /** The page's filters (the results page); none on the project view. */
  filters?: Partial<FilterModel>;
  /** The schema the formulas read (0 or none: the top level). */
  schemaId?: number;
  /** Values only, nothing when there are none (the results page). */
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { data, error } = useAdvancedValuesQuery({
    projectId: project.id,
    ...(filters ? { filters } : {}),
    ...(schemaId ? { schemaId } : {}),
  });
  const [editing, setEditing] = useState<AdvancedFields | null>(null);
  const [remove] = useDeleteAdvancedMutation();
  if (error) return null;
  if (readOnly && (!data || data.results.length === 0)) return null;
  return (
    <section className="advanced-results" data-testid="advanced-results">
      <h2>{t('results.advanced.title')}</h2>
      {data && data.results.length === 0 && <p className="muted">{t('results.advanced.none')}</p>}
      <ul className="advanced-list">
        {data?.results.map((r) => (
          <li key={r.id} className={`advanced ${r.status}`} data-testid="advanced-result">
            <span className="name" title={r.description}>
              {r.name}
            </span>
            <b className="value">{shown(r)}</b>
            {r.status === 'above' && (
              <span className="flag">
                {t('results.advanced.above', { value: formatNumber(r.threshold_value_upper) })}
              </span>
            )}
            {r.status === 'below' && (
              <span className="flag">
                {t('results.advanced.below', { value: formatNumber(r.threshold_value_lower) })}
              </span>
            )}
            {!readOnly && (
              <>
                <button type="button" className="link" onClick={() => setEditing({ ...r })}>
                  {t('results.advanced.edit')}
                </button>
                <button type="button" className="link" onClick={() => void remove({ projectId: project.id, id: r.id })}>
                  {t('results.advanced.delete')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {readOnly ? null : editing ? (
        <AdvancedEditor project={project} initial={editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" data-testid="advanced-new" onClick={() => setEditing(EMPTY)}>
          {t('results.advanced.new')}
        </button>
      )}
    </section>
  );
}

function AdvancedEditor({
  project,
  initial,
  onDone,
}: {
  project: Project;
  initial: AdvancedFields;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [f, setF] = useState(initial);
  const [save, { error, isLoading }] = useSaveAdvancedMutation();
  const errors = fieldErrors(error);
  const set = (patch: Partial<AdvancedFields>) => setF({ ...f, ...patch });
  const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
  return (
    <form
      className="advanced-editor"
      data-testid="advanced-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save({ projectId: project.id, fields: f })
          .unwrap()
          .then(onDone)
          .catch(() => undefined);
      }}
    >
      <label>
        {t('results.advanced.name')}{' '}
        <input name="name" value={f.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      {errors.name && <p className="error">{errors.name}</p>}
      <label>
        {t('results.advanced.formula')}{' '}
        <input
          name="formula"
          placeholder="=AVERAGE(Q1_2)"
          value={f.formula}
          onChange={(e) => set({ formula: e.target.value })}
        />
      </label>
      {errors.formula && <p className="error">{errors.formula}</p>}
      <label>
        {t('results.advanced.lower')}{' '}
        <input
          name="lower"
          type="number"
          value={f.threshold_value_lower ?? ''}
          onChange={(e) => set({ threshold_value_lower: num(e.target.value) })}
        />
      </label>
      <label>
        {t('results.advanced.upper')}{' '}
        <input
          name="upper"
          type="number"
          value={f.threshold_value_upper ?? ''}
          onChange={(e) => set({ threshold_value_upper: num(e.target.value) })}
        />
      </label>
      {errors.threshold_value_lower && <p className="error">{errors.threshold_value_lower}</p>}
      <label>
        {t('results.advanced.shownAs')}{' '}
        <select value={f.display_type} onChange={(e) => set({ display_type: e.target.value })}>
          {(['number', 'percent', 'currency'] as const).map((d) => (
            <option key={d} value={d}>
              {t(`results.advanced.displayTypes.${d}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('results.advanced.description')}{' '}
        <input name="description" value={f.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      {error && Object.keys(errors).length === 0 && <p className="banner error">{errorMessage(error)}</p>}
      <button type="submit" disabled={isLoading} data-testid="advanced-save">
        {t('results.advanced.save')}
      </button>{' '}
      <button type="button" className="link" onClick={onDone}>
        {t('results.advanced.cancel')}
      </button>
    </form>
  );
}
