// The vocabulary of results queries: the caller's scope, timing columns, periods and comparisons, and the statistics
// of a number question (spec 001 §9 aggregators). Pure. The SQL they become is in store/where.ts.
export type { Scope } from '@fieldwork/access';

export const TIMING_COLUMNS = ['time_created', 'time_updated', 'time_completed', 'time_uploaded'] as const;
export type TimingColumn = (typeof TIMING_COLUMNS)[number];

/** z for two-sided 95% and 99% intervals of the mean (normal approximation). */
export const Z = { ci95: 1.959964, ci99: 2.575829 } as const;

export interface NumberStats {
  count: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  var: number | null;
  quartiles: [number, number, number] | null;
  ci95: [number, number] | null;
  ci99: [number, number] | null;
}

/** The statistics of a number question from ClickHouse's aggregates, with the confidence intervals of the mean. */
export function numberStats(r: {
  count: string | number;
  sum: number | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  var: number | null;
  q: number[];
}): NumberStats {
  const count = Number(r.count);
  const finite = (v: number | null) => (v === null || !Number.isFinite(v) ? null : v);
  const avg = count > 0 ? finite(r.avg) : null;
  const sd = count > 1 ? finite(r.stddev) : null;
  const ci = (z: number): [number, number] | null =>
    avg !== null && sd !== null ? [avg - (z * sd) / Math.sqrt(count), avg + (z * sd) / Math.sqrt(count)] : null;
  return {
    count,
    sum: count > 0 ? (finite(r.sum) ?? 0) : 0,
    avg,
    min: count > 0 ? finite(r.min) : null,
    max: count > 0 ? finite(r.max) : null,
    stddev: sd,
    var: count > 1 ? finite(r.var) : null,
    quartiles: count > 0 && r.q.length === 3 ? [r.q[0]!, r.q[1]!, r.q[2]!] : null,
    ci95: ci(Z.ci95),
    ci99: ci(Z.ci99),
  };
}

/** Periods of trend series and date comparisons (spec 001 §9: microseconds to millennium). */
export const PERIODS = [
  'microsecond',
  'millisecond',
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
export type Period = (typeof PERIODS)[number];

export const COMPARE_BY = ['site', 'group', 'team', 'collector', 'question', 'period'] as const;
export type Comparison = { by: (typeof COMPARE_BY)[number]; item_id?: number; period?: Period; limit?: number };

/** A time zone name as ClickHouse takes it (IANA names, UTC). */
export const TIME_ZONE = /^(UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;
