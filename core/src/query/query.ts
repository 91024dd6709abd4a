import * as t from 'io-ts';

/**
 * The query object of `/api/fetch` (spec 000 section 7, spec 001 section 7, API.md).
 * Decoded once at the edge; names are checked against the metadata before any SQL is built.
 */
export const OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'not-like', 'null', 'not-null', 'in', 'not-in'] as const;
export const Operator = t.keyof(
  Object.fromEntries(OPERATORS.map((o) => [o, null])) as Record<(typeof OPERATORS)[number], null>,
  'Operator',
);
export type Operator = t.TypeOf<typeof Operator>;

export const AGGREGATES = ['count', 'countdistinct', 'min', 'max', 'sum', 'avg'] as const;
export const Aggregate = t.keyof(
  Object.fromEntries(AGGREGATES.map((o) => [o, null])) as Record<(typeof AGGREGATES)[number], null>,
  'Aggregate',
);
export type Aggregate = t.TypeOf<typeof Aggregate>;

export const DATE_GROUPINGS = ['year', 'quarter', 'month', 'week', 'day'] as const;
export const DateGrouping = t.keyof(
  Object.fromEntries(DATE_GROUPINGS.map((o) => [o, null])) as Record<(typeof DATE_GROUPINGS)[number], null>,
  'DateGrouping',
);
export type DateGrouping = t.TypeOf<typeof DateGrouping>;

export const ConditionValue = t.union([t.string, t.number, t.boolean, t.null, t.array(t.union([t.string, t.number, t.boolean]))]);
export type ConditionValue = t.TypeOf<typeof ConditionValue>;

export const Condition = t.intersection(
  [
    t.type({ attribute: t.string, operator: Operator }),
    /** entityName: the alias (or name) of a linked entity the condition applies to. */
    t.partial({ value: ConditionValue, entityName: t.string }),
  ],
  'Condition',
);
export type Condition = t.TypeOf<typeof Condition>;

export interface Filter {
  type?: 'and' | 'or';
  conditions?: Condition[];
  filters?: Filter[];
}
export const Filter: t.Type<Filter> = t.recursion('Filter', () =>
  t.partial({
    type: t.keyof({ and: null, or: null }),
    conditions: t.array(Condition),
    filters: t.array(Filter),
  }),
);

export const Attribute = t.intersection(
  [
    t.type({ attribute: t.string }),
    t.partial({
      aggregate: Aggregate,
      /** true groups by the column; a date grouping groups by that part of a date. */
      groupBy: t.union([t.boolean, DateGrouping]),
      alias: t.string,
    }),
  ],
  'Attribute',
);
export type Attribute = t.TypeOf<typeof Attribute>;

export const Order = t.intersection(
  [t.type({ attribute: t.string }), t.partial({ descending: t.boolean, entityName: t.string, alias: t.string })],
  'Order',
);
export type Order = t.TypeOf<typeof Order>;

export interface Link {
  name: string;
  from: string;
  to: string;
  alias?: string;
  type?: 'inner' | 'outer';
  attributes?: Attribute[];
  allattrs?: boolean;
  filter?: Filter;
  links?: Link[];
}
export const Link: t.Type<Link> = t.recursion('Link', () =>
  t.intersection([
    t.type({ name: t.string, from: t.string, to: t.string }),
    t.partial({
      alias: t.string,
      type: t.keyof({ inner: null, outer: null }),
      attributes: t.array(Attribute),
      allattrs: t.boolean,
      filter: Filter,
      links: t.array(Link),
    }),
  ]),
);

export const EntityQuery = t.intersection(
  [
    t.type({ name: t.string }),
    t.partial({
      attributes: t.array(Attribute),
      allattrs: t.boolean,
      filter: Filter,
      links: t.array(Link),
      orders: t.array(Order),
      distinct: t.boolean,
    }),
  ],
  'EntityQuery',
);
export type EntityQuery = t.TypeOf<typeof EntityQuery>;

export const FetchRequest = t.intersection(
  [
    t.type({ entity: EntityQuery }),
    t.partial({
      page: t.number,
      pageSize: t.number,
      count: t.boolean,
      orders: t.array(Order),
      /**
       * Keyset paging (issue 24, docs/api.md "Keyset paging"): the sort values of the last row
       * already shown, one per order and then its id; the answer starts after that row, so a deep
       * page costs what the first does. With page 1 only; the count stays that of the whole query.
       */
      after: t.array(t.unknown),
    }),
  ],
  'FetchRequest',
);
export type FetchRequest = t.TypeOf<typeof FetchRequest>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 5000;

/** The answer of `/api/fetch`; link columns come back as `alias.attribute`. */
export type FetchResult = {
  records: Array<Record<string, unknown>>;
  count: number | null;
  page: number;
  pageSize: number;
  moreRecords: boolean;
  /** present when the count stopped at the host's count cap: `count` is the cap (issue 22) */
  countIsCapped?: boolean;
};
