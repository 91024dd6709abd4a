import { FIELD_TYPES } from '../metadata/field-types.js';
import { hasFlag, type Entity, type Property } from '../metadata/entity.js';
import {
  DEFAULT_CHART_COLOR,
  type Chart,
  type ChartAggregate,
  type ChartGroup,
  type ChartGrouping,
  type ChartSeries,
} from '../metadata/view.js';
import { chartPalette } from './chart-palette.js';
import { dateGroupKey } from './evaluate-query.js';
import type { Aggregate, EntityQuery, FetchRequest, Filter, Link } from './query.js';

/**
 * The chart panel's rules (spec 001 sections 2 and 9), pure: a chart body becomes one aggregate
 * query of the query engine (the database groups and aggregates, never the browser), its answer
 * becomes categories and series to draw, a picked bar becomes a condition on the list, and a new
 * chart gets its name. The drawing (uPlot) and the state live in ui-react/src/chart.
 */

/** The most groups a chart asks for; beyond them the answer says `truncated`. */
export const CHART_MAX_GROUPS = 1000;
/** Legend labels are cut to 10 characters plus '...' (spec 001 section 9). */
export const CHART_LABEL_MAX = 10;

/** The output column of the i-th group (X) and series (Y) of a chart query. */
export const groupAlias = (i: number): string => `g${i}`;
export const seriesAlias = (i: number): string => `s${i}`;

/** The chart's aggregate names are the spec's; the query engine spells average `avg`. */
export const queryAggregate = (a: ChartAggregate): Aggregate => (a === 'average' ? 'avg' : a);

const hasConditions = (f: Filter | undefined): f is Filter => !!f && ((f.conditions?.length ?? 0) > 0 || (f.filters?.length ?? 0) > 0);
const andFilters = (...fs: Array<Filter | undefined>): Filter | undefined => {
  const present = fs.filter(hasConditions);
  return present.length === 0 ? undefined : present.length === 1 ? present[0] : { type: 'and', filters: present };
};

/** A link kept for its join and filter only: an aggregate query outputs nothing but its groups and aggregates. */
const joinOnly = (l: Link): Link => {
  const { attributes: _a, allattrs: _b, links, ...rest } = l;
  return { ...rest, ...(links ? { links: links.map(joinOnly) } : {}) };
};

/**
 * The aggregate query of a chart over the records of `base` (the list's current query: its view
 * filter, quick filters and search), with the chart's own filter on top. Columns: `g0..` group
 * keys (a date grouping groups by that part of the date), `s0..` aggregates; ordered by the groups.
 */
export const chartRequest = (chart: Chart, base: EntityQuery): FetchRequest => {
  const links = [...(base.links ?? []), ...(chart.filter?.links ?? [])].map(joinOnly);
  const filter = andFilters(base.filter, chart.filter?.filter);
  return {
    entity: {
      name: base.name,
      attributes: [
        ...chart.groups.map((g, i) => ({ attribute: g.field, groupBy: g.method === 'column' ? true : g.method, alias: groupAlias(i) })),
        ...chart.series.map((s, i) => ({ attribute: s.aggregateField, aggregate: queryAggregate(s.aggregateMethod), alias: seriesAlias(i) })),
      ],
      ...(filter ? { filter } : {}),
      ...(links.length > 0 ? { links } : {}),
    },
    page: 1,
    pageSize: CHART_MAX_GROUPS,
  };
};

/** The identity of a group value: a lookup by its id, null as '', anything else as text. */
export const groupKeyOf = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : String(v);

/** A number to draw: aggregates come as numbers; min and max of a version come as text. */
const plotted = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** An X value of the chart: its key and the value as the answer gave it (a lookup, option, date key...). */
export type ChartCategory = { key: string; value: unknown };
/** A drawn series: the chart series it shows, and the value of the second group it is split by (if any). */
export type ChartLine = { series: number; split?: { key: string; value: unknown }; color: string; values: Array<number | null> };
export type ChartData = { categories: ChartCategory[]; lines: ChartLine[]; truncated: boolean };

