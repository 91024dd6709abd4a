import * as t from 'io-ts';
import { EntityQuery } from '../query/query.js';
import { Command, FetchFragment, PermissionString, ViewModeName } from './form.js';

/**
 * Lists, charts, quick filters, dashboards and home menus as data (spec 000 section 2,
 * spec 001 sections 2, 3 and 9). Each is the body of an inu_view record of its kind.
 */

/** A column of a list view; `form` names the form its link opens (spec 001: a list column may name the form). */
export const ViewColumn = t.intersection(
  [t.type({ name: t.string }), t.partial({ label: t.string, width: t.number, form: t.string })],
  'ViewColumn',
);
export type ViewColumn = t.TypeOf<typeof ViewColumn>;

/** A list view: the query it runs, its columns, and how the list shows (spec 001 section 2). */
export const ListView = t.intersection(
  [
    t.type({ query: EntityQuery, columns: t.array(ViewColumn) }),
    t.partial({
      label: t.string,
      pageSize: t.number,
      /** the mode the list opens in, and the modes its switcher offers (default: list only) */
      viewMode: ViewModeName,
      allowedModes: t.array(ViewModeName),
      /** kanban: the lane field (default `status`) */
      kanbanField: t.string,
      /** calendar: start and end fields, and an optional lookup to group by */
      calendarStartField: t.string,
      calendarEndField: t.string,
      calendarGroupField: t.string,
      /** map: latitude and longitude fields */
      latitudeField: t.string,
      longitudeField: t.string,
      commands: t.array(Command),
    }),
  ],
  'ListView',
);
export type ListView = t.TypeOf<typeof ListView>;

/** Chart aggregates and X groupings (spec 001 section 9). */
export const CHART_AGGREGATES = ['count', 'countdistinct', 'min', 'max', 'sum', 'average'] as const;
export const ChartAggregate = t.keyof(
  Object.fromEntries(CHART_AGGREGATES.map((a) => [a, null])) as Record<(typeof CHART_AGGREGATES)[number], null>,
  'ChartAggregate',
);
export type ChartAggregate = t.TypeOf<typeof ChartAggregate>;
export const CHART_GROUPINGS = ['column', 'year', 'quarter', 'month', 'week', 'day'] as const;
export const ChartGrouping = t.keyof(
  Object.fromEntries(CHART_GROUPINGS.map((a) => [a, null])) as Record<(typeof CHART_GROUPINGS)[number], null>,
  'ChartGrouping',
);
export type ChartGrouping = t.TypeOf<typeof ChartGrouping>;
export const ChartType = t.keyof({ bar: null, line: null }, 'ChartType');
export type ChartType = t.TypeOf<typeof ChartType>;
/** Default bar colour (spec 001 section 9). */
export const DEFAULT_CHART_COLOR = '#0071eb';

export const ChartSeries = t.intersection(
  [
    t.type({ aggregateField: t.string, aggregateMethod: ChartAggregate }),
    t.partial({ color: t.string, label: t.string }),
  ],
  'ChartSeries',
);
export type ChartSeries = t.TypeOf<typeof ChartSeries>;
export const ChartGroup = t.type({ field: t.string, method: ChartGrouping }, 'ChartGroup');
export type ChartGroup = t.TypeOf<typeof ChartGroup>;

/** A chart body: series (Y), groups (X) and type; `filter` narrows the records charted. */
export const Chart = t.intersection(
  [
    t.type({ series: t.array(ChartSeries), groups: t.array(ChartGroup), type: ChartType }),
    t.partial({ label: t.string, filter: FetchFragment }),
  ],
  'Chart',
);
export type Chart = t.TypeOf<typeof Chart>;

/** Quick filter types (spec 001 section 2). */
export const QUICK_FILTER_TYPES = [
  'options',
  'date',
  'daterange',
  'day',
  'dayrange',
  'age',
  'lookup',
  'owner',
  'number',
  'numericrange',
  'text',
  'custom',
] as const;
export const QuickFilterType = t.keyof(
  Object.fromEntries(QUICK_FILTER_TYPES.map((a) => [a, null])) as Record<(typeof QUICK_FILTER_TYPES)[number], null>,
  'QuickFilterType',
);
export type QuickFilterType = t.TypeOf<typeof QuickFilterType>;

/** An option value of a quick filter: an option-set integer, or a named choice (`today`, `this-week`...). */
export const QuickFilterOptionValue = t.union([t.number, t.string], 'QuickFilterOptionValue');
export type QuickFilterOptionValue = t.TypeOf<typeof QuickFilterOptionValue>;
export const QuickFilterOption = t.intersection(
  [t.type({ value: QuickFilterOptionValue, label: t.string }), t.partial({ color: t.string, icon: t.string })],
  'QuickFilterOption',
);
export type QuickFilterOption = t.TypeOf<typeof QuickFilterOption>;

