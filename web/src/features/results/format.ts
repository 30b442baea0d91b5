// How results look (spec 001 §9): which chart an item gets, label limits and truncation, currency, percent, number
// and date formats, tooltip columns, explicit chart widths and the palette. Pure, shared by every results screen.
import dayjs from 'dayjs';

/** The 8-colour palette of charts, in series order. */
export const PALETTE = [
  '#5da83d',
  '#2f6690',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#9c755f',
] as const;

export const LABEL_LIMITS = {
  chartTitle: 100,
  legend: 15,
  axisLabel: 25,
  tickLabel: 38,
  columnHeader: 30,
  truncation: 20,
  itemTitle: 100,
  tooltipName: 30,
} as const;

/** Text over `limit` characters is cut to limit - 3 plus an ellipsis (item titles: 97 + '...'). */
export function cut(text: string, limit: number = LABEL_LIMITS.truncation): string {
  return text.length > limit ? `${text.slice(0, Math.max(0, limit - 3))}...` : text;
}

export type ChartKind = 'pie' | 'bar' | 'line' | 'box' | 'area-spline' | 'none';

/** Item types that have charts; empty, open, geotag, barcode (and the rest) show a table only. */
export const CHARTED = new Set(['choice', 'binary', 'number', 'currency', 'calculated', 'date']);

/**
 * The chart of an item: none for types without charts; area-spline in the profile view; line for dates; in a
 * trend-series project a line (choices, counts) or a box-whisker 95 (numbers); a bar for a choice question with more
 * than 2 options in a single-point project; a pie otherwise.
 */
export function chartKind(
  item: { type: string; answers?: unknown[] },
  projectType: string,
  view: 'results' | 'profile' = 'results',
): ChartKind {
  if (!CHARTED.has(item.type)) return 'none';
  if (view === 'profile') return 'area-spline';
  if (item.type === 'date') return 'line';
  if (projectType === 'trend') return ['number', 'currency', 'calculated'].includes(item.type) ? 'box' : 'line';
  if (item.type === 'choice' && (item.answers?.length ?? 0) > 2) return 'bar';
  return 'pie';
}

/** The profile view shows tables except for number and currency questions. */
export function forcedMode(type: string, view: 'results' | 'profile'): 'table' | null {
  return view === 'profile' && type !== 'number' && type !== 'currency' ? 'table' : null;
}

const fraction = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** Currency amounts: under 1000 plain; to 999,999,999 in k; to 9,999,999,999,999 in M; above in B. */
export function formatCurrency(value: number, code = ''): string {
  const abs = Math.abs(value);
  const [n, unit] =
    abs < 1_000
      ? [value, '']
      : abs <= 999_999_999
        ? [value / 1_000, 'k']
        : abs <= 9_999_999_999_999
          ? [value / 1_000_000, 'M']
          : [value / 1_000_000_000, 'B'];
  return `${code ? `${code} ` : ''}${fraction(n)}${unit}`;
}

/** A percentage (0-100): under 0.001 (but not 0) shows '0.000* %'. */
export function formatPercent(p: number): string {
  if (p > 0 && p < 0.001) return '0.000* %';
  return `${p.toFixed(3).replace(/\.?0+$/, '')} %`;
}

/** Numbers are shown with 2 decimals in results. */
export function formatNumber(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Result dates are MM/DD/YYYY. */
export function formatResultDate(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('MM/DD/YYYY') : '—';
}

const COARSE = new Set(['year', 'decade', 'century', 'millennium']);
const FINE = new Set(['microsecond', 'millisecond', 'second', 'minute', 'hour']);

/** Chart dates: MM-DD-YYYY by default, MM-YYYY for months and quarters, YYYY for years and larger, with time below a day. */
export function formatChartDate(value: string, period = 'day'): string {
  const d = dayjs(value.replace(' ', 'T'));
  if (!d.isValid()) return value;
  if (COARSE.has(period)) return d.format('YYYY');
  if (period === 'month' || period === 'quarter') return d.format('MM-YYYY');
  if (FINE.has(period))
    return d.format(period === 'hour' || period === 'minute' ? 'MM-DD-YYYY HH:mm' : 'MM-DD-YYYY HH:mm:ss');
  return d.format('MM-DD-YYYY');
}

/** Tooltips lay series out in two columns past 3 series. */
export const tooltipColumns = (series: number) => (series > 3 ? 2 : 1);

/**
 * An explicit width (px) for wide charts, else null (the chart fills its card): bar charts when bars times
 * comparisons exceed 12 (30 px each), line charts with more than 6 points (60 px each).
 */
export function explicitWidth(kind: ChartKind, bars: number, comparisons = 1): number | null {
  if (kind === 'bar' && bars * Math.max(1, comparisons) > 12) return bars * Math.max(1, comparisons) * 30;
  if ((kind === 'line' || kind === 'area-spline') && bars > 6) return bars * 60;
  return null;
}
