// The plotly figure of an item's results (spec 001 §9): traces, layout and width for its chart kind, with the
// palette and label limits. Pure: data in, figure out.
import i18n from 'i18next';
import type { Data, Layout } from 'plotly.js';
import { binLabels, cut, explicitWidth, formatChartDate, LABEL_LIMITS, PALETTE, type ChartKind } from './format';
import { distinct, OTHER, type GroupNames } from './labels';
import type { ChoiceCount, ComparisonGroup, ItemResult } from './resultsApi';

export interface Figure {
  data: Data[];
  layout: Partial<Layout>;
  width: number | null;
  /** Series shown, for the tooltip layout. */
  series: number;
}

export const localized = (text: Record<string, string> | undefined, lang: string, fallback = '') =>
  text?.[lang] ?? Object.values(text ?? {})[0] ?? fallback;

const base = (title: string): Partial<Layout> => ({
  title: { text: cut(title, LABEL_LIMITS.chartTitle), font: { size: 14 } },
  margin: { t: 40, r: 10, b: 60, l: 50 },
  height: 320,
  colorway: [...PALETTE],
  showlegend: true,
  // At the foot of the chart, under the axis' names however long they are (plotly makes room for it there).
  legend: { orientation: 'h', yref: 'container', y: 0, yanchor: 'bottom' },
  hovermode: 'closest',
  paper_bgcolor: 'rgba(0,0,0,0)',
  plot_bgcolor: 'rgba(0,0,0,0)',
  transition: { duration: 2000, easing: 'cubic-in-out' },
});

const tick = (s: string) => cut(s, LABEL_LIMITS.tickLabel);
const legend = (s: string) => cut(s, LABEL_LIMITS.legend);
/**
 * An axis of names (groups, choices): always a category axis. Left to plotly, an axis whose names are mostly numbers
 * ("0", "12") becomes a number axis on which every other name ("Anonymous", "Alice") has no place and is not drawn.
 */
const categories = (extra: Partial<Layout['xaxis']> = {}): Partial<Layout['xaxis']> => ({
  type: 'category',
  tickangle: -30,
  automargin: true,
  ...extra,
});
const isDate = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * The figure of an item's results: without a comparison, its own chart kind; with one, one mark per group named from
 * the comparison's kind (`names`), on a category axis. Lines join groups only when they are periods (a timeline);
 * sites, groups, teams, collectors and choices are bars (a date question: its answers per group, or the first and
 * last date per group when the value asked is the minimum or maximum).
 */
