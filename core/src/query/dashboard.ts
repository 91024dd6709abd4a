import * as E from 'fp-ts/lib/Either.js';
import type { InputError } from '../errors.js';
import type { Entity, Property } from '../metadata/entity.js';
import { hasFlag } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { isOptionSet } from '../metadata/field-values.js';
import type { FetchFragment } from '../metadata/form.js';
import type { Chart, Dashboard, DashboardObject, QuickFilter } from '../metadata/view.js';
import { DashboardObject as DashboardObjectCodec } from '../metadata/view.js';
import type { EntityQuery, FetchRequest } from './query.js';
import { chartRequest } from './chart-query.js';
import { replaceFetchPlaceholders, replaceFilterPlaceholders, replaceLinkPlaceholders, type PlaceholderValues } from './placeholders.js';
import {
  applyQuickFilterFragment,
  isEmptySelection,
  quickFiltersToFetch,
  type QuickFilterContext,
  type QuickFilterFragment,
  type QuickFilterSelection,
  type RangeSelection,
} from './quick-filters.js';

/**
 * Dashboards (spec 000 section 2; docs/ui.md "Dashboards"): which filters a dashboard supports,
 * what the filters add to the queries of its objects, the queries of its figures (number, gauge,
 * grid), and the gauge's percent. Every figure is aggregated by the query engine on the server;
 * nothing here adds rows up.
 */

/** What a dashboard filter can filter by: spec 000 section 2 supports only option sets, lookups and dates. */
export type DashboardFilterKind = 'date' | 'lookup' | 'options';

/** A filter object of a dashboard, with the property it filters by, or 'Unsupported' (spec 000 section 8). */
export type DashboardFilter =
  | { readonly _tag: 'Supported'; readonly object: DashboardObject; readonly kind: DashboardFilterKind; readonly entity: Entity; readonly property: Property }
  | { readonly _tag: 'Unsupported'; readonly object: DashboardObject };

/** The property a filter object filters by: `propertyName`, else its name (as for quick filters). */
const filterPropertyName = (o: DashboardObject): string => o.propertyName ?? o.name;

/**
 * The kind of filter a property allows: a date (DateTime), a lookup, or a single-choice option set.
 * A multi-select option set is stored as a bitmap that an equality condition cannot test, and every
 * other type (text, numbers, yes/no) is unsupported too.
 */
export const dashboardFilterKind = (p: Property): DashboardFilterKind | undefined => {
  const rules = FIELD_TYPES[p.type];
  if (rules.stored === 'lookup') return 'lookup';
  if (rules.compared === 'instant') return 'date';
  if (isOptionSet(p) && !hasFlag(p, 'MultiSelect')) return 'options';
  return undefined;
};

/** A filter object resolved against the metadata: its entity (`objectname`) and property must exist and be of a supported type. */
export const dashboardFilterOf = (o: DashboardObject, entityOf: (name: string) => Entity | undefined): DashboardFilter => {
  const entity = o.objectname === undefined ? undefined : entityOf(o.objectname);
  const property = entity?.properties.find((p) => p.logicalName === filterPropertyName(o) && p.secret !== true);
  const kind = property === undefined ? undefined : dashboardFilterKind(property);
  return entity && property && kind ? { _tag: 'Supported', object: o, kind, entity, property } : { _tag: 'Unsupported', object: o };
};

const isRange = (s: QuickFilterSelection): s is RangeSelection => s !== null && typeof s === 'object' && !Array.isArray(s);

/**
 * The selection a filter starts with: its `initialValue` (a date option such as `this-year`, an
 * option value, a record id or `{{userid}}`), else nothing. An option value written as text (`"2"`)
 * is read as the number it names.
 */
