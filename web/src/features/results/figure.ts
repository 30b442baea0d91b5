// The plotly figure of an item's results (spec 001 §9): traces, layout and width for its chart kind, with the
// palette and label limits. Pure: data in, figure out.
import type { Data, Layout } from 'plotly.js';
import { cut, explicitWidth, formatChartDate, LABEL_LIMITS, PALETTE, type ChartKind } from './format';
import type { ItemResult } from './resultsApi';

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
  if (kind === 'none') return null;
  const layout = base(title);
  const choiceName = (a: { name?: Record<string, string>; code_name?: string; choice_id: number }) =>
    localized(a.name, lang, a.code_name ?? String(a.choice_id));
  const groups = item.comparison?.groups ?? [];
  const keyLabel = (key: string) => (item.comparison?.by.by === 'period' ? formatChartDate(key, period) : names(key));
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
      x = groups.length > 0 ? groups.map((g) => keyLabel(g.key)) : ['All'];
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
          : [{ label: 'All', s: item.stats }];
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
        name: 'Mean (95%)',
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
      layout.yaxis = { title: { text: cut('Average', LABEL_LIMITS.axisLabel) } };
      return {
        data: [{ type: 'bar', name: legend(title), x, y: groups.map((g) => g.stats?.avg ?? null), hoverinfo: 'none' }],
        layout,
        width: explicitWidth('bar', x.length),
        series: 1,
      };
    }
    // The distribution of the answers, by histogram bins.
    const bins = (item.histogram ?? []).filter((h) => h.count > 0);
    const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
    const labels = bins.map((h) => `${fmt(h.lower)} – ${fmt(h.upper)}`);
    return {
      data: [
        {
          type: 'pie',
          labels,
          values: bins.map((h) => Math.round(h.count * 100) / 100),
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
    layout.yaxis = { title: { text: cut('Responses', LABEL_LIMITS.axisLabel) } };
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

/** Answers per day, or per month when there are more than 60 days (a readable line). */
export function dateSeries(points: { date: string; count: number }[]): {
  period: 'day' | 'month';
  points: { date: string; count: number }[];
} {
  if (points.length <= 60) return { period: 'day', points };
  const months = new Map<string, number>();
  for (const p of points)
    months.set(`${p.date.slice(0, 7)}-01`, (months.get(`${p.date.slice(0, 7)}-01`) ?? 0) + p.count);
  return { period: 'month', points: [...months].map(([date, count]) => ({ date, count })) };
}