export function figureOf(
  item: ItemResult,
  kind: ChartKind,
  lang: string,
  names: GroupNames,
  title: string,
): Figure | null {
  if (kind === 'none') return null;
  const layout = base(title);
  const choiceName = (a: { name?: Record<string, string>; code_name?: string; choice_id: number }) =>
    localized(a.name, lang, a.code_name ?? String(a.choice_id));
  const groups = groupsOf(item);
  const by = item.comparison?.by;
  const labels = groups.map((g) => (by ? names(by, g.key) : g.key));
  /** The groups' names on a category axis (cut, and distinct: plotly draws equal names at one place). */
  const ticks = distinct(labels.map(tick));
  const legends = distinct(labels.map(legend));
  /** Periods are ordered in time: a line may join them. */
  const timeline = by?.by === 'period';
  const numeric = ['number', 'currency', 'calculated'].includes(item.type);
  const valueBy = item.aggregator && item.aggregator !== 'count' ? item.aggregator : 'avg';
  /** A number's value in a group: the aggregator asked for, else the mean. */
  const numberValue = (g: ComparisonGroup) => {
    const v = valueBy === item.aggregator ? g.value : g.stats?.avg;
    return typeof v === 'number' ? v : null;
  };
  const counts = () => groups.map((g) => g.stats?.count ?? 0);
  /** One bar per group. */
  const bars = (y: (number | null)[], axisTitle: string): Figure => {
    layout.showlegend = false;
    layout.xaxis = categories();
    layout.yaxis = { title: { text: cut(axisTitle, LABEL_LIMITS.axisLabel) } };
    return {
      data: [{ type: 'bar', name: legend(title), x: ticks, y, hoverinfo: 'none' }],
      layout,
      width: explicitWidth('bar', ticks.length),
      series: 1,
    };
  };
  /** One line through the periods. */
  const line = (y: (number | null)[], spline: boolean, axisTitle?: string): Figure => {
    layout.xaxis = categories();
    if (axisTitle !== undefined) {
      layout.showlegend = false;
      layout.yaxis = { rangemode: 'tozero', title: { text: cut(axisTitle, LABEL_LIMITS.axisLabel) } };
    }
    return {
      data: [
        {
          type: 'scatter',
          mode: spline ? 'lines' : 'lines+markers',
          ...(spline ? { line: { shape: 'spline' as const } } : {}),
          fill: kind === 'area-spline' ? 'tozeroy' : 'none',
          name: legend(title),
          x: ticks,
          y,
          hoverinfo: 'none',
        },
      ],
      layout,
      width: explicitWidth('line', ticks.length),
      series: 1,
    };
  };
  /** Grouped bars of a choice question: one series per group (or a line per choice through the periods). */
  const choicesByGroup = (answers: ChoiceCount[], lines: boolean): Figure => {
    const count = (g: ComparisonGroup, a: ChoiceCount) =>
      g.answers?.find((b) => b.choice_id === a.choice_id)?.count ?? 0;
    if (lines) {
      layout.xaxis = categories();
      const data: Data[] = answers.map((a) => ({
        type: 'scatter',
        mode: 'lines+markers',
        name: legend(choiceName(a)),
        x: ticks,
        y: groups.map((g) => count(g, a)),
        hoverinfo: 'none',
      }));
      return { data, layout, width: explicitWidth('line', ticks.length), series: data.length };
    }
    const x = distinct(answers.map(choiceName).map(tick));
    const data: Data[] = groups.map((g, i) => ({
      type: 'bar',
      name: legends[i],
      x,
      y: answers.map((a) => count(g, a)),
      hoverinfo: 'none',
    }));
    layout.barmode = 'group';
    layout.xaxis = categories();
    return { data, layout, width: explicitWidth('bar', x.length, groups.length), series: groups.length };
  };

  if (kind === 'text') {
    if (groups.length === 0) return null;
    const answered = i18n.t('results.stats.count');
    return timeline ? line(counts(), false, answered) : bars(counts(), answered);
  }

  if (item.type === 'date') {
    if (groups.length === 0) {
      // A timeline of the answers.
      const series = dateSeries(item.series ?? []);
      const x = series.points.map((p) => formatChartDate(p.date, series.period));
      layout.xaxis = categories();
      return {
        data: [
          {
            type: 'scatter',
            mode: 'lines+markers',
            name: legend(title),
            x,
            y: series.points.map((p) => p.count),
            hoverinfo: 'none',
          },
        ],
        layout,
        width: explicitWidth('line', x.length),
        series: 1,
      };
    }
    const ranged = groups.filter((g) => isDate(g.stats?.min) && isDate(g.stats?.max));
    if ((item.aggregator === 'min' || item.aggregator === 'max') && ranged.length > 0)
      return firstAndLast(layout, groups, ticks);
    const answered = i18n.t('results.responses');
    return timeline ? line(counts(), false, answered) : bars(counts(), answered);
  }

  if (kind === 'area-spline') {
    if (groups.length === 0) return line([numeric ? (item.stats.avg ?? null) : item.stats.count], true);
    const y = numeric ? groups.map(numberValue) : counts();
    return timeline ? line(y, true) : bars(y, i18n.t(numeric ? `results.stats.${valueBy}` : 'results.responses'));
  }

  if (kind === 'line' && groups.length > 0 && !numeric) {
    if (item.answers) return choicesByGroup(item.answers, timeline);
    const answered = i18n.t('results.responses');
    return timeline ? line(counts(), false, answered) : bars(counts(), answered);
  }

  if (numeric) {
    if (kind === 'box') {
      // Box-whisker 95: quartiles and min/max per group, the mean with its 95% interval beside it.
      const rows =
        groups.length > 0
          ? groups.map((g, i) => ({ label: ticks[i]!, s: g.stats }))
          : [{ label: i18n.t('results.all'), s: item.stats }];
      const x = rows.map((r) => r.label);
      const num = (v: unknown) => (typeof v === 'number' ? v : null);
      const box: Data = {
        type: 'box',
        name: legend(title),
        x,
        q1: rows.map((r) => r.s?.quartiles?.[0] ?? null),
        median: rows.map((r) => r.s?.quartiles?.[1] ?? null),
        q3: rows.map((r) => r.s?.quartiles?.[2] ?? null),
        lowerfence: rows.map((r) => num(r.s?.min)),
        upperfence: rows.map((r) => num(r.s?.max)),
        hoverinfo: 'none',
      } as Data;
      const mean: Data = {
        type: 'scatter',
        mode: 'markers',
        name: i18n.t('results.mean95'),
        x,
        y: rows.map((r) => r.s?.avg ?? null),
        error_y: {
          type: 'data',
          symmetric: false,
          array: rows.map((r) => (r.s?.ci95 && r.s.avg !== null && r.s.avg !== undefined ? r.s.ci95[1] - r.s.avg : 0)),
          arrayminus: rows.map((r) =>
            r.s?.ci95 && r.s.avg !== null && r.s.avg !== undefined ? r.s.avg - r.s.ci95[0] : 0,
          ),
        },
        hoverinfo: 'none',
      };
      layout.xaxis = categories();
      return { data: [box, mean], layout, width: explicitWidth('line', x.length), series: 2 };
    }
    if (groups.length > 0) return bars(groups.map(numberValue), i18n.t(`results.stats.${valueBy}`));
    // The distribution of the answers: a histogram of round bins, empty bins included (the shape shows gaps).
    const bins = item.histogram ?? [];
    const labels = binLabels(bins, item.integer_bins === true);
    layout.showlegend = false;
    layout.bargap = 0.04;
    layout.xaxis = categories();
    layout.yaxis = { title: { text: cut(i18n.t('results.responses'), LABEL_LIMITS.axisLabel) } };
    return {
      data: [
        { type: 'bar', name: i18n.t('results.responses'), x: labels, y: bins.map((h) => h.count), hoverinfo: 'none' },
      ],
      layout,
      width: null,
      series: 1,
    };
  }

  const answers = item.answers ?? [];
  if (groups.length > 0) return choicesByGroup(answers, false);
  if (!item.answers) return null;
  const choices = answers.map(choiceName);
  if (kind === 'bar') {
    layout.showlegend = false;
    layout.xaxis = categories();
    layout.yaxis = { title: { text: cut(i18n.t('results.responses'), LABEL_LIMITS.axisLabel) } };
    const data: Data[] = [
      {
        type: 'bar',
        x: distinct(choices.map(tick)),
        y: answers.map((a) => a.count),
        marker: { color: answers.map((_, i) => PALETTE[i % PALETTE.length]!) },
        hoverinfo: 'none',
      },
    ];
    return { data, layout, width: explicitWidth('bar', choices.length), series: 1 };
  }
  return {
    data: [
      {
        type: 'pie',
        labels: distinct(choices.map(legend)),
        values: answers.map((a) => a.count),
        sort: false,
        marker: { colors: [...PALETTE] },
        hoverinfo: 'none',
        textinfo: 'percent',
      },
    ],
    layout,
    width: null,
    series: 1,
  };
}

