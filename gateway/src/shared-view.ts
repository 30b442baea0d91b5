// What a shared results item answers (issue 18 item 7): the view of the item its sharer chose when sharing (filters,
// comparison, buckets, timing column, time zone, aggregator), kept in the signed share token. The public route answers that
// view and nothing else: a request asking for another one is refused, so a link cannot be turned into an oracle on
// other questions (a `contains` filter on a free-text answer) or people and places (a breakdown by collector).
import { problems } from '@fieldwork/service-kit/problems';
import { boundComparisons, boundFilters } from './limits.js';

type Json = Record<string, unknown>;

/** The query fields of a shared item, without empty values. */
export interface SharedView {
  filters?: Json;
  comparisons?: unknown[];
  buckets?: number;
  timing_column?: string;
  time_zone?: string;
  /** Spec 001 §9 aggregator of the values (an average shared stays an average). */
  aggregator?: string;
}

/** The most characters of a view as JSON: it travels in the link (the path's token), which must stay short. */
export const SHARED_VIEW_MAX_CHARS = 500;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** No value: what every field means when it is left out. */
const blank = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0);

/** A filter model without the keys that filter nothing (empty lists, false flags, createdBy -1). */
function compactFilters(f: unknown): Json | undefined {
  if (!isObject(f)) return f === undefined || f === null ? undefined : (f as Json);
  const out: Json = {};
  for (const key of Object.keys(f).sort()) {
    const v = f[key];
    if (blank(v) || (key === 'createdBy' && v === -1)) continue;
    out[key] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The view a results body asks for: its filters, comparisons, buckets, timing column, time zone and aggregator. */
export function viewOf(body: Json): SharedView {
  const view: SharedView = {};
  const filters = compactFilters(boundFilters(body.filters));
  if (filters !== undefined) view.filters = filters;
  if (!blank(body.comparisons)) view.comparisons = boundComparisons(body.comparisons) as unknown[];
  if (!blank(body.buckets) && body.buckets !== 0) view.buckets = body.buckets as number;
  for (const key of ['timing_column', 'time_zone', 'aggregator'] as const)
    if (!blank(body[key])) view[key] = body[key] as string;
  return view;
}

/** The view to keep with a new share; refused when too large for a link. */
export function viewToShare(body: Json): SharedView {
  const view = viewOf(body);
  if (JSON.stringify(view).length > SHARED_VIEW_MAX_CHARS) throw problems.sharedViewTooLarge(SHARED_VIEW_MAX_CHARS);
  return view;
}

/** Stable JSON: object keys sorted at every depth, so that the same view compares equal however it was written. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * Whether a shared item's project still answers its links: a deleted project (state D, waiting for its purge) shares
 * nothing, as if the link were unknown, and answers again if it is restored before the purge (issue 30 item 14).
 */
export function sharedProjectAnswers(projectState: string): boolean {
  return projectState !== 'D';
}

/**
 * The body of a public item request, checked against the view shared: a field left out (or empty) means "as
 * shared"; a field that asks for anything else is refused with 400, naming the fields.
 */
export function checkPublicView(body: Json, shared: SharedView): void {
  const asked = viewOf(body);
  const changed = (Object.keys(asked) as (keyof SharedView)[]).filter((k) => stable(asked[k]) !== stable(shared[k]));
  if (changed.length > 0) throw problems.sharedViewOnly(changed.join(', '));
}

/** The results query fields of a view, as the results service takes them. */
export function queryOfView(view: SharedView) {
  return {
    filters_json: JSON.stringify(view.filters ?? {}),
    timing_column: typeof view.timing_column === 'string' ? view.timing_column : '',
    comparisons_json: view.comparisons === undefined ? '' : JSON.stringify(view.comparisons),
    buckets: typeof view.buckets === 'number' && Number.isInteger(view.buckets) ? view.buckets : 0,
    time_zone: typeof view.time_zone === 'string' ? view.time_zone : '',
    aggregator: typeof view.aggregator === 'string' ? view.aggregator : '',
  };
}
