import type { Entity, Property } from '../metadata/entity.js';
import type { Aggregate, DateGrouping } from './query.js';

/**
 * A query object after validation (validate-query.ts): every name resolved against the
 * metadata, every value coerced to its property's type, every limit checked. The reference
 * evaluator and the SQL compiler both read only this shape, so they cannot disagree on names.
 * Table keys are internal (`t0` root, `t1`... links in join order): no text of the request
 * ever becomes an SQL identifier.
 */

/** A value compared with a column, coerced to the property's stored form (ids lower case, ISO dates). */
export type Scalar = string | number | boolean;

/** A column of one table of the query. */
export type ColumnRef = { table: string; entity: Entity; property: Property };

export type CompareOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

export type PlanCondition =
  | { kind: 'compare'; column: ColumnRef; operator: CompareOperator; value: Scalar }
  | { kind: 'like'; column: ColumnRef; negate: boolean; pattern: string }
  | { kind: 'null'; column: ColumnRef; negate: boolean }
  | { kind: 'in'; column: ColumnRef; negate: boolean; values: Scalar[] };

export type PlanFilter = { type: 'and' | 'or'; conditions: PlanCondition[]; filters: PlanFilter[] };

/** A join: `parent.from = link.to`, with the link's own filter and read scope in its ON clause. */
export type PlanLink = {
  table: string;
  /** the request's alias (or entity name): the prefix of its output columns */
  alias: string;
  entity: Entity;
  parent: string;
  from: Property;
  to: Property;
  type: 'inner' | 'outer';
  filter: PlanFilter | null;
};

/** An output column of a plain query: `key` is the record's key on the wire. */
export type PlanColumn = { key: string; column: ColumnRef };

/** An output column of an aggregate query: either a group key or an aggregate. */
export type PlanAggregateColumn =
  | { key: string; column: ColumnRef; kind: 'group'; grouping: DateGrouping | null }
  | { key: string; column: ColumnRef; kind: 'aggregate'; aggregate: Aggregate };

export type PlanOrder =
  | { kind: 'column'; column: ColumnRef; descending: boolean }
  | { kind: 'output'; key: string; descending: boolean };

export type QueryPlan = {
  root: Entity;
  links: PlanLink[];
  filter: PlanFilter | null;
  /** plain: rows; aggregate: one row per group */
  shape: { kind: 'plain'; columns: PlanColumn[]; distinct: boolean } | { kind: 'aggregate'; columns: PlanAggregateColumn[] };
  orders: PlanOrder[];
  page: number;
  pageSize: number;
  count: boolean;
  /** keyset paging: only rows after the request's `after` row in the query's order (not counted against the count) */
  after?: PlanFilter;
};

/** The table key of the root entity. */
export const ROOT_TABLE = 't0';
