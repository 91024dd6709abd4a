import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { cutLabel } from '../core.js';

/**
 * Draws categories and series with uPlot, as bars or lines (spec 001 section 9), for the list's
 * chart mode and the dashboards. It knows nothing of queries: give it what to draw (chartData of
 * the core gives the categories, lines and colours). Import it only from a module that is itself
 * loaded on demand (React.lazy), so uPlot and its CSS stay out of the first bundle.
 *
 * - Legend labels are cut to 10 characters plus '...' (the full text is the title and in the
 *   table for screen readers); X axis labels are cut the same way.
 * - A click on a column (bar or point) calls onPick(index); `picked` highlights that column.
 * - Keyboard: the chart is focusable; Left/Right/Home/End move over the columns, Enter or Space picks.
 * - Follows the width of its box and the light or dark theme (axis colours from the CSS variables).
 * - Pass `categories` and `series` memoized: new arrays rebuild the plot.
 */
export type UplotSeries = {
  label: string;
  color: string;
  values: ReadonlyArray<number | null>;
  /**
   * The Y scale of the series (default 'y'). Series of another scale get their own axis on the
   * right, so a count and a sum of money in one chart both stay readable. At most two are drawn.
   */
  scale?: string;
};

export type UplotChartProps = {
  type: 'bar' | 'line';
  /** the X labels, one per column (already formatted) */
  categories: readonly string[];
  series: readonly UplotSeries[];
  /** the accessible name of the chart */
  ariaLabel: string;
  /** a click or Enter on column `index` */
  onPick?: (index: number) => void;
  /** the column shown as picked (the list is filtered by it) */
  picked?: number | null;
  /** plot height in CSS pixels (default 280) */
  height?: number;
  /** a Y value as text (axis, hover readout, table); default: the page language's number format */
  formatValue?: (v: number) => string;
  /** show the legend (default: when there is more than one series) */
  legend?: boolean;
  /** a fixed Y scale, e.g. [0, 5] for the community evaluation's scores (default: from 0 to the data's maximum); pass a constant */
  yRange?: readonly [number, number];
};

/** The smallest horizontal room (px) an X label gets; denser labels are thinned out. */
const LABEL_ROOM = 64;
/** The widest bar (px): a chart of one or two columns keeps slim bars. */
const MAX_BAR = 64;

const cssVar = (name: string, fallback: string): string =>
  (typeof document === 'undefined' ? '' : getComputedStyle(document.documentElement).getPropertyValue(name).trim()) || fallback;

/** The theme version: changes when the page switches light/dark, so the chart redraws with the new colours. */
const useThemeVersion = (): number => {
  const [v, setV] = useState(0);
  useEffect(() => {
    const o = new MutationObserver(() => setV((x) => x + 1));
    o.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => o.disconnect();
  }, []);
  return v;
};

