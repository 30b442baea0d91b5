// The results query planner (docs/results.md "Which path serves a request"): whether a request is answered from the
// aggregates, and from which, or by scanning the answers, and why. Whole days are checked instant by instant, so
// days of 23 or 25 hours (daylight saving) are whole days too. Pure.
import { idList, type FilterModel } from '@fieldwork/sampler';
import type { Comparison, TimingColumn } from './query.js';
import { dayIn } from './state.js';

/** Periods the aggregates' days can group by (a day or longer). */
export const DAY_PERIODS = ['day', 'week', 'month', 'quarter', 'year', 'decade', 'century', 'millennium'] as const;

/** A whole-day range on a timing column: days (YYYY-MM-DD, inclusive) in the aggregates' time zone. */
export interface DayRange {
  column: TimingColumn;
  from: string | null;
  to: string | null;
}

/**
 * The aggregate tables from the smallest to the largest (clickhouse/0013-rollups.sql): values (per value only), sites
 * (and per site, group, team), months (and per month created), cube (and per collector, day of each timing column).
 */
export type AggTable = 'values' | 'sites' | 'months' | 'cube';

/** Periods the months' rollup can group by: a month or longer. */
export const MONTH_PERIODS = ['month', 'quarter', 'year', 'decade', 'century', 'millennium'] as const;

export type Plan =
  | {
      path: 'aggregates';
      /** The smallest table that holds every dimension the request filters or compares by. */
      table: AggTable;
      days: DayRange[];
    }
  | { path: 'scan'; reasons: string[] };

export interface PlanInput {
  filters: FilterModel;
  comparisons: readonly Comparison[];
  /** The request's time zone. */
  tz: string;
  timing: TimingColumn;
  /** The caller sees only some responses (their own and their read sites'). */
  scoped: boolean;
  /** A profile restricts the responses to one record and those below it. */
  profile: boolean;
  /** The project's aggregates: undefined when never counted, not ready while counted again. */
  aggregates: { tz: string; ready: boolean } | undefined;
}

/** Whether `s` (seconds) is the first millisecond of its day in `tz`; that day. */
function dayStart(s: number, tz: string): string | null {
  const ms = Math.round(s * 1000);
  if (!Number.isFinite(ms) || Math.abs(ms - s * 1000) > 1e-3) return null;
  const day = dayIn(ms, tz);
  return dayIn(ms - 1, tz) !== day ? day : null;
}

/** Whether `s` (seconds) is the last millisecond of its day in `tz` (the range's end is inclusive); that day. */
function dayEnd(s: number, tz: string): string | null {
  const ms = Math.round(s * 1000);
  if (!Number.isFinite(ms) || Math.abs(ms - s * 1000) > 1e-3) return null;
  const day = dayIn(ms, tz);
  return dayIn(ms + 1, tz) !== day ? day : null;
}

/** Whether a day range is made of whole months (a first day of a month to a last day of a month; either end open). */
function wholeMonths(r: DayRange): boolean {
  const first = r.from === null || r.from.endsWith('-01');
  const last =
    r.to === null ||
    (() => {
      const [y, m, d] = r.to.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, m, 0)).getUTCDate() === d;
    })();
  return first && last;
}

/**
 * The path of a results request. Aggregates answer: no filter on answers (question filters, date questions), date
 * ranges on the timing columns made of whole days in the aggregates' time zone, comparisons by site, group, team,
 * collector and by periods of a day or longer (not on time_completed, which may be empty), no profile. Anything else
 * scans, with the reasons.
 */