/**
 * A date question per group when the value asked is its first or last date: per group (one row each, the first on
 * top) a segment from its first to its last answer's date, with both ends marked.
 */
function firstAndLast(layout: Partial<Layout>, groups: ComparisonGroup[], ticks: string[]): Figure {
  const date = (v: unknown) => (isDate(v) ? v.slice(0, 10) : null);
  const first = groups.map((g) => date(g.stats?.min));
  const last = groups.map((g) => date(g.stats?.max));
  layout.xaxis = { type: 'date', automargin: true };
  layout.yaxis = categories({ tickangle: 0, autorange: 'reversed' });
  layout.height = Math.max(320, 120 + 36 * groups.length);
  const marks = (name: string, x: (string | null)[], color: string): Data => ({
    type: 'scatter',
    mode: 'markers',
    name,
    x,
    y: ticks,
    marker: { size: 10, color },
    hoverinfo: 'none',
  });
  const spans: Data = {
    type: 'scatter',
    mode: 'lines',
    x: groups.flatMap((_, i) => [first[i]!, last[i]!, null]),
    y: groups.flatMap((_, i) => [ticks[i]!, ticks[i]!, null]),
    line: { color: '#999', width: 3 },
    showlegend: false,
    hoverinfo: 'skip',
  };
  return {
    data: [
      spans,
      marks(i18n.t('results.stats.first'), first, PALETTE[1]),
      marks(i18n.t('results.stats.last'), last, PALETTE[2]),
    ],
    layout,
    width: null,
    series: 2,
  };
}