/** `color` with an alpha (for the columns not picked): #rrggbb only, others as they are. */
const faded = (color: string): string => (/^#[0-9a-f]{6}$/i.test(color) ? `${color}55` : color);

export const UplotChart = ({ type, categories, series, ariaLabel, onPick, picked = null, height = 280, formatValue, legend, yRange: fixedRange }: UplotChartProps) => {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const readout = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<number | null>(null);
  const theme = useThemeVersion();
  const n = categories.length;
  const fmt = useMemo(() => formatValue ?? ((v: number) => new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 2 }).format(v)), [formatValue]);
  // The latest callbacks and picked column, read by uPlot's handlers without rebuilding the plot.
  const live = useRef({ onPick, picked, categories, series, fmt });
  live.current = { onPick, picked, categories, series, fmt };

  useEffect(() => {
    const el = box.current;
    if (!el || n === 0) return;
    const text = cssVar('--text-2', '#4a5466');
    const grid = cssVar('--border', '#dfe3ea');
    const accent = cssVar('--accent-soft', '#eef0ff');
    const k = Math.max(1, series.length);
    // Grouped bars: each series takes a slice of the column (scale units; column i spans i-0.4..i+0.4),
    // a bar at most MAX_BAR px wide, centred in its slice.
    const slot = 0.8 / k;
    const barUnits = (u: uPlot): number => Math.min(slot * 0.9, MAX_BAR / Math.max(1, u.bbox.width / devicePixelRatio / Math.max(1, n)));
    const bars = (s: number) =>
      uPlot.paths.bars?.({
        size: [1, Infinity],
        disp: {
          x0: { unit: 1, values: (u) => (u.data[0] as number[]).map((x) => x - 0.4 + s * slot + (slot - barUnits(u)) / 2) },
          size: { unit: 1, values: (u) => [barUnits(u)] },
          fill: {
            unit: 3,
            values: (u, sidx) => {
              const c = live.current.series[sidx - 1]?.color ?? '#0071eb';
              const p = live.current.picked;
              return (u.data[0] as number[]).map((_, i) => (p === null || p === undefined || p === i ? c : faded(c)));
            },
          },
        },
      });
    const scaleKeys = [...new Set(series.map((s) => s.scale ?? 'y'))].slice(0, 2);
    const scaleOf = (s: UplotSeries): string => (scaleKeys.includes(s.scale ?? 'y') ? (s.scale ?? 'y') : scaleKeys[0]);
    const yRange: uPlot.Scale.Range = fixedRange ? () => [fixedRange[0], fixedRange[1]] : (_u, min, max) => [Math.min(0, min ?? 0), max > 0 ? max * 1.08 : 1];
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false, setScale: false }, points: { show: type === 'line' }, y: false },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: { x: { time: false, range: () => [-0.5, n - 0.5] }, ...Object.fromEntries(scaleKeys.map((k) => [k, { range: yRange }])) },
      axes: [
        {
          stroke: text,
          grid: { show: false },
          ticks: { stroke: grid },
          splits: (u) => {
            const every = Math.max(1, Math.ceil(n / Math.max(1, u.bbox.width / devicePixelRatio / LABEL_ROOM)));
            return Array.from({ length: n }, (_, i) => i).filter((i) => i % every === 0);
          },
          values: (_u, splits) => splits.map((i) => cutLabel(live.current.categories[i] ?? '')),
        },
        ...scaleKeys.map((k, i) => ({
          scale: k,
          side: i === 0 ? 3 : 1,
          stroke: text,
          grid: { show: i === 0, stroke: grid, width: 1 },
          ticks: { stroke: grid },
          values: (_u: uPlot, splits: number[]) => splits.map((v) => live.current.fmt(v)),
          size: 64,
        })),
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          scale: scaleOf(s),
          stroke: s.color,
          width: type === 'line' ? 2 : 0,
          fill: type === 'bar' ? s.color : undefined,
          paths: type === 'bar' ? bars(i) : undefined,
          points: { show: type === 'line', size: 6, fill: s.color },
          spanGaps: false,
        })),
      ],
      hooks: {
        // The picked column is a soft band behind the series.
        drawClear: [
          (u) => {
            const p = live.current.picked;
            if (p === null || p === undefined) return;
            const l = u.valToPos(p - 0.5, 'x', true);
            const r = u.valToPos(p + 0.5, 'x', true);
            u.ctx.save();
            u.ctx.fillStyle = accent;
            u.ctx.fillRect(l, u.bbox.top, r - l, u.bbox.height);
            u.ctx.restore();
          },
        ],
        setCursor: [
          (u) => {
            const out = readout.current;
            if (!out) return;
            const i = u.cursor.idx;
            if (i === null || i === undefined) {
              out.classList.remove('shown');
              return;
            }
            const cur = live.current;
            out.classList.add('shown');
            out.replaceChildren(
              Object.assign(document.createElement('strong'), { textContent: cur.categories[i] ?? '' }),
              ...cur.series.map((s) => {
                const row = document.createElement('span');
                const sw = Object.assign(document.createElement('i'), { className: 'chart-swatch' });
                sw.style.background = s.color;
                const v = s.values[i];
                row.append(sw, `${s.label}: ${v === null || v === undefined ? '–' : cur.fmt(v)}`);
                return row;
              }),
            );
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [Array.from({ length: n }, (_, i) => i), ...series.map((s) => s.values.map((v) => v ?? null))] as uPlot.AlignedData;
    const u = new uPlot(opts, data, el);
    plot.current = u;
    const click = () => {
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) live.current.onPick?.(i);
    };
    u.over.addEventListener('click', click);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = null;
    };
  }, [type, n, series, categories, height, theme, fixedRange]);

  // A new pick redraws the highlight without rebuilding the plot.
  useEffect(() => plot.current?.redraw(true, false), [picked]);

  const move = (i: number) => {
    const u = plot.current;
    const next = Math.max(0, Math.min(n - 1, i));
    setFocus(next);
    if (u) u.setCursor({ left: u.valToPos(next, 'x'), top: u.bbox.height / devicePixelRatio / 2 });
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (n === 0) return;
    const at = focus ?? picked ?? -1;
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(at + 1),
      ArrowLeft: () => move(at < 0 ? n - 1 : at - 1),
      Home: () => move(0),
      End: () => move(n - 1),
      Enter: () => at >= 0 && onPick?.(at),
      ' ': () => at >= 0 && onPick?.(at),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  const showLegend = legend ?? series.length > 1;
  return (
    <div className="uplot-chart">
      {showLegend && (
        <ul className="chart-legend">
          {series.map((s, i) => (
            <li key={i} title={s.label}>
              <i className="chart-swatch" style={{ background: s.color }} aria-hidden="true" />
              {cutLabel(s.label)}
            </li>
          ))}
        </ul>
      )}
      {/* The hovered or focused column's values, in a row of its own so it never covers the bars. */}
      <div className="chart-readout" ref={readout} aria-live="polite" />
      <div
        className="chart-plot"
        ref={box}
        tabIndex={0}
        role="group"
        aria-label={ariaLabel}
        aria-describedby={undefined}
        onKeyDown={onKey}
        onBlur={() => setFocus(null)}
        onMouseLeave={() => readout.current?.classList.remove('shown')}
      />
      <table className="sr-only">
        <caption>{ariaLabel}</caption>
        <thead>
          <tr>
            <th scope="col" />
            {series.map((s, i) => (
              <th key={i} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {categories.map((c, i) => (
            <tr key={i}>
              <th scope="row">{c}</th>
              {series.map((s, j) => (
                <td key={j}>{s.values[i] === null || s.values[i] === undefined ? '' : fmt(s.values[i] as number)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

export default UplotChart;
