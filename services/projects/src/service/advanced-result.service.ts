// Advanced results (spec 001 §3, §7): named formulas over aggregates of a project's answers, with thresholds. This
// service keeps the definitions; the results service computes their values. Those with the results permission read
// and edit them.
import type { projects } from '@fieldwork/proto';
import { compileFormula, FormulaCompileError } from '@fieldwork/sampler';
import { problems, type FieldErrors } from '@fieldwork/service-kit';
import {
  AdvancedResultStore,
  type AdvancedResultFields,
  type AdvancedResultRow,
} from '../store/advanced-result.store.js';
import { AccessResolver } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';

const DISPLAY_TYPES = ['number', 'percent', 'currency'];

export function toAdvancedResult(r: AdvancedResultRow): projects.AdvancedResult {
  return {
    id: r.id,
    project: r.project_id,
    name: r.name,
    description: r.description,
    ...(r.threshold_value_upper === null ? {} : { threshold_value_upper: r.threshold_value_upper }),
    ...(r.threshold_value_lower === null ? {} : { threshold_value_lower: r.threshold_value_lower }),
    formula: r.formula,
    editor_state_json: JSON.stringify(r.editor_state ?? {}),
    deleted: r.deleted,
    show_on_project_summary: r.show_on_project_summary,
    show_on_site_summary: r.show_on_site_summary,
    display_type: r.display_type,
    edit_mode: r.edit_mode,
    time_created: r.time_created.toISOString(),
    time_updated: r.time_updated.toISOString(),
  };
}

/** The checked fields of an advanced result, or the field errors. */
export function advancedResultFields(f: projects.AdvancedResult | undefined): AdvancedResultFields {
  const errors: FieldErrors = {};
  const name = (f?.name ?? '').trim();
  if (name === '') errors.name = ['This field is required.'];
  else if (name.length > 200) errors.name = ['Ensure this field has no more than 200 characters.'];
  const formula = (f?.formula ?? '').trim();
  if (formula === '') errors.formula = ['This field is required.'];
  else {
    try {
      compileFormula(formula);
    } catch (err) {
      if (!(err instanceof FormulaCompileError)) throw err;
      errors.formula = [err.display];
    }
  }
  const upper = f?.threshold_value_upper ?? null;
  const lower = f?.threshold_value_lower ?? null;
  if (upper !== null && !Number.isFinite(upper)) errors.threshold_value_upper = ['A valid number is required.'];
  if (lower !== null && !Number.isFinite(lower)) errors.threshold_value_lower = ['A valid number is required.'];
  if (upper !== null && lower !== null && lower > upper)
    errors.threshold_value_lower = ['The lower threshold must not be above the upper threshold.'];
  const displayType = f?.display_type || 'number';
  if (!DISPLAY_TYPES.includes(displayType)) errors.display_type = [`Choose one of ${DISPLAY_TYPES.join(', ')}.`];
  let editorState: unknown = {};
  try {
    // null (JSON for "no state") is kept as an empty state: the column holds an object (a null answered 500).
    editorState = JSON.parse(f?.editor_state_json || '{}') ?? {};
  } catch {
    errors.editor_state = ['Send the editor state as JSON.'];
  }
  if (Object.keys(errors).length > 0) throw problems.invalidFields(errors);
  return {
    name,
    description: (f?.description ?? '').slice(0, 2000),
    threshold_value_upper: upper,
    threshold_value_lower: lower,
    formula,
    editor_state: editorState,
    show_on_project_summary: f?.show_on_project_summary ?? false,
    show_on_site_summary: f?.show_on_site_summary ?? false,
    display_type: displayType,
    edit_mode: f?.edit_mode ?? false,
  };
}

export class AdvancedResultService {
  private readonly store: AdvancedResultStore;

  constructor(
    deps: ProjectsDeps,
    private readonly access: AccessResolver,
  ) {
    this.store = new AdvancedResultStore(deps.sql);
  }

  async list(req: projects.ProjectRef, ctx: Ctx): Promise<projects.AdvancedResultList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'results');
    return { results: (await this.store.list(a.project.id)).map(toAdvancedResult) };
  }

  async save(req: projects.SaveAdvancedResultRequest, ctx: Ctx): Promise<projects.AdvancedResult> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'results');
    const fields = advancedResultFields(req.fields);
    if (req.id <= 0) return toAdvancedResult(await this.store.create(a.project.id, a.caller.user_id, fields));
    const row = await this.store.update(a.project.id, req.id, fields);
    if (!row) throw problems.notFound();
    return toAdvancedResult(row);
  }

  async delete(req: projects.AdvancedResultRef, ctx: Ctx): Promise<void> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'results');
    if (!(await this.store.delete(a.project.id, req.id))) throw problems.notFound();
  }
}