/** Every property of a quick filter listed in spec 001 section 2. */
export const QuickFilter = t.intersection(
  [
    t.type({ name: t.string, type: QuickFilterType }),
    t.partial({
      propertyName: t.string,
      label: t.string,
      icon: t.string,
      optionsFormat: t.keyof({ radio: null, select: null }),
      /** options given here instead of the property's */
      directOptions: t.array(QuickFilterOption),
      richOptions: t.array(QuickFilterOption),
      includedOptions: t.array(QuickFilterOptionValue),
      excludedOptions: t.array(QuickFilterOptionValue),
      multiSelect: t.boolean,
      mustSelect: t.boolean,
      defaultOption: QuickFilterOptionValue,
      initialOption: QuickFilterOptionValue,
      mandatoryGroup: t.string,
      minimumLength: t.number,
      /** merged into the list query whenever the filter is active */
      extraFetch: FetchFragment,
      /** replaces the condition the filter would build; `{{value}}` is the filter's value */
      customFetch: FetchFragment,
      permissions: PermissionString,
    }),
  ],
  'QuickFilter',
);
export type QuickFilter = t.TypeOf<typeof QuickFilter>;

/** The quick-filter bar of an entity's lists (inu_view kind `filter`). */
export const QuickFilterSet = t.type({ filters: t.array(QuickFilter) }, 'QuickFilterSet');
export type QuickFilterSet = t.TypeOf<typeof QuickFilterSet>;

/** Quick-filter limits of spec 001 section 2. */
export const AGE_FILTER_MAX = 99;
export const DAY_FILTER_MIN_YEAR = 1801;
export const DAY_FILTER_MAX_YEAR = 2199;

export const DASHBOARD_OBJECT_KINDS = ['filter', 'chart', 'simplechart', 'grid', 'label'] as const;
export const DashboardObjectKind = t.keyof(
  Object.fromEntries(DASHBOARD_OBJECT_KINDS.map((a) => [a, null])) as Record<
    (typeof DASHBOARD_OBJECT_KINDS)[number],
    null
  >,
  'DashboardObjectKind',
);
export type DashboardObjectKind = t.TypeOf<typeof DashboardObjectKind>;
export const DashboardChartType = t.keyof({ bar: null, line: null, number: null, gauge: null }, 'DashboardChartType');
export type DashboardChartType = t.TypeOf<typeof DashboardChartType>;

/** A dashboard object (spec 000 section 3) and what it shows (`objectname`, `propertyName`, `query`, `chart`). */
export const DashboardObject = t.intersection(
  [
    t.type({ kind: DashboardObjectKind, name: t.string }),
    t.partial({
      label: t.string,
      gridArea: t.string,
      gridColumns: t.string,
      gridRows: t.string,
      cssClass: t.string,
      loaderScript: t.string,
      extraFetch: FetchFragment,
      type: DashboardChartType,
      initialValue: t.union([t.string, t.number, t.null]),
      objectname: t.string,
      propertyName: t.string,
      query: EntityQuery,
      chart: Chart,
    }),
  ],
  'DashboardObject',
);
export type DashboardObject = t.TypeOf<typeof DashboardObject>;

export const Dashboard = t.intersection(
  [t.type({ objects: t.array(DashboardObject) }), t.partial({ label: t.string, gridTemplate: t.string })],
  'Dashboard',
);
export type Dashboard = t.TypeOf<typeof Dashboard>;

/**
 * Home menu item kinds. The spec names entity, custom and separator "and others"; the others are
 * section (a titled group holding `items`), dashboard, page (a built-in page such as import,
 * export, whatsnext, customizemetadata, customizelocalization, cache; `name` is its route) and url.
 */
export const MENU_ITEM_KINDS = ['entity', 'custom', 'separator', 'section', 'dashboard', 'page', 'url'] as const;
export const MenuItemKind = t.keyof(
  Object.fromEntries(MENU_ITEM_KINDS.map((a) => [a, null])) as Record<(typeof MENU_ITEM_KINDS)[number], null>,
  'MenuItemKind',
);
export type MenuItemKind = t.TypeOf<typeof MenuItemKind>;

export interface HomeMenuItem {
  kind: MenuItemKind;
  name?: string;
  uniqueName?: string;
  label?: string;
  icon?: string;
  url?: string;
  initialView?: string;
  allowedViews?: string[];
  permissions?: string;
  items?: HomeMenuItem[];
}
export const HomeMenuItem: t.Type<HomeMenuItem> = t.recursion('HomeMenuItem', () =>
  t.intersection([
    t.type({ kind: MenuItemKind }),
    t.partial({
      name: t.string,
      uniqueName: t.string,
      label: t.string,
      icon: t.string,
      url: t.string,
      initialView: t.string,
      allowedViews: t.array(t.string),
      permissions: PermissionString,
      items: t.array(HomeMenuItem),
    }),
  ]),
);

/** The home menu of an app (inu_view kind `home`). */
export const HomeMenu = t.type({ items: t.array(HomeMenuItem) }, 'HomeMenu');
export type HomeMenu = t.TypeOf<typeof HomeMenu>;
