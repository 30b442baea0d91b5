// Advanced results on the project view (spec 001 §2): each formula's value over the project's responses, marked
// against its thresholds, with an editor for those who hold the results permission.
import { useState } from 'react';
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

export function AdvancedResults({ project }: { project: Project }) {
  const { data, error } = useAdvancedValuesQuery({ projectId: project.id });
  const [editing, setEditing] = useState<AdvancedFields | null>(null);
  const [remove] = useDeleteAdvancedMutation();
  if (error) return null;
  return (
    <section className="advanced-results" data-testid="advanced-results">
      <h2>Advanced results</h2>
      {data && data.results.length === 0 && <p className="muted">No advanced results yet.</p>}
      <ul className="advanced-list">
        {data?.results.map((r) => (
          <li key={r.id} className={`advanced ${r.status}`} data-testid="advanced-result">
            <span className="name" title={r.description}>
              {r.name}
            </span>
            <b className="value">{shown(r)}</b>
            {r.status === 'above' && <span className="flag">Above {formatNumber(r.threshold_value_upper)}</span>}
            {r.status === 'below' && <span className="flag">Below {formatNumber(r.threshold_value_lower)}</span>}
            <button type="button" className="link" onClick={() => setEditing({ ...r })}>
              Edit
            </button>
            <button type="button" className="link" onClick={() => void remove({ projectId: project.id, id: r.id })}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {editing ? (
        <AdvancedEditor project={project} initial={editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" data-testid="advanced-new" onClick={() => setEditing(EMPTY)}>
          New advanced result
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
        Name <input name="name" value={f.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      {errors.name && <p className="error">{errors.name}</p>}
      <label>
        Formula{' '}
        <input
          name="formula"
          placeholder="=AVERAGE(Q1_2)"
          value={f.formula}
          onChange={(e) => set({ formula: e.target.value })}
        />
      </label>
      {errors.formula && <p className="error">{errors.formula}</p>}
      <label>
        Lower threshold{' '}
        <input
          name="lower"
          type="number"
          value={f.threshold_value_lower ?? ''}
          onChange={(e) => set({ threshold_value_lower: num(e.target.value) })}
        />
      </label>
      <label>
        Upper threshold{' '}
        <input
          name="upper"
          type="number"
          value={f.threshold_value_upper ?? ''}
          onChange={(e) => set({ threshold_value_upper: num(e.target.value) })}
        />
      </label>
      {errors.threshold_value_lower && <p className="error">{errors.threshold_value_lower}</p>}
      <label>
        Shown as{' '}
        <select value={f.display_type} onChange={(e) => set({ display_type: e.target.value })}>
          <option value="number">Number</option>
          <option value="percent">Percent</option>
          <option value="currency">Currency</option>
        </select>
      </label>
      <label>
        Description{' '}
        <input name="description" value={f.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      {error && Object.keys(errors).length === 0 && <p className="banner error">{errorMessage(error)}</p>}
      <button type="submit" disabled={isLoading} data-testid="advanced-save">
        Save
      </button>{' '}
      <button type="button" className="link" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
