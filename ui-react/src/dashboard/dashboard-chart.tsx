import { useEffect, useMemo, useRef, useState } from 'react';
import type { Chart, ChartAggregate, ChartGrouping, FieldValue, MessageKey, Property } from '../core.js';
import { formatValue, locale } from '../format.js';
import { useT, type T } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { UplotChart } from '../chart/uplot-chart.js';
import type { ObjectState } from './dashboard-model.js';

/**
 * A chart object of a dashboard: the answer of the chart module's aggregate query (chartData)
 * drawn with the list's chart component (uPlot). Loaded on demand: a dashboard without charts
 * does not load uPlot.
 */

const AGGREGATE_LABELS: Record<ChartAggregate, MessageKey> = {
  count: 'ChartAggCount',
  countdistinct: 'ChartAggCountdistinct',
  min: 'ChartAggMin',
  max: 'ChartAggMax',
  sum: 'ChartAggSum',
  average: 'ChartAggAverage',
};

/** An X value as people read it: option and lookup names, months and days in the language; an empty group '(empty)'. */
const categoryLabel = (t: T, p: Property | undefined, method: ChartGrouping, value: unknown): string => {
  if (value === null || value === undefined || value === '') return t('LblChartEmptyValue');
  if (method === 'column') return formatValue(p, value as FieldValue) || String(value);
  const key = String(value);
  if (method === 'month' && /^\d{4}-\d{2}$/.test(key)) return new Intl.DateTimeFormat(locale(), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${key}-01T00:00:00Z`));
  if (method === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(key)) return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
  return key;
};

/** A series' name: its label, else the aggregate and the field ('Sum (Estimated Value)'); split lines add the split value. */
const seriesLabel = (t: T, chart: Chart, props: Map<string, Property>, series: number, split?: { value: unknown }): string => {
  const s = chart.series[series];
  const p = props.get(s.aggregateField);
  const own = s.label ?? (s.aggregateMethod === 'count' && p?.type === 'Guid' ? t('ChartAggCount') : `${t(AGGREGATE_LABELS[s.aggregateMethod])} (${p?.displayName ?? s.aggregateField})`);
  if (!split || chart.groups.length < 2) return own;
  const by = categoryLabel(t, props.get(chart.groups[1].field), chart.groups[1].method, split.value);
  return chart.series.length > 1 ? `${own} · ${by}` : by;
};

/** The room below the plot's legend: the box's height, followed as the grid area grows or shrinks. */
const LEGEND_ROOM = 30;
const MIN_PLOT = 160;
const useBoxHeight = (): [React.RefObject<HTMLDivElement | null>, number] => {
  const ref = useRef<HTMLDivElement>(null);
  const [h, setH] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setH(Math.round(el.clientHeight)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, h];
};

const DashboardChart = ({ state, label }: { state: ObjectState & { _tag: 'Chart' }; label: string }) => {
  const t = useT();
  const { chart, data } = state;
  // Memoized: the chart rebuilds its plot only when what it draws changes.
  const drawn = useMemo(() => {
    const props = new Map((entityOf(state.entity)?.properties ?? []).map((p) => [p.logicalName, p]));
    const x = chart.groups[0];
    return {
      categories: data.categories.map((c) => (x ? categoryLabel(t, props.get(x.field), x.method, c.value) : '')),
      series: data.lines.map((l) => ({ label: seriesLabel(t, chart, props, l.series, l.split), color: l.color, values: l.values })),
    };
  }, [state, t]);
  // The chart fills its grid area (which the other objects of its rows size), at least MIN_PLOT high.
  const [box, boxHeight] = useBoxHeight();
  const height = Math.max(MIN_PLOT, boxHeight - (drawn.series.length > 1 ? LEGEND_ROOM : 0));
  if (data.categories.length === 0) return <p className="muted small dash-empty">{t('MsgChartEmpty')}</p>;
  return (
    <div className="dash-chart" ref={box}>
      <UplotChart
        type={chart.type}
        categories={drawn.categories}
        series={drawn.series}
        ariaLabel={label}
        height={height}
      />
    </div>
  );
};

export default DashboardChart;