/** The groups of the item's comparison, with the capped rest last as one "other" group. */
export function groupsOf(item: ItemResult): ComparisonGroup[] {
  const c = item.comparison;
  if (!c) return [];
  return c.capped?.other && c.by.by !== 'period' ? [...c.groups, { ...c.capped.other, key: OTHER }] : c.groups;
}

/** A box plot of a number question's quartiles (whiskers at its minimum and maximum), drawn under its histogram. */
export function boxFigure(item: ItemResult, title: string): Figure | null {
  const s = item.stats;
  if (!s.quartiles || typeof s.min !== 'number' || typeof s.max !== 'number') return null;
  const layout = base('');
  layout.height = 130;
  layout.margin = { t: 10, r: 10, b: 30, l: 50 };
  layout.showlegend = false;
  layout.yaxis = { showticklabels: false };
  const box = {
    type: 'box',
    orientation: 'h',
    name: legend(title),
    y: [legend(title)],
    q1: [s.quartiles[0]],
    median: [s.quartiles[1]],
    q3: [s.quartiles[2]],
    lowerfence: [s.min],
    upperfence: [s.max],
    ...(typeof s.avg === 'number' ? { mean: [s.avg] } : {}),
    hoverinfo: 'none',
  } as Data;
  return { data: [box], layout, width: null, series: 1 };
}

const DAY = 86_400_000;
const utc = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * A timeline of answers: per day up to 60 days, else per month up to 120 months, else per year; every period between
 * the first and the last is there, those without answers at 0, so that the line's spacing is time's.
 */
export function dateSeries(points: { date: string; count: number }[]): {
  period: 'day' | 'month' | 'year';
  points: { date: string; count: number }[];
} {
  const sorted = points.filter((p) => !Number.isNaN(utc(p.date))).sort((a, b) => utc(a.date) - utc(b.date));
  if (sorted.length === 0) return { period: 'day', points: [] };
  const first = utc(sorted[0]!.date);
  const last = utc(sorted.at(-1)!.date);
  const fill = (key: (date: string) => string, next: (t: number) => number) => {
    const sums = new Map<string, number>();
    for (const p of sorted) sums.set(key(p.date), (sums.get(key(p.date)) ?? 0) + p.count);
    const out: { date: string; count: number }[] = [];
    for (let t = utc(key(iso(first))); t <= last; t = next(t)) out.push({ date: iso(t), count: sums.get(iso(t)) ?? 0 });
    return out;
  };
  const addMonths = (t: number, n: number) => {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  };
  if ((last - first) / DAY < 60)
    return {
      period: 'day',
      points: fill(
        (d) => d.slice(0, 10),
        (t) => t + DAY,
      ),
    };
  const months =
    (new Date(last).getUTCFullYear() - new Date(first).getUTCFullYear()) * 12 +
    new Date(last).getUTCMonth() -
    new Date(first).getUTCMonth();
  if (months < 120)
    return {
      period: 'month',
      points: fill(
        (d) => `${d.slice(0, 7)}-01`,
        (t) => addMonths(t, 1),
      ),
    };
  return {
    period: 'year',
    points: fill(
      (d) => `${d.slice(0, 4)}-01-01`,
      (t) => addMonths(t, 12),
    ),
  };
}