/**
 * The answer of `chartRequest` as categories (the first group, in the answer's order) and lines:
 * one per chart series, or, with a second group, one per series and value of that group. A
 * missing combination is null (no bar), not 0. Colours: a single line takes its series' colour or
 * the default #0071eb; several take their series' own colour when they are not split, else the
 * spec's palette by position.
 */
export const chartData = (chart: Chart, records: ReadonlyArray<Record<string, unknown>>, moreRecords = false): ChartData => {
  const categories: ChartCategory[] = [];
  const index = new Map<string, number>();
  const splits: Array<{ key: string; value: unknown }> = [];
  const splitIndex = new Map<string, number>();
  const split = chart.groups.length > 1;
  for (const r of records) {
    const v = r[groupAlias(0)] ?? null;
    const k = groupKeyOf(v);
    if (!index.has(k)) {
      index.set(k, categories.length);
      categories.push({ key: k, value: v });
    }
    if (split) {
      const sv = r[groupAlias(1)] ?? null;
      const sk = groupKeyOf(sv);
      if (!splitIndex.has(sk)) {
        splitIndex.set(sk, splits.length);
        splits.push({ key: sk, value: sv });
      }
    }
  }
  const shapes: Array<Omit<ChartLine, 'color' | 'values'>> = split
    ? splits.flatMap((s) => chart.series.map((_, i) => ({ series: i, split: s })))
    : chart.series.map((_, i) => ({ series: i }));
  const palette = shapes.length > 1 ? chartPalette(shapes.length) : [];
  const lines: ChartLine[] = shapes.map((shape, n) => {
    const own = chart.series[shape.series].color;
    const color = shapes.length === 1 ? (own ?? DEFAULT_CHART_COLOR) : !split && own ? own : palette[n];
    return { ...shape, color, values: categories.map(() => null) };
  });
  const perSplit = chart.series.length;
  for (const r of records) {
    const c = index.get(groupKeyOf(r[groupAlias(0)] ?? null)) as number;
    const base = split ? (splitIndex.get(groupKeyOf(r[groupAlias(1)] ?? null)) as number) * perSplit : 0;
    chart.series.forEach((_, i) => {
      lines[base + i].values[c] = plotted(r[seriesAlias(i)]);
    });
  }
  return { categories, lines, truncated: moreRecords };
};

/** A legend label as the spec cuts it: 10 characters, then '...' (whole characters, never half a pair). */
export const cutLabel = (label: string, max: number = CHART_LABEL_MAX): string => {
  const chars = Array.from(label);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : label;
};

const DAY_MS = 86_400_000;

/**
 * The instants [from, to) of a date group key (the keys of `dateGroupKey`, in UTC, as the SQL
 * groups them): a year, a quarter, a month, an ISO week (from Monday; week 1 holds 4 January) or
 * a day. Undefined when the key is not one of that grouping.
 */
export const dateGroupRange = (key: string, grouping: Exclude<ChartGrouping, 'column'>): { from: string; to: string } | undefined => {
  const iso = (ms: number): string => new Date(ms).toISOString();
  const month = (y: number, m0: number): number => {
    const d = new Date(0);
    d.setUTCFullYear(y, m0, 1);
    return d.getTime();
  };
  let m: RegExpExecArray | null;
  switch (grouping) {
    case 'year':
      if (!(m = /^(\d{1,6})$/.exec(key))) return undefined;
      return { from: iso(month(+m[1], 0)), to: iso(month(+m[1] + 1, 0)) };
    case 'quarter':
      if (!(m = /^(\d{1,6})-Q([1-4])$/.exec(key))) return undefined;
      return { from: iso(month(+m[1], (+m[2] - 1) * 3)), to: iso(month(+m[1], +m[2] * 3)) };
    case 'month':
      if (!(m = /^(\d{1,6})-(\d{2})$/.exec(key)) || +m[2] < 1 || +m[2] > 12) return undefined;
      return { from: iso(month(+m[1], +m[2] - 1)), to: iso(month(+m[1], +m[2])) };
    case 'day': {
      if (!(m = /^(\d{1,6})-(\d{2})-(\d{2})$/.exec(key))) return undefined;
      const from = month(+m[1], +m[2] - 1) + (+m[3] - 1) * DAY_MS;
      return dateGroupKey(iso(from), 'day') === key ? { from: iso(from), to: iso(from + DAY_MS) } : undefined;
    }
    case 'week': {
      if (!(m = /^(\d{1,6})-W(\d{2})$/.exec(key)) || +m[2] < 1 || +m[2] > 53) return undefined;
      const jan4 = month(+m[1], 0) + 3 * DAY_MS;
      const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (+m[2] - 1) * 7 * DAY_MS;
      return dateGroupKey(iso(monday), 'week') === key ? { from: iso(monday), to: iso(monday + 7 * DAY_MS) } : undefined;
    }
  }
};

