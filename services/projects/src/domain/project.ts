// Project rules of spec 000 §3, §5 and §9.
import { AGGREGATORS } from '@fieldwork/sampler';

export const PROJECT_STATES = ['P', 'O', 'G', 'F', 'D'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];
export const PROJECT_TYPES = ['S', 'T', 'L'] as const;
export const PLACE_ICONS = ['place', 'local_pizza', 'person_pin', 'person_pin_circle'] as const;
export const DEFAULT_COLOR = '5da83d';
export const DEFAULT_ICON = 'place';
export const TIMING_COLUMNS = ['time_created', 'time_updated', 'time_completed', 'time_uploaded'] as const;
/** Periods of trend series, microseconds to millennium (spec 001 §9). */
export const PERIODS = [
  'microseconds',
  'milliseconds',
  'second',
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'decade',
  'century',
  'millennium',
] as const;

export const MESSAGES = {
  blank: 'This field may not be blank.',
  tooLong: (n: number) => `Ensure this field has no more than ${n} characters.`,
  color: 'Enter a colour as six hexadecimal digits.',
  icon: `Choose one of ${PLACE_ICONS.join(', ')}.`,
  state: `Choose one of ${PROJECT_STATES.join(', ')}.`,
  type: `Choose one of ${PROJECT_TYPES.join(', ')}.`,
  stateInvalid: 'State is invalid',
  date: 'Enter a date as YYYY-MM-DD.',
} as const;

export interface Geotag {
  latitude: number;
  longitude: number;
}

/** A geotag is valid when it is a point of exactly two finite coordinates in range. */
export function isValidGeotag(g: Geotag | undefined): g is Geotag {
  return (
    g !== undefined &&
    Number.isFinite(g.latitude) &&
    Number.isFinite(g.longitude) &&
    Math.abs(g.latitude) <= 90 &&
    Math.abs(g.longitude) <= 180
  );
}

/** A colour is six hexadecimal digits without '#'; blank gives the default. */
export function normalizeColor(color: string): string | undefined {
  const c = color.trim().replace(/^#/, '').toLowerCase();
  if (c === '') return DEFAULT_COLOR;
  return /^[0-9a-f]{6}$/.test(c) ? c : undefined;
}

export function normalizeIcon(icon: string): string | undefined {
  const i = icon.trim() || DEFAULT_ICON;
  return (PLACE_ICONS as readonly string[]).includes(i) ? i : undefined;
}

export function isState(s: string): s is ProjectState {
  return (PROJECT_STATES as readonly string[]).includes(s);
}

/**
 * Whether the project may move to `next`: going live needs at least one question ("State is invalid").
 * Every other move is allowed; D removes the project from lists.
 */
export function statusProblem(next: ProjectState, questions: number): string | undefined {
  if (next === 'O' && questions < 1) return MESSAGES.stateInvalid;
  return undefined;
}

/** Live and finalized projects cannot have their schema edited. */
export function schemaEditable(state: string): boolean {
  return state !== 'O' && state !== 'F';
}

export interface TrendOptions {
  time_particle: string;
  trend_question: string;
  aggregator: string;
  trend_question_schema: number;
}

/**
 * A trend series carries time_particle, trend_question and aggregator, and its question's schema (when given) is one
 * of the project's levels (`schemas`): never another project's or workspace's form. Returns field errors.
 */
export function trendProblems(o: TrendOptions | undefined, schemas: readonly number[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!o) return { trend_series_options: ['A trend series needs time_particle, trend_question and aggregator.'] };
  if (o.trend_question_schema > 0 && !schemas.includes(o.trend_question_schema))
    errors.trend_question_schema = ['No schema of this project has this id.'];
  if (!(PERIODS as readonly string[]).includes(o.time_particle))
    errors.time_particle = [`Choose one of ${PERIODS.join(', ')}.`];
  if (o.trend_question.trim() === '') errors.trend_question = [MESSAGES.blank];
  if (!(AGGREGATORS as readonly string[]).includes(o.aggregator))
    errors.aggregator = [`Choose one of ${AGGREGATORS.join(', ')}.`];
  return errors;
}

/** YYYY-MM-DD (or a full ISO time) to a date string, or undefined when invalid. */
export function parseDate(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 ? d.toISOString().slice(0, 10) : undefined;
}

/** Days from start to end, or -1 when either is missing ("not set"). */
export function durationDays(start: string | null, end: string | null): number {
  if (!start || !end) return -1;
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
}

export interface Level {
  level: number;
  name: string;
  schema_id: number;
}

/** Levels are numbered 0..n-1 in order; a non-hierarchical project has one level. */
export function hierarchyProblems(isHierarchical: boolean, levels: Level[]): string | undefined {
  if (levels.length === 0) return 'A project needs at least one level.';
  if (!isHierarchical && levels.length > 1) return 'Only a hierarchical project can have several levels.';
  if (levels.some((l, i) => l.level !== i)) return 'Levels must be numbered 0, 1, 2, ... in order.';
  if (
    new Set(levels.filter((l) => l.schema_id > 0).map((l) => l.schema_id)).size !==
    levels.filter((l) => l.schema_id > 0).length
  ) {
    return 'A schema can be used by one level only.';
  }
  return undefined;
}
