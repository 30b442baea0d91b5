// One plotly chart, loaded lazily (plotly.js is not in the first bundle), with the house tooltip: series names cut
// to 27 + '...' and laid out in two columns past 3 series (spec 001 §9). The bundle is plotly's cartesian one: it
// draws every trace of figure.ts (bar, box, pie, scatter with error bars) and histograms, at a third of the full
// library's size.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format';
import { cut, formatResultDate, LABEL_LIMITS, tooltipColumns } from './format';
import type { Figure } from './figure';

type Plotly = typeof import('plotly.js');
/** The chart transition (figure.ts, 2000 ms) and a margin. */
const PURGE_AFTER_MS = 2_200;
let loading: Promise<Plotly> | null = null;
/** plotly, fetched once; a failed fetch (offline) is tried again on the next call. */
export const loadPlotly = () =>
  (loading ??= import('plotly.js-cartesian-dist-min').then(
    (m) => ((m as { default?: Plotly }).default ?? m) as Plotly,
    (err: unknown) => {
      loading = null;
      throw err;
    },
  ));

interface Tip {
  x: number;
  y: number;
  rows: { name: string; value: string; color: string }[];
}

interface HoverPoint {
  data: { name?: string; type?: string };
  label?: string | number;
  x?: string | number;
  y?: string | number | null;
  value?: number;
  percent?: number;
  fullData?: { marker?: { color?: unknown } };
  color?: string;
}

/**
 * A tooltip row: a pie slice by its name; a mark of one series by its category (a group, a bin), of several by its
 * series and category (a group and a choice); a date per group (first and last) by group and series, with the date.
 */
function tipRow(p: HoverPoint, figure: Figure): Tip['rows'][number] {
  const color = typeof p.color === 'string' ? p.color : '#888';
  const series = p.data.name ?? '';
  if (p.data.type === 'pie') {
    const percent = formatNumber((p.percent ?? 0) * 100, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return {
      name: cut(String(p.label ?? ''), LABEL_LIMITS.tooltipName),
      value: `${formatNumber(p.value)} (${percent} %)`,
      color,
    };
  }
  if (figure.layout.xaxis?.type === 'date' && typeof p.y === 'string')
    return { name: cut(`${p.y} · ${series}`, LABEL_LIMITS.tooltipName), value: formatResultDate(String(p.x)), color };
  const category = p.x === undefined ? '' : String(p.x);
  const name = figure.series === 1 ? category || series : [series, category].filter(Boolean).join(' · ');
  return {
    name: cut(name, LABEL_LIMITS.tooltipName),
    value: typeof p.y === 'number' ? formatNumber(p.y) : String(p.y ?? ''),
    color,
  };
}

export function Chart({ figure, testId }: { figure: Figure; testId?: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const el = ref.current;
    loadPlotly()
      .then(async (Plotly) => {
        if (!live || !el) return;
        const width = figure.width ?? undefined;
        await Plotly.react(
          el,
          figure.data,
          { ...figure.layout, ...(width ? { width } : { autosize: true }) },
          { displayModeBar: false, responsive: width === undefined },
        );
        const target = el as unknown as {
          on: (e: string, f: (ev: { points: HoverPoint[]; event: MouseEvent }) => void) => void;
          removeAllListeners?: (e: string) => void;
        };
        target.removeAllListeners?.('plotly_hover');
        target.removeAllListeners?.('plotly_unhover');
        target.on('plotly_hover', (ev) => {
          const box = el.getBoundingClientRect();
          setTip({
            x: ev.event.clientX - box.left + 12,
            y: ev.event.clientY - box.top + 12,
            rows: ev.points.map((p) => tipRow(p, figure)),
          });
        });
        target.on('plotly_unhover', () => setTip(null));
      })
      .catch(() => setFailed(true));
    return () => {
      live = false;
    };
  }, [figure]);
  useEffect(() => {
    const el = ref.current;
    return () => {
      // After the chart's transition (2000 ms, spec 001 §9): purging a chart mid-transition left plotly's animation
      // timers drawing into a purged chart ("Cannot read properties of undefined (reading '_plots')") when the screen
      // was left while bars were still growing.
      if (el && loading) void loading.then((Plotly) => setTimeout(() => Plotly.purge(el), PURGE_AFTER_MS));
    };
  }, []);
  if (failed) return <p className="banner error">{t('known.chartFailed')}</p>;
  return (
    <div className="chart-wrap" style={figure.width ? { overflowX: 'auto' } : undefined}>
      <div
        ref={ref}
        className="chart"
        data-testid={testId}
        style={{ width: figure.width ?? '100%', minHeight: figure.layout.height ?? 320 }}
      />
      {tip && (
        <div
          className="chart-tip"
          role="tooltip"
          style={{ left: tip.x, top: tip.y, gridTemplateColumns: `repeat(${tooltipColumns(tip.rows.length)}, auto)` }}
        >
          {tip.rows.map((r, i) => (
            <span key={i}>
              <i style={{ background: r.color }} /> {r.name}: <b>{r.value}</b>
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