/**
 * The list condition of a picked bar (spec 001 section 2: clicking a bar filters the list): the
 * records of that group. An empty group is `null`; a date group is its range [from, to); a lookup
 * is its id. Undefined when the value cannot be a condition (a malformed date key).
 */
export const pickFilter = (group: ChartGroup, value: unknown): Filter | undefined => {
  const attribute = group.field;
  if (value === null || value === undefined || value === '') return { type: 'and', conditions: [{ attribute, operator: 'null' }] };
  if (group.method !== 'column') {
    const range = typeof value === 'string' ? dateGroupRange(value, group.method) : undefined;
    if (!range) return undefined;
    return {
      type: 'and',
      conditions: [
        { attribute, operator: 'ge', value: range.from },
        { attribute, operator: 'lt', value: range.to },
      ],
    };
  }
  const v = typeof value === 'object' && 'id' in value ? String((value as { id: unknown }).id) : value;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? { type: 'and', conditions: [{ attribute, operator: 'eq', value: v }] }
    : undefined;
};

/** A new chart's name: the Y and X field display names without spaces (spec 001 section 9). */
export const chartName = (yDisplayName: string, xDisplayName: string): string => `${yDisplayName}${xDisplayName}`.replace(/\s+/g, '');

/** `name`, or with the first number from 2 that makes it unused (a second chart of the same fields). */
export const uniqueChartName = (name: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}${n}`)) n++;
  return `${name}${n}`;
};

/** Fields a chart never offers: secrets, binaries, JSON and long text. */
const chartable = (p: Property): boolean => p.secret !== true && p.type !== 'Binary' && !hasFlag(p, 'Json') && !hasFlag(p, 'MultiLine');

/**
 * The aggregates that apply to a field as Y (spec 001 section 9: count, countdistinct, min, max,
 * sum, average): every field counts; sum, average, min and max need a number to draw.
 */
export const aggregatesFor = (p: Property): ChartAggregate[] =>
  !chartable(p) ? [] : FIELD_TYPES[p.type].compared === 'number' ? ['count', 'countdistinct', 'min', 'max', 'sum', 'average'] : ['count', 'countdistinct'];

/** The X groupings of a field: a date groups by column or year, quarter, month, week, day; others by column. */
export const groupingsFor = (p: Property): ChartGrouping[] =>
  !chartable(p) || p.type === 'Guid' || FIELD_TYPES[p.type].stored === 'counter'
    ? []
    : FIELD_TYPES[p.type].compared === 'instant'
      ? ['column', 'year', 'quarter', 'month', 'week', 'day']
      : ['column'];

/** The fields of an entity a chart offers as Y (with their aggregates) and as X (with their groupings). */
export const chartFields = (entity: Entity): { y: Property[]; x: Property[] } => ({
  y: entity.properties.filter((p) => aggregatesFor(p).length > 0),
  x: entity.properties.filter((p) => groupingsFor(p).length > 0),
});

/** A chart of one series and one group: what the panel's pickers edit. */
export const simpleChart = (y: ChartSeries, x: ChartGroup, type: Chart['type']): Chart => ({ type, series: [y], groups: [x] });
