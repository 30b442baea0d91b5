// One plotly chart, loaded lazily (plotly.js is not in the first bundle), with the house tooltip: series names cut
// to 27 + '...' and laid out in two columns past 3 series (spec 001 §9). The bundle is plotly's cartesian one: it
// draws every trace of figure.ts (bar, box, pie, scatter with error bars) and histograms, at a third of the full
// library's size.
import { useEffect, useRef, useState } from 'react';
import { cut, LABEL_LIMITS, tooltipColumns } from './format';
import type { Figure } from './figure';

type Plotly = typeof import('plotly.js');
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

export function Chart({ figure, testId }: { figure: Figure; testId?: string }) {
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
            rows: ev.points.map((p) => ({
              name: cut(String(p.data.type === 'pie' ? p.label : (p.data.name ?? p.x ?? '')), LABEL_LIMITS.tooltipName),
              value:
                p.data.type === 'pie'
                  ? `${p.value ?? ''} (${((p.percent ?? 0) * 100).toFixed(1)} %)`
                  : String(p.y ?? ''),
              color: typeof p.color === 'string' ? p.color : '#888',
            })),
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
      if (el && loading) void loading.then((Plotly) => Plotly.purge(el));
    };
  }, []);
  if (failed)
    return (
      <p className="banner error">
        {
          "Your visualization update failed. We've reverted to its previous state. Please contact support if you need assistance."
        }
      </p>
    );
  return (
    <div className="chart-wrap" style={figure.width ? { overflowX: 'auto' } : undefined}>
      <div ref={ref} className="chart" data-testid={testId} style={{ width: figure.width ?? '100%', minHeight: 320 }} />
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