export function planResults(input: PlanInput): Plan {
  const reasons: string[] = [];
  const f = input.filters;
  const agg = input.aggregates;
  if (!agg) reasons.push('the project has no aggregates yet');
  else if (!agg.ready) reasons.push("the project's aggregates are being counted");
  if (input.profile) reasons.push('a profile');
  if (f.filters.length > 0) reasons.push('a filter on answers');
  const days: DayRange[] = [];
  const tz = agg?.tz ?? input.tz;
  const dated = f.date_ranges.length > 0 || input.comparisons.some((c) => c.by === 'period');
  if (dated && agg && input.tz !== agg.tz)
    reasons.push(`the time zone ${input.tz} (the aggregates count days in ${agg.tz})`);
  for (const r of f.date_ranges) {
    if (r.entity !== 'response') {
      reasons.push('a date question range');
      continue;
    }
    const from = r.startDateTime === null || r.startDateTime === undefined ? null : dayStart(r.startDateTime, tz);
    const to = r.endDateTime === null || r.endDateTime === undefined ? null : dayEnd(r.endDateTime, tz);
    if ((from === null && r.startDateTime != null) || (to === null && r.endDateTime != null))
      reasons.push('a date range that is not whole days');
    else days.push({ column: r.dateType as TimingColumn, from, to });
  }
  for (const c of input.comparisons) {
    if (c.by === 'question') reasons.push('a comparison by question');
    if (c.by === 'period') {
      if (!(DAY_PERIODS as readonly string[]).includes(c.period ?? 'month'))
        reasons.push('a period shorter than a day');
      if (input.timing === 'time_completed') reasons.push('periods of time_completed');
    }
  }
  if (reasons.length > 0) return { path: 'scan', reasons };
  const ids = (x: Parameters<typeof idList>[0]) => idList(x).length > 0;
  // The smallest table that holds every dimension asked: site, group and team are on every rollup; whole months of
  // time_created (ranges and periods) on months and the cube; collectors, a caller's scope, other days only on the cube.
  const onCube =
    input.scoped ||
    ids(f.collector) ||
    ids(f.createdBy) ||
    days.some((r) => r.column !== 'time_created' || !wholeMonths(r)) ||
    input.comparisons.some(
      (c) =>
        c.by === 'collector' ||
        (c.by === 'period' &&
          (input.timing !== 'time_created' || !(MONTH_PERIODS as readonly string[]).includes(c.period ?? 'month'))),
    );
  const onMonths = days.length > 0 || input.comparisons.some((c) => c.by === 'period');
  const onSites = ids(f.site) || ids(f.group) || ids(f.team) || input.comparisons.length > 0;
  const table: AggTable = onCube ? 'cube' : onMonths ? 'months' : onSites ? 'sites' : 'values';
  return { path: 'aggregates', table, days };
}

/** The path of a view (summary, performance, tracking, the collector pickers): the aggregates, or the scan and why. */
export type ViewPlan = { path: 'aggregates' } | { path: 'scan'; reasons: string[] };

export interface ViewPlanInput {
  /** Whether days of `tz` matter to what is asked: a date range (tracking) or a series per period (performance). */
  days: boolean;
  /** The request's time zone. */
  tz: string;
  /** The project's aggregates: undefined when never counted, not ready while counted again. */
  aggregates: { tz: string; ready: boolean } | undefined;
}

/**
 * The path of a view's figures (docs/results.md "Which path serves a request"). Every figure of the views (counts,
 * firsts and lasts, collectors, sites, durations, series, date ranges) is a sum or an extreme over the dimensions
 * the aggregates keep (site, group, team, collector, the caller's scope, days of time_created), so the aggregates
 * answer whenever they are ready and, when days matter, count them in the request's time zone.
 */
export function planView(input: ViewPlanInput): ViewPlan {
  const reasons: string[] = [];
  const agg = input.aggregates;
  if (!agg) reasons.push('the project has no aggregates yet');
  else if (!agg.ready) reasons.push("the project's aggregates are being counted");
  else if (input.days && input.tz !== agg.tz)
    reasons.push(`the time zone ${input.tz} (the aggregates count days in ${agg.tz})`);
  return reasons.length > 0 ? { path: 'scan', reasons } : { path: 'aggregates' };
}
