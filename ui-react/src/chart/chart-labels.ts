import type { Chart, ChartAggregate, ChartData, ChartGrouping, ChartLine, FieldValue, MessageKey, Property } from '../core.js';
import { formatValue, locale } from '../format.js';
import type { T } from '../i18n.js';
import type { UplotSeries } from './uplot-chart.js';

/**
 * How a chart's answer reads (the list's chart mode and the dashboards): X values by their names
 * (options, lookups; months and days in the language; '(empty)'), series by their label or
 * aggregate and field, counts and values on their own axes.
 */

export const AGGREGATE_LABELS: Record<ChartAggregate, MessageKey> = {
  count: 'ChartAggCount',
  countdistinct: 'ChartAggCountdistinct',
  min: 'ChartAggMin',
  max: 'ChartAggMax',
  sum: 'ChartAggSum',
  average: 'ChartAggAverage',
};
export const GROUPING_LABELS: Record<ChartGrouping, MessageKey> = {
  column: 'ChartGroupColumn',
  year: 'ChartGroupYear',
  quarter: 'ChartGroupQuarter',
  month: 'ChartGroupMonth',
  week: 'ChartGroupWeek',
  day: 'ChartGroupDay',
};

const COUNTS: ReadonlySet<ChartAggregate> = new Set(['count', 'countdistinct']);

/** An X value as people read it: option and lookup names, dates in the language; an empty group '(empty)'. */
export const categoryLabel = (t: T, p: Property | undefined, method: ChartGrouping, value: unknown): string => {
  if (value === null || value === undefined || value === '') return t('LblChartEmptyValue');
  if (method === 'column') return formatValue(p, value as FieldValue) || String(value);
  const key = String(value);
  if (method === 'month' && /^\d{4}-\d{2}$/.test(key)) return new Intl.DateTimeFormat(locale(), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${key}-01T00:00:00Z`));
  if (method === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(key)) return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
  return key;
};

/** A drawn line's name: its series' label, else the aggregate and the field ('Sum (Estimated Value)'); a split line adds the split value. */
export const seriesLabel = (t: T, chart: Chart, props: ReadonlyMap<string, Property>, line: Pick<ChartLine, 'series' | 'split'>): string => {
  const s = chart.series[line.series];
  const p = props.get(s.aggregateField);
  const own = s.label ?? (s.aggregateMethod === 'count' && p?.type === 'Guid' ? t('ChartAggCount') : `${t(AGGREGATE_LABELS[s.aggregateMethod])} (${p?.displayName ?? s.aggregateField})`);
  if (!line.split || chart.groups.length < 2) return own;
  const by = categoryLabel(t, props.get(chart.groups[1].field), chart.groups[1].method, line.split.value);
  return chart.series.length > 1 ? `${own} · ${by}` : by;
};

/**
 * What UplotChart draws of an answer: the X labels and the series with their names, colours and
 * axes (counts and values such as sums on their own axes, so neither flattens the other).
 */
export const drawnChart = (t: T, chart: Chart, props: ReadonlyMap<string, Property>, data: ChartData): { categories: string[]; series: UplotSeries[] } => {
  const x = chart.groups[0];
  return {
    categories: data.categories.map((k) => (x ? categoryLabel(t, props.get(x.field), x.method, k.value) : '')),
    series: data.lines.map((l) => ({
      label: seriesLabel(t, chart, props, l),
      color: l.color,
      values: l.values,
      scale: COUNTS.has(chart.series[l.series].aggregateMethod) ? 'count' : 'value',
    })),
  };
};
