// The plotly figure of an item's results (spec 001 §9): traces, layout and width for its chart kind, with the
// palette and label limits. Pure: data in, figure out.
import i18n from 'i18next';
import type { Data, Layout } from 'plotly.js';
import { binLabels, cut, explicitWidth, formatChartDate, LABEL_LIMITS, PALETTE, type ChartKind } from './format';
import type { ComparisonGroup, ItemResult } from './resultsApi';

export interface Figure {
  data: Data[];
  layout: Partial<Layout>;
  width: number | null;
  /** Series shown, for the tooltip layout. */
  series: number;
}

/** Names for the keys of a comparison (site, group, team, collector ids or choice ids), given by the screen. */
export type KeyNames = (key: string) => string;

export const localized = (text: Record<string, string> | undefined, lang: string, fallback = '') =>
  text?.[lang] ?? Object.values(text ?? {})[0] ?? fallback;

const base = (title: string): Partial<Layout> => ({
  title: { text: cut(title, LABEL_LIMITS.chartTitle), font: { size: 14 } },
  margin: { t: 40, r: 10, b: 60, l: 50 },
  height: 320,
  colorway: [...PALETTE],
  showlegend: true,
  legend: { orientation: 'h' },
  hovermode: 'closest',
  paper_bgcolor: 'rgba(0,0,0,0)',
  plot_bgcolor: 'rgba(0,0,0,0)',
  transition: { duration: 2000, easing: 'cubic-in-out' },
});

const tick = (s: string) => cut(s, LABEL_LIMITS.tickLabel);
const legend = (s: string) => cut(s, LABEL_LIMITS.legend);

export function figureOf(
  item: ItemResult,
  kind: ChartKind,
  lang: string,
  names: KeyNames,
  title: string,
  period = 'month',
): Figure | null {
  if (kind === 'none' || kind === 'text') return null;
  const layout = base(title);
  const choiceName = (a: { name?: Record<string, string>; code_name?: string; choice_id: number }) =>
    localized(a.name, lang, a.code_name ?? String(a.choice_id));
  const groups = groupsOf(item);
  const keyLabel = (key: string) =>
    key === OTHER
      ? i18n.t('results.other')
      : item.comparison?.by.by === 'period'
        ? formatChartDate(key, period)
        : names(key);
  const numeric = ['number', 'currency', 'calculated'].includes(item.type);

  if (item.type === 'date' || (kind === 'line' && groups.length > 0 && !numeric) || kind === 'area-spline') {
    // A line: answers per date, or per comparison group (trend).
    let x: string[];
    let traces: Data[];
    if (item.type === 'date' && groups.length === 0) {
      const series = dateSeries(item.series ?? []);
      x = series.points.map((p) => formatChartDate(p.date, series.period));
      traces = [
        {
          type: 'scatter',
          mode: 'lines+markers',
          name: legend(title),
          x,
          y: series.points.map((p) => p.count),
          hoverinfo: 'none',
        },
      ];
    } else if (item.answers && groups.length > 0) {
      x = groups.map((g) => keyLabel(g.key));
      traces = item.answers.map((a) => ({
        type: 'scatter',
        mode: 'lines+markers',
        name: legend(choiceName(a)),
        x,
        y: groups.map((g) => g.answers?.find((b) => b.choice_id === a.choice_id)?.count ?? 0),
        hoverinfo: 'none',
      }));
    } else {
      x = groups.length > 0 ? groups.map((g) => keyLabel(g.key)) : [i18n.t('results.all')];
      const ys =
        groups.length > 0
          ? groups.map((g) => (numeric ? (g.stats?.avg ?? null) : (g.stats?.count ?? 0)))
          : [numeric ? (item.stats.avg ?? null) : item.stats.count];
      traces = [
        {
          type: 'scatter',
          mode: 'lines',
          line: { shape: 'spline' },
          fill: kind === 'area-spline' ? 'tozeroy' : 'none',
          name: legend(title),
          x,
          y: ys,
          hoverinfo: 'none',
        },
      ];
    }
    layout.xaxis = { tickangle: -30, automargin: true };
    return { data: traces, layout, width: explicitWidth('line', x.length), series: traces.length };
  }

  if (numeric) {
    if (kind === 'box') {
      // Box-whisker 95: quartiles and min/max per group, the mean with its 95% interval beside it.
      const rows =
        groups.length > 0
          ? groups.map((g) => ({ label: keyLabel(g.key), s: g.stats }))
          : [{ label: i18n.t('results.all'), s: item.stats }];
      const x = rows.map((r) => r.label);
      const box: Data = {
        type: 'box',
        name: legend(title),
        x,
        q1: rows.map((r) => r.s?.quartiles?.[0] ?? null),
        median: rows.map((r) => r.s?.quartiles?.[1] ?? null),
        q3: rows.map((r) => r.s?.quartiles?.[2] ?? null),
        lowerfence: rows.map((r) => r.s?.min ?? null),
        upperfence: rows.map((r) => r.s?.max ?? null),
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
      return { data: [box, mean], layout, width: explicitWidth('line', x.length), series: 2 };
    }
    if (groups.length > 0) {
      const x = groups.map((g) => tick(keyLabel(g.key)));
      const by = item.aggregator && item.aggregator !== 'count' ? item.aggregator : 'avg';
      layout.yaxis = { title: { text: cut(i18n.t(`results.stats.${by}`), LABEL_LIMITS.axisLabel) } };
      const y = groups.map((g) => {
        const v = by === item.aggregator ? g.value : g.stats?.avg;
        return typeof v === 'number' ? v : null;
      });
      return {
        data: [{ type: 'bar', name: legend(title), x, y, hoverinfo: 'none' }],
        layout,
        width: explicitWidth('bar', x.length),
        series: 1,
      };
    }
    // The distribution of the answers: a histogram of round bins, empty bins included (the shape shows gaps).
    const bins = item.histogram ?? [];
    const labels = binLabels(bins, item.integer_bins === true);
    layout.showlegend = false;
    layout.bargap = 0.04;
    layout.xaxis = { type: 'category', tickangle: -30, automargin: true };
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
  const labels = answers.map(choiceName);
  if (groups.length > 0) {
    // Grouped bars: one series per comparison group.
    const data: Data[] = groups.map((g) => ({
      type: 'bar',
      name: legend(keyLabel(g.key)),
      x: labels.map(tick),
      y: answers.map((a) => g.answers?.find((b) => b.choice_id === a.choice_id)?.count ?? 0),
      hoverinfo: 'none',
    }));
    layout.barmode = 'group';
    return { data, layout, width: explicitWidth('bar', labels.length, groups.length), series: groups.length };
  }
  if (kind === 'bar') {
    layout.showlegend = false;
    layout.yaxis = { title: { text: cut(i18n.t('results.responses'), LABEL_LIMITS.axisLabel) } };
    const data: Data[] = [
      {
        type: 'bar',
        x: labels.map(tick),
        y: answers.map((a) => a.count),
        marker: { color: answers.map((_, i) => PALETTE[i % PALETTE.length]!) },
        hoverinfo: 'none',
      },
    ];
    return { data, layout, width: explicitWidth('bar', labels.length), series: 1 };
  }
  return {
    data: [
      {
        type: 'pie',
        labels: labels.map(legend),
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

/** The key of the one group of a capped comparison that holds the answers of every group past its limit. */
export const OTHER = '\u0000other';

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
