// How results look (spec 001 §9): which chart an item gets, label limits and truncation, currency, percent, number
// and date formats (in the user's language, through i18n/format.ts), tooltip columns, explicit chart widths and the
// palette. Pure, shared by every results screen.
import i18n from 'i18next';
import { formatDate, formatDay, formatMonth, formatNumber as formatLocaleNumber } from '../../i18n/format';

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

export type ChartKind = 'pie' | 'bar' | 'line' | 'box' | 'histogram' | 'area-spline' | 'text' | 'none';

/** Project types as the API sends them (spec 000: single point S, trend series T, longitudinal L). */
export const PROJECT_TYPE = { single: 'S', trend: 'T', longitudinal: 'L' } as const;

/** Item types that have charts; empty, open, geotag, barcode (and the rest) show a table only. */
export const CHARTED = new Set(['choice', 'binary', 'number', 'currency', 'calculated', 'date']);
/** Text questions: a sample of their latest answers and their most frequent words instead of a chart. */
export const TEXTS = new Set(['open', 'barcode', 'concatenation']);
const NUMERIC = new Set(['number', 'currency', 'calculated']);

/**
 * The chart of an item: text questions their samples and words; none for other types without charts; area-spline in
 * the profile view; a line (timeline) for dates; in a trend-series project a line (choices, counts) or a box-whisker
 * 95 (numbers); numbers a histogram (with a box plot of their quartiles); a pie for a binary question or a
 * single-answer choice question of at most 2 options (spec 001 §9: pie by default, bar past 2 options); bars for
 * the other choice questions (several answers do not share one whole).
 */
export function chartKind(
  item: { type: string; answers?: unknown[]; multiselect?: boolean },
  projectType: string,
  view: 'results' | 'profile' = 'results',
): ChartKind {
  if (TEXTS.has(item.type)) return view === 'results' ? 'text' : 'none';
  if (!CHARTED.has(item.type)) return 'none';
  if (view === 'profile') return 'area-spline';
  if (item.type === 'date') return 'line';
  if (projectType === PROJECT_TYPE.trend) return NUMERIC.has(item.type) ? 'box' : 'line';
  if (NUMERIC.has(item.type)) return 'histogram';
  if (item.type === 'binary' || (!item.multiselect && (item.answers?.length ?? 0) <= 2)) return 'pie';
  return 'bar';
}

/**
 * The labels of histogram bins [lower, upper): whole-number bins name the integers they hold (5, or 10–19), others
 * their edges (0.5–1); numbers with the language's grouping (10,000–20,000).
 */
export function binLabels(bins: { lower: number; upper: number }[], integer: boolean): string[] {
  const f = (n: number) => formatLocaleNumber(n);
  return bins.map(({ lower, upper }) =>
    integer ? (upper - lower <= 1 ? f(lower) : `${f(lower)}–${f(upper - 1)}`) : `${f(lower)}–${f(upper)}`,
  );
}

/** The profile view shows tables except for number and currency questions. */
export function forcedMode(type: string, view: 'results' | 'profile'): 'table' | null {
  return view === 'profile' && type !== 'number' && type !== 'currency' ? 'table' : null;
}

const fraction = (n: number) => formatLocaleNumber(n, { maximumFractionDigits: 3 });

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
  return `${formatLocaleNumber(Number(p.toFixed(3)), { maximumFractionDigits: 3 })} %`;
}

/** Numbers are shown with 2 decimals in results. */
export function formatNumber(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  return formatLocaleNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// Spec 001 names the result and chart date formats (result dates MM/DD/YYYY; chart dates MM-DD-YYYY, months and
// quarters MM-YYYY, years and larger YYYY, finer units with the time): English shows exactly those. The other
// languages show the same parts in their own order and marks (Intl, i18n/format.ts).
const pad = (n: number) => String(n).padStart(2, '0');
const english = () => (i18n.language || 'en').startsWith('en');
/**
 * A date or date-time of the API as the wall-clock time it names: a bare day ('2024-05-01') or year ('2020', a decade
 * or century of a comparison by period) would otherwise be read as UTC midnight, the day or year before west of UTC.
 */
function parse(value: string): Date | null {
  const text = /^\d{4}$/.test(value)
    ? `${value}-01-01T00:00`
    : /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? `${value}T00:00`
      : value;
  const d = new Date(text.replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Result dates: MM/DD/YYYY in English (spec 001), the day in the user's language otherwise. */
export function formatResultDate(iso: string | null | undefined): string {
  const d = iso ? parse(iso) : null;
  if (!d) return '—';
  return english() ? `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}` : formatDay(d);
}

const COARSE = new Set(['year', 'decade', 'century', 'millennium']);
const FINE = new Set(['microsecond', 'millisecond', 'second', 'minute', 'hour']);

/**
 * Chart dates: the day by default, month and year for months and quarters, the year for years and larger, with the
 * time below a day; in English as spec 001 writes them (MM-DD-YYYY, MM-YYYY, YYYY).
 */
export function formatChartDate(value: string, period = 'day'): string {
  const d = parse(value);
  if (!d) return value;
  if (!english()) {
    if (COARSE.has(period)) return formatMonth(d, 'year');
    if (period === 'month' || period === 'quarter') return formatMonth(d);
    if (FINE.has(period)) return formatDate(d);
    return formatDay(d);
  }
  const day = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${d.getFullYear()}`;
  if (COARSE.has(period)) return String(d.getFullYear());
  if (period === 'month' || period === 'quarter') return `${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
  if (FINE.has(period)) return `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return day;
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