export const initialDashboardSelection = (f: DashboardFilter): QuickFilterSelection => {
  const v = f.object.initialValue;
  if (v === undefined || v === null || v === '' || f._tag === 'Unsupported') return null;
  if (f.kind === 'options' && typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return v;
};

/**
 * The quick filter a dashboard filter behaves as for a selection: a date option (`this-year`) is a
 * `date` filter, a range of days (`{ from, to }`, both included) a `daterange` filter; an option set
 * an `options` filter (several values: any of them); a lookup a `lookup` filter (an id).
 */
export const dashboardFilterAsQuickFilter = (f: DashboardFilter & { _tag: 'Supported' }, selection: QuickFilterSelection): QuickFilter => {
  const base = { name: f.object.name, propertyName: f.property.logicalName };
  if (f.kind === 'date') return { ...base, type: isRange(selection) ? 'daterange' : 'date' };
  return { ...base, type: f.kind };
};

/**
 * The rule of dashboard filters (docs/ui.md "Dashboards"): a filter applies to the objects of the
 * dashboard with the same `objectname` (entity); a date filter keeps the records whose property is
 * in the range, a lookup or option filter the records whose property is the chosen value. All the
 * filters of an entity apply together (and). Unsupported filters and empty selections add nothing;
 * the answer is null when nothing applies.
 */
export const dashboardFilterFragment = (
  filters: readonly DashboardFilter[],
  selections: Readonly<Record<string, QuickFilterSelection | undefined>>,
  objectname: string | undefined,
  ctx: QuickFilterContext,
): E.Either<InputError, QuickFilterFragment | null> => {
  const applying = filters.filter(
    (f): f is DashboardFilter & { _tag: 'Supported' } =>
      f._tag === 'Supported' && objectname !== undefined && f.object.objectname === objectname && !isEmptySelection(selections[f.object.name]),
  );
  if (applying.length === 0) return E.right(null);
  const defs = applying.map((f) => dashboardFilterAsQuickFilter(f, selections[f.object.name] ?? null));
  const out = quickFiltersToFetch(defs, selections, { ...ctx, entity: applying[0].entity });
  if (E.isLeft(out)) return out;
  // No mandatory groups here: the outcome is always a fetch.
  return E.right(out.right._tag === 'Fetch' ? out.right.fragment : null);
};

/** A fetch fragment (extraFetch) as a quick-filter fragment, its placeholders replaced. */
const fragmentOf = (f: FetchFragment, values: PlaceholderValues): QuickFilterFragment => ({
  filter: f.filter === undefined ? {} : replaceFilterPlaceholders(f.filter, values),
  links: (f.links ?? []).map((l) => replaceLinkPlaceholders(l, values)),
  orders: f.orders ?? [],
});

/** The keys of a query's aggregate columns in the answer, in the order asked (alias, else attribute). */
export const figureKeys = (q: EntityQuery): string[] => (q.attributes ?? []).filter((a) => a.aggregate !== undefined).map((a) => a.alias ?? a.attribute);

/** A figure of an answer: the number in the first row under `key`, else null (no rows, or a null sum). */
export const figureOf = (records: ReadonlyArray<Record<string, unknown>>, key: string): number | null => {
  const v = records[0]?.[key];
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * Spec 000 section 9: a gauge shows the percent of the first value over the second. Null when the
 * second is missing or zero (0 won of 0 is no rate at all, not 0 %).
 */
export const gaugePercent = (first: number | null, second: number | null): number | null => {
  if (first === null || second === null || !Number.isFinite(first) || !Number.isFinite(second) || second === 0) return null;
  return (first / second) * 100;
};

/** How many rows a grid object shows when its gridRows does not say (docs/ui.md "Dashboards"). */
export const DEFAULT_GRID_ROWS = 10;
/** The most rows a grid object asks for, whatever gridRows says. */
export const MAX_GRID_ROWS = 200;

/** The columns a grid object shows: `gridColumns` (names split by spaces or commas), else its query's plain attributes, else name. */
export const gridColumnsOf = (o: DashboardObject): string[] => {
  const named = (o.gridColumns ?? '').split(/[\s,;]+/).filter((s) => s !== '');
  if (named.length > 0) return named;
  const plain = (o.query?.attributes ?? []).filter((a) => a.aggregate === undefined && a.groupBy === undefined).map((a) => a.alias ?? a.attribute);
  return plain.length > 0 ? plain : ['name'];
};

/** The rows a grid object shows: a positive whole `gridRows`, at most MAX_GRID_ROWS; else DEFAULT_GRID_ROWS. */
export const gridRowCountOf = (o: DashboardObject): number => {
  const n = Number(String(o.gridRows ?? '').trim());
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_GRID_ROWS) : DEFAULT_GRID_ROWS;
};

/** What a data object of a dashboard fetches (its filters and extraFetch applied, placeholders replaced). */
export type DashboardObjectQuery =
  /** a number: the first aggregate of the answer */
  | { readonly _tag: 'Number'; readonly request: FetchRequest; readonly key: string }
  /** a gauge: the first value over the second, from one answer (two aggregates) or two (part and whole) */
  | { readonly _tag: 'Gauge'; readonly first: { request: FetchRequest; key: string }; readonly second: { request: FetchRequest; key: string } }
  /** a grid: the first rows of its query, with the count */
  | { readonly _tag: 'Grid'; readonly request: FetchRequest; readonly columns: string[] }
  /** a chart: the chart module's aggregate query of its chart body (groups g0.., series s0..) over the filtered records */
  | { readonly _tag: 'Chart'; readonly request: FetchRequest; readonly chart: Chart }
  /** nothing to fetch: a label, a filter, or an object without a query (`reason` says which) */
  | { readonly _tag: 'None'; readonly reason: 'label' | 'filter' | 'no-query' };

export type DashboardQueryContext = QuickFilterContext & {
  /** the dashboard's filters and the user's selections */
  readonly filters: readonly DashboardFilter[];
  readonly selections: Readonly<Record<string, QuickFilterSelection | undefined>>;
};

const withFragment = (q: EntityQuery, f: QuickFilterFragment | null): EntityQuery => (f === null ? q : applyQuickFilterFragment(q, f));

/**
 * The query of a data object: its `query`, narrowed by the dashboard filters of the query's entity
 * (the object's objectname), then by `extraFetch`. A gauge with two aggregates takes both values
 * from one answer; a gauge with one aggregate takes its first value with `extraFetch` and its
 * second without (won over all). A chart's aggregate query is the chart module's (chartRequest) over
 * the same filtered records; the object's type (bar, line) overrides the chart body's.
 */
export const dashboardObjectQuery = (o: DashboardObject, ctx: DashboardQueryContext): E.Either<InputError, DashboardObjectQuery> => {
  if (o.kind === 'label') return E.right({ _tag: 'None', reason: 'label' });
  if (o.kind === 'filter') return E.right({ _tag: 'None', reason: 'filter' });
  const values = ctx.placeholders ?? {};
  const extra = o.extraFetch === undefined ? null : fragmentOf(o.extraFetch, values);
  if (o.chart !== undefined && o.kind !== 'grid' && o.type !== 'number' && o.type !== 'gauge') {
    // A chart body names no entity: the object's objectname (else its query's) is the one charted.
    const entity = o.objectname ?? o.query?.name;
    if (entity === undefined) return E.right({ _tag: 'None', reason: 'no-query' });
    const filtered = dashboardFilterFragment(ctx.filters, ctx.selections, entity, ctx);
    if (E.isLeft(filtered)) return filtered;
    const base = withFragment(withFragment(o.query ?? { name: entity }, filtered.right), extra);
    const chart: Chart = o.type === 'bar' || o.type === 'line' ? { ...o.chart, type: o.type } : o.chart;
    return E.right({ _tag: 'Chart', request: replaceFetchPlaceholders(chartRequest(chart, base), values), chart });
  }
  if (o.query === undefined) return E.right({ _tag: 'None', reason: 'no-query' });
  const filtered = dashboardFilterFragment(ctx.filters, ctx.selections, o.query.name, ctx);
  if (E.isLeft(filtered)) return filtered;
  const base = withFragment(o.query, filtered.right);
  const request = (entity: EntityQuery, pageSize: number, count = false): FetchRequest =>
    replaceFetchPlaceholders({ entity, page: 1, pageSize, ...(count ? { count: true } : {}) }, values);
  if (o.kind === 'grid') return E.right({ _tag: 'Grid', request: request(withFragment(base, extra), gridRowCountOf(o), true), columns: gridColumnsOf(o) });
  const keys = figureKeys(o.query);
  if (o.type === 'gauge') {
    if (keys.length >= 2 || extra === null) {
      const one = request(withFragment(base, extra), 1);
      return E.right({ _tag: 'Gauge', first: { request: one, key: keys[0] ?? '' }, second: { request: one, key: keys[1] ?? '' } });
    }
    return E.right({ _tag: 'Gauge', first: { request: request(withFragment(base, extra), 1), key: keys[0] ?? '' }, second: { request: request(base, 1), key: keys[0] ?? '' } });
  }
  return E.right({ _tag: 'Number', request: request(withFragment(base, extra), 1), key: keys[0] ?? '' });
};

/**
 * The objects of a dashboard with the ones given by reference filled in: an object of kind
 * simplechart, grid or label that has neither query nor chart nor label names a metadata object
 * of that kind (an inu_view record); its stored body is the definition, the dashboard's own
 * fields (gridArea, label...) win. An object whose stored body does not decode stays as written.
 */
export const resolveDashboardObjects = (d: Dashboard, stored: (kind: DashboardObject['kind'], name: string) => unknown): DashboardObject[] =>
  d.objects.map((o) => {
    if (o.kind === 'filter' || o.kind === 'chart' || o.query !== undefined || o.chart !== undefined || (o.kind === 'label' && o.label !== undefined)) return o;
    const body = stored(o.kind, o.name);
    if (body === undefined || body === null || typeof body !== 'object') return o;
    const decoded = DashboardObjectCodec.decode({ kind: o.kind, name: o.name, ...(body as object) });
    return E.isRight(decoded) ? { ...decoded.right, ...o } : o;
  });
