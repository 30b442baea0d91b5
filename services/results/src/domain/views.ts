// The summary, performance and tracking views of spec 001 §2 (issue 20): their bounds, the period of the series, the
// tracking date range, and progress against a target. Pure.

/** Rows of a view's table per page: 50 by default, at most 200 (a bigger page is capped, and the reply says so). */
export const VIEW_PAGE = { default: 50, max: 200 } as const;
/** Most periods of a performance series (about three years of days). */
export const SERIES_CAP = 1000;
export const VIEW_PERIODS = ['day', 'week', 'month'] as const;
export type ViewPeriod = (typeof VIEW_PERIODS)[number];

export const VIEW_MESSAGES = {
  period: `Choose one of ${VIEW_PERIODS.join(', ')}.`,
  date: 'Enter a date as YYYY-MM-DD.',
  inverted: 'The end date must not be before the start date.',
  page: 'Ensure this value is greater than or equal to 1.',
} as const;

/** A page of `size` rows, 1-based; 0 means the first page and the default size; the size is capped. */
export function pageOf(page: number, size: number): { page: number; size: number; offset: number } {
  const s = size <= 0 ? VIEW_PAGE.default : Math.min(size, VIEW_PAGE.max);
  const p = page <= 0 ? 1 : page;
  return { page: p, size: s, offset: (p - 1) * s };
}

/** A calendar date YYYY-MM-DD that exists ('' : none), else undefined. */
export function parseDay(text: string): string | null | undefined {
  if (text === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? undefined : text;
}

/** Responses over target in percent (one decimal), or undefined when there is no target. */
export function percentOf(responses: number, target: number): number | undefined {
  return target > 0 ? Math.round((responses / target) * 1000) / 10 : undefined;
}

/**
 * The responses a site should have by `today` if it collects at an even pace from its start date to its end date
 * (both inclusive): the target times the share of days gone, rounded down; the whole target from the end date on, 0
 * before the start. Undefined without a target or without both dates.
 */
export function expectedBy(
  target: number,
  start: string | null | undefined,
  end: string | null | undefined,
  today: string,
): number | undefined {
  if (target <= 0 || !start || !end || end < start) return undefined;
  const day = (s: string) => Date.parse(`${s}T00:00:00Z`) / 86_400_000;
  const total = day(end) - day(start) + 1;
  const gone = Math.min(total, Math.max(0, day(today) - day(start) + 1));
  return Math.floor((target * gone) / total);
}

/** The collector pickers: a page of 1 to 100 people (default 50); at most MAX people are read from a project. */
export const COLLECTOR_PAGE = { default: 50, max: 100, most: 10_000 } as const;

export interface CollectorRow {
  id: number;
  name: string;
  responses: number;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The people whose name holds every word of `q` (accents and case ignored), in natural order of their names (then
 * by id), a page of them, and how many match in all. A person without a name is named '#id'.
 */
export function collectorPage(
  rows: readonly CollectorRow[],
  q: string,
  offset: number,
  limit: number,
): { results: CollectorRow[]; count: number } {
  const words = fold(q).split(/\s+/).filter(Boolean);
  const named = rows.map((r) => ({ ...r, name: r.name || `#${r.id}` }));
  const hits = named.filter((r) => words.every((w) => fold(r.name).includes(w)));
  hits.sort((a, b) => natural.compare(a.name, b.name) || a.id - b.id);
  return { results: hits.slice(offset, offset + limit), count: hits.length };
}

/**
 * Days (YYYY-MM-DD, any order, repeats allowed) as runs of consecutive days, earliest first: the ranges of time a
 * view reads from the aggregates' exact times (each run one range of their sort key).
 */
export function dayRuns(days: readonly string[]): { from: string; to: string }[] {
  const dayNumber = (s: string) => Date.parse(`${s}T00:00:00Z`) / 86_400_000;
  const sorted = [...new Set(days)].sort();
  const runs: { from: string; to: string }[] = [];
  for (const d of sorted) {
    const last = runs.at(-1);
    if (last && dayNumber(d) - dayNumber(last.to) === 1) last.to = d;
    else runs.push({ from: d, to: d });
  }
  return runs;
}
