import { left, right, isLeft, type Either } from 'fp-ts/lib/Either.js';
import { fieldNotFound, inputError, noObject, type InputError } from '../errors.js';
import { primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import { FIELD_TYPES, type Compared } from '../metadata/field-types.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Attribute,
  type Condition,
  type FetchRequest,
  type Filter,
  type Link,
  type Order,
} from './query.js';
import {
  ROOT_TABLE,
  type ColumnRef,
  type PlanAggregateColumn,
  type PlanColumn,
  type PlanCondition,
  type PlanFilter,
  type PlanLink,
  type PlanOrder,
  type QueryPlan,
  type Scalar,
} from './plan.js';

/**
 * The limits of one query object (issue 5). Each is checked before any SQL is built and
 * breaking one is ERR_INPUT naming the limit.
 */
export const QUERY_LIMITS = {
  /** links inside links: a link of the root is depth 1 */
  maxLinkDepth: 3,
  /** joins in one query, at every depth */
  maxLinks: 10,
  /** conditions in all filters together (root and links) */
  maxConditions: 100,
  /** filters inside filters: the top filter is depth 1 */
  maxFilterDepth: 5,
  /** values of one in / not-in list */
  maxInValues: 1000,
  /** characters of a like pattern */
  maxLikePatternLength: 256,
  /** output columns of one query */
  maxAttributes: 200,
  /** rows of one page (API.md: capped at 5000) */
  maxPageSize: MAX_PAGE_SIZE,
} as const;

/**
 * Where a count stops (issue 22 item 1): beyond it a fetch answers the cap and `countIsCapped`.
 * Counting costs a read of every row counted; Dataverse stops at 5,000. A host may configure it.
 */
export const DEFAULT_COUNT_CAP = 10_000;

/** A count read up to `cap + 1` as the answer gives it: the cap and countIsCapped beyond it. */
export const capCount = (counted: number, cap: number): { count: number; countIsCapped?: true } =>
  counted > cap ? { count: cap, countIsCapped: true } : { count: counted };

/** Items of one executeMultiple batch (issue 5). */
export const MAX_BATCH_SIZE = 1000;

/** Looks an entity up by logical name; the metadata set of the organization. */
export type EntityLookup = (name: string) => Entity | undefined;

export type ValidateOptions = {
  /** Trusted server code may name secret fields (password hashes); requests never can. */
  allowSecret?: boolean;
  /**
   * Where the check is, kept up to date as it walks the query (`entity.filter.conditions[2]`): after
   * a Left, the path of the part refused (the Setup Query dialog shows it; issue 15).
   */
  trace?: { at: string };
};

type Ctx = {
  lookup: EntityLookup;
  allowSecret: boolean;
  conditions: number;
  tables: Map<string, { table: string; entity: Entity }>;
  links: PlanLink[];
  /** while validating a link's filter: the last table joined so far (its ON clause sees no later one) */
  visibleTables: number;
  trace: { at: string } | undefined;
};

/** Notes where the check is (only when asked: fetches do not pay for it). */
const at = (ctx: { trace: { at: string } | undefined }, path: string): void => {
  if (ctx.trace) ctx.trace.at = path;
};

const fail = (message: string): Either<InputError, never> => left(inputError(message));

/** A property that the request may name (secret fields are hidden from requests). */
export const findProperty = (entity: Entity, name: string, allowSecret: boolean): Property | undefined =>
  entity.properties.find((p) => p.logicalName === name && (allowSecret || p.secret !== true));

const column = (ctx: Ctx, table: string, entity: Entity, name: string): Either<InputError, ColumnRef> => {
  const property = findProperty(entity, name, ctx.allowSecret);
  return property ? right({ table, entity, property }) : left(fieldNotFound(entity.logicalName, name));
};

const compared = (p: Property): Compared => FIELD_TYPES[p.type].compared;

/**
 * A request value in the compared form of the property (its `queryValue` in the field-type
 * registry): numbers for numeric types and versionnumber, booleans (true/false/1/0 as in writes),
 * lower-case UUIDs, ISO 8601 UTC for DateTime (YYYY-MM-DD for DateOnly). Anything else is ERR_INPUT.
 */
export const coerceValue = (ref: ColumnRef, value: unknown): Either<InputError, Scalar> => {
  const p = ref.property;
  const v = value === null || value === undefined ? undefined : FIELD_TYPES[p.type].queryValue(p, value);
  return v !== undefined
    ? right(v)
    : fail(`Invalid value for ${ref.entity.logicalName}.${p.logicalName}: ${JSON.stringify(value)?.slice(0, 60)}`);
};

/**
 * Keyset paging (issue 24): the rows after a given row in the query's order, as a filter:
 * `o1 > a1 OR (o1 = a1 AND o2 > a2) OR ... OR (all equal AND id > aid)`, where "after" follows
 * each order's direction and empty values sort first ascending and last descending, as the
 * reference evaluator and the SQL stores order them. Plain queries on the root's own fields only
 * (a lookup sorts by its label, a link adds its ids to the order).
 */
const keysetAfter = (after: unknown[], orders: PlanOrder[], root: Entity, page: number, unsupported: boolean): Either<InputError, PlanFilter> => {
  if (unsupported) return fail('after: keyset paging needs a plain query without links or distinct');
  if (page !== 1) return fail('after: keyset paging starts at page 1');
  const pk = primaryKeyOf(root);
  const idProp = findProperty(root, pk, true);
  const keys: Array<{ column: ColumnRef; descending: boolean }> = [];
  for (const o of orders) {
    if (o.kind !== 'column' || o.column.table !== ROOT_TABLE || FIELD_TYPES[o.column.property.type].stored === 'lookup') {
      return fail("after: keyset paging orders by the entity's own fields only");
    }
    keys.push({ column: o.column, descending: o.descending });
  }
  if (!idProp) return fail('after: the entity has no key');
  keys.push({ column: { table: ROOT_TABLE, entity: root, property: idProp }, descending: false });
  if (after.length !== keys.length) return fail(`after: ${keys.length} values expected (one per order, then the id)`);
  const values: Array<Scalar | null> = [];
  for (let i = 0; i < keys.length; i++) {
    if (after[i] === null) {
      values.push(null);
      continue;
    }
    const v = coerceValue(keys[i].column, after[i]);
    if (isLeft(v)) return v;
    values.push(v.right);
  }
  const never: PlanCondition = { kind: 'null', column: keys[keys.length - 1].column, negate: false };
  const equal = (i: number): PlanCondition => {
    const v = values[i];
    return v === null ? { kind: 'null', column: keys[i].column, negate: false } : { kind: 'compare', column: keys[i].column, operator: 'eq', value: v };
  };
  /** The rows that sort strictly after value i in its direction. */
  const beyond = (i: number): PlanFilter => {
    const { column, descending } = keys[i];
    const v = values[i];
    if (v === null) return descending ? { type: 'and', conditions: [never], filters: [] } : { type: 'and', conditions: [{ kind: 'null', column, negate: true }], filters: [] };
    const past: PlanCondition = { kind: 'compare', column, operator: descending ? 'lt' : 'gt', value: v };
    return descending ? { type: 'or', conditions: [past, { kind: 'null', column, negate: false }], filters: [] } : { type: 'and', conditions: [past], filters: [] };
  };
  const branches: PlanFilter[] = keys.map((_, i) => ({
    type: 'and',
    conditions: Array.from({ length: i }, (_x, j) => equal(j)),
    filters: [beyond(i)],
  }));
  return right({ type: 'or', conditions: [], filters: branches });
};

const condition = (ctx: Ctx, c: Condition, table: string, entity: Entity, path: string): Either<InputError, PlanCondition> => {
  at(ctx, path);
  ctx.conditions += 1;
  if (ctx.conditions > QUERY_LIMITS.maxConditions) {
    return fail(`Too many conditions: at most ${QUERY_LIMITS.maxConditions} (limit maxConditions)`);
  }
  let t = { table, entity };
  if (c.entityName !== undefined && c.entityName !== entity.logicalName) {
    const linked = ctx.tables.get(c.entityName);
    if (!linked || Number(linked.table.slice(1)) > ctx.visibleTables) return fail(`Unknown link alias: ${c.entityName}`);
    t = linked;
  }
  at(ctx, `${path}.attribute`);
  const col = column(ctx, t.table, t.entity, c.attribute);
  if (isLeft(col)) return col;
  const ref = col.right;
  const op = c.operator;
  at(ctx, `${path}.value`);
  if (op === 'null' || op === 'not-null') return right({ kind: 'null', column: ref, negate: op === 'not-null' });
  if (compared(ref.property) === 'none') return fail(`Operator ${op} does not apply to ${entity.logicalName}.${c.attribute}`);
  // An empty value (a {{placeholder}} with no replacement) turns eq into null (spec 000 section 7).
  if ((c.value === null || c.value === undefined) && (op === 'eq' || op === 'ne')) {
    return right({ kind: 'null', column: ref, negate: op === 'ne' });
  }
  if (op === 'like' || op === 'not-like') {
    if (compared(ref.property) !== 'text') return fail(`Operator ${op} applies to text fields only: ${c.attribute}`);
    if (typeof c.value !== 'string') return fail(`Operator ${op} needs a text value: ${c.attribute}`);
    if (c.value.length > QUERY_LIMITS.maxLikePatternLength) {
      return fail(`Pattern too long: at most ${QUERY_LIMITS.maxLikePatternLength} characters (limit maxLikePatternLength)`);
    }
    return right({ kind: 'like', column: ref, negate: op === 'not-like', pattern: c.value });
  }
  if (op === 'in' || op === 'not-in') {
    const raw = Array.isArray(c.value) ? c.value : [c.value];
    if (raw.length === 0) return fail(`Operator ${op} needs at least one value: ${c.attribute}`);
    if (raw.length > QUERY_LIMITS.maxInValues) {
      return fail(`Too many values: at most ${QUERY_LIMITS.maxInValues} (limit maxInValues)`);
    }
    const values: Scalar[] = [];
    for (const v of raw) {
      const cv = coerceValue(ref, v);
      if (isLeft(cv)) return cv;
      values.push(cv.right);
    }
    return right({ kind: 'in', column: ref, negate: op === 'not-in', values });
  }
  if (Array.isArray(c.value)) return fail(`Operator ${op} needs a single value: ${c.attribute}`);
  const v = coerceValue(ref, c.value);
  if (isLeft(v)) return v;
  return right({ kind: 'compare', column: ref, operator: op, value: v.right });
};

const filter = (ctx: Ctx, f: Filter, table: string, entity: Entity, depth: number, path: string): Either<InputError, PlanFilter> => {
  at(ctx, path);
  if (depth > QUERY_LIMITS.maxFilterDepth) {
    return fail(`Filters nested too deep: at most ${QUERY_LIMITS.maxFilterDepth} (limit maxFilterDepth)`);
  }
  const conditions: PlanCondition[] = [];
  for (const [i, c] of (f.conditions ?? []).entries()) {
    const pc = condition(ctx, c, table, entity, `${path}.conditions[${i}]`);
    if (isLeft(pc)) return pc;
    conditions.push(pc.right);
  }
  const filters: PlanFilter[] = [];
  for (const [i, sub] of (f.filters ?? []).entries()) {
    const pf = filter(ctx, sub, table, entity, depth + 1, `${path}.filters[${i}]`);
    if (isLeft(pf)) return pf;
    filters.push(pf.right);
  }
  return right({ type: f.type ?? 'and', conditions, filters });
};

const isEmpty = (f: PlanFilter): boolean => f.conditions.length === 0 && f.filters.every(isEmpty);

const isKey = (e: Entity, p: Property): boolean => p.logicalName === primaryKeyOf(e);
const targets = (p: Property, e: Entity): boolean => FIELD_TYPES[p.type].stored === 'lookup' && (p.targets ?? []).includes(e.logicalName);

/**
 * A link follows a relationship the metadata declares (issue 22 item 1): a lookup to its target's
 * key (many to one), or a key to a child's lookup that targets it (one to many). Joining a record
 * to itself (key to key of one entity) is allowed too: it adds at most one row. Anything else,
 * such as ownerid to ownerid, pairs every record with every other of the same owner: a cartesian
 * product that one request could make run for minutes.
 */
export const followsRelationship = (parent: Entity, from: Property, child: Entity, to: Property): boolean =>
  (targets(from, child) && isKey(child, to)) ||
  (isKey(parent, from) && targets(to, parent)) ||
  (parent.logicalName === child.logicalName && isKey(parent, from) && isKey(child, to));

/** Registers links depth first; conditions of link filters may name only tables joined before them. */
const links = (
  ctx: Ctx,
  list: Link[],
  parent: { table: string; entity: Entity },
  depth: number,
  pending: Array<{ link: Link; table: string; path: string }>,
  path: string,
): Either<InputError, null> => {
  for (const [i, l] of list.entries()) {
    const here = `${path}[${i}]`;
    at(ctx, here);
    if (depth > QUERY_LIMITS.maxLinkDepth) return fail(`Links nested too deep: at most ${QUERY_LIMITS.maxLinkDepth} (limit maxLinkDepth)`);
    if (ctx.links.length + 1 > QUERY_LIMITS.maxLinks) return fail(`Too many links: at most ${QUERY_LIMITS.maxLinks} (limit maxLinks)`);
    const entity = ctx.lookup(l.name);
    if (!entity) return left(noObject(l.name));
    const alias = l.alias ?? l.name;
    if (alias === '' || alias.includes('.')) return fail(`Invalid link alias: ${alias}`);
    if (ctx.tables.has(alias)) return fail(`Duplicate link alias: ${alias}`);
    at(ctx, `${here}.from`);
    const from = findProperty(parent.entity, l.from, ctx.allowSecret);
    if (!from) return left(fieldNotFound(parent.entity.logicalName, l.from));
    at(ctx, `${here}.to`);
    const to = findProperty(entity, l.to, ctx.allowSecret);
    if (!to) return left(fieldNotFound(entity.logicalName, l.to));
    at(ctx, here);
    if (compared(from) !== 'id' || compared(to) !== 'id') {
      return fail(`A link joins id or lookup fields: ${parent.entity.logicalName}.${l.from} to ${entity.logicalName}.${l.to}`);
    }
    if (!followsRelationship(parent.entity, from, entity, to)) {
      return fail(
        `Link ${alias} does not follow a relationship: ${parent.entity.logicalName}.${l.from} to ${entity.logicalName}.${l.to} ` +
          '(a link joins a lookup to its target\'s key, or a key to a lookup that targets it)',
      );
    }
    const table = `t${ctx.links.length + 1}`;
    ctx.tables.set(alias, { table, entity });
    ctx.links.push({ table, alias, entity, parent: parent.table, from, to, type: l.type ?? 'inner', filter: null });
    pending.push({ link: l, table, path: here });
    const nested = links(ctx, l.links ?? [], { table, entity }, depth + 1, pending, `${here}.links`);
    if (isLeft(nested)) return nested;
  }
  return right(null);
};

const readable = (entity: Entity, allowSecret: boolean): Property[] =>
  entity.properties.filter((p) => allowSecret || p.secret !== true);

const aggregateApplies = (a: Attribute, p: Property): boolean => {
  switch (a.aggregate) {
    case 'sum':
    case 'avg':
      return compared(p) === 'number';
    case 'min':
    case 'max':
      return compared(p) === 'number' || compared(p) === 'instant' || compared(p) === 'text';
    default:
      return true;
  }
};

/**
 * Checks a query object against the metadata and the limits, and resolves it into a plan.
 * Unknown entity: 'No Object:{name}'; unknown field: 'Field not found:{entity}.{field}' (both
 * ERR_INPUT). Nothing is executed: callers build SQL only from a Right.
 */
export const validateQuery = (
  request: FetchRequest,
  lookup: EntityLookup,
  options: ValidateOptions = {},
): Either<InputError, QueryPlan> => {
  const q = request.entity;
  const trace = options.trace;
  if (trace) trace.at = 'entity.name';
  const root = lookup(q.name);
  if (!root) return left(noObject(q.name));
  const ctx: Ctx = { lookup, allowSecret: options.allowSecret === true, conditions: 0, tables: new Map(), links: [], visibleTables: 0, trace };
  ctx.tables.set(root.logicalName, { table: ROOT_TABLE, entity: root });

  const pending: Array<{ link: Link; table: string; path: string }> = [];
  const ls = links(ctx, q.links ?? [], { table: ROOT_TABLE, entity: root }, 1, pending, 'entity.links');
  if (isLeft(ls)) return ls;
  for (const { link, table, path } of pending) {
    if (!link.filter) continue;
    const planLink = ctx.links.find((x) => x.table === table) as PlanLink;
    ctx.visibleTables = Number(table.slice(1));
    const f = filter(ctx, link.filter, table, planLink.entity, 1, `${path}.filter`);
    if (isLeft(f)) return f;
    planLink.filter = isEmpty(f.right) ? null : f.right;
  }
  ctx.visibleTables = ctx.links.length;
  let rootFilter: PlanFilter | null = null;
  if (q.filter) {
    const f = filter(ctx, q.filter, ROOT_TABLE, root, 1, 'entity.filter');
    if (isLeft(f)) return f;
    rootFilter = isEmpty(f.right) ? null : f.right;
  }

  // Output columns: the root's attributes, then each link's as `alias.attribute`.
  const requested: Array<{ a: Attribute; table: string; entity: Entity; prefix: string; path: string }> = [];
  const rootAttrs: Attribute[] =
    q.allattrs === true || (q.attributes ?? []).length === 0
      ? readable(root, ctx.allowSecret).map((p) => ({ attribute: p.logicalName }))
      : (q.attributes ?? []);
  rootAttrs.forEach((a, i) => requested.push({ a, table: ROOT_TABLE, entity: root, prefix: '', path: q.allattrs === true || (q.attributes ?? []).length === 0 ? 'entity.allattrs' : `entity.attributes[${i}]` }));
  const addLinkAttrs = (list: Link[], path: string): void => {
    for (const [i, l] of list.entries()) {
      const pl = ctx.tables.get(l.alias ?? l.name) as { table: string; entity: Entity };
      const attrs: Attribute[] =
        l.allattrs === true ? readable(pl.entity, ctx.allowSecret).map((p) => ({ attribute: p.logicalName })) : (l.attributes ?? []);
      attrs.forEach((a, j) =>
        requested.push({ a, table: pl.table, entity: pl.entity, prefix: `${l.alias ?? l.name}.`, path: l.allattrs === true ? `${path}[${i}].allattrs` : `${path}[${i}].attributes[${j}]` }),
      );
      addLinkAttrs(l.links ?? [], `${path}[${i}].links`);
    }
  };
  addLinkAttrs(q.links ?? [], 'entity.links');
  at(ctx, 'entity.attributes');
  if (requested.length > QUERY_LIMITS.maxAttributes) {
    return fail(`Too many attributes: at most ${QUERY_LIMITS.maxAttributes} (limit maxAttributes)`);
  }

  const aggregateQuery = requested.some((r) => r.a.aggregate !== undefined || (r.a.groupBy !== undefined && r.a.groupBy !== false));
  const keys = new Set<string>();
  const plainColumns: PlanColumn[] = [];
  const aggColumns: PlanAggregateColumn[] = [];
  const pk = primaryKeyOf(root);
  for (const { a, table, entity, prefix, path } of requested) {
    at(ctx, path);
    const col = column(ctx, table, entity, a.attribute);
    if (isLeft(col)) return col;
    const key = prefix + (a.alias ?? a.attribute);
    if (keys.has(key)) {
      if (!aggregateQuery && a.alias === undefined) continue; // the same column asked twice
      return fail(`Duplicate attribute or alias: ${key}`);
    }
    keys.add(key);
    if (!aggregateQuery) {
      plainColumns.push({ key, column: col.right });
      continue;
    }
    if (a.aggregate !== undefined) {
      if (!aggregateApplies(a, col.right.property)) return fail(`Aggregate ${a.aggregate} does not apply to ${entity.logicalName}.${a.attribute}`);
      aggColumns.push({ key, column: col.right, kind: 'aggregate', aggregate: a.aggregate });
    } else if (a.groupBy === true) {
      aggColumns.push({ key, column: col.right, kind: 'group', grouping: null });
    } else if (typeof a.groupBy === 'string') {
      if (compared(col.right.property) !== 'instant') return fail(`Date grouping applies to date fields only: ${a.attribute}`);
      aggColumns.push({ key, column: col.right, kind: 'group', grouping: a.groupBy });
    } else {
      return fail(`An aggregate query needs an aggregate or groupBy on every attribute: ${key}`);
    }
  }

  const distinct = !aggregateQuery && q.distinct === true;
  if (!aggregateQuery && !distinct && !keys.has(pk)) {
    const idProp = findProperty(root, pk, true);
    if (idProp) plainColumns.unshift({ key: pk, column: { table: ROOT_TABLE, entity: root, property: idProp } });
  }

  // Orders: of the entity, then of the request; on a root column, a link column (entityName) or an output alias.
  const orders: PlanOrder[] = [];
  const allOrders: Order[] = [...(q.orders ?? []), ...(request.orders ?? [])];
  for (const [i, o] of allOrders.entries()) {
    at(ctx, i < (q.orders ?? []).length ? `entity.orders[${i}]` : `orders[${i - (q.orders ?? []).length}]`);
    const descending = o.descending === true;
    if (aggregateQuery) {
      const key = o.alias ?? (o.entityName && o.entityName !== root.logicalName ? `${o.entityName}.${o.attribute}` : o.attribute);
      const found = aggColumns.find((c) => c.key === key) ?? aggColumns.find((c) => c.kind === 'group' && c.key === o.attribute);
      if (!found) return fail(`An aggregate query orders by its output columns only: ${key}`);
      orders.push({ kind: 'output', key: found.key, descending });
      continue;
    }
    let t = { table: ROOT_TABLE, entity: root };
    if (o.entityName !== undefined && o.entityName !== root.logicalName) {
      const linked = ctx.tables.get(o.entityName);
      if (!linked) return fail(`Unknown link alias: ${o.entityName}`);
      t = linked;
    }
    const col = column(ctx, t.table, t.entity, o.attribute);
    if (isLeft(col)) return col;
    if (distinct && !plainColumns.some((c) => c.column.table === t.table && c.column.property === col.right.property)) {
      return fail(`A distinct query orders by its selected columns only: ${o.attribute}`);
    }
    orders.push({ kind: 'column', column: col.right, descending });
  }

  // Paging (API.md): page from 1, pageSize default 50, capped at 5000.
  at(ctx, 'page');
  const page = request.page ?? 1;
  if (!Number.isInteger(page) || page < 1) return fail(`Invalid page: ${page}`);
  at(ctx, 'pageSize');
  const size = request.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1) return fail(`Invalid pageSize: ${size}`);
  // The rows skipped must be a whole number a database can take (the issue 22 fuzz: page 4.2e15 was a 500).
  if (!Number.isSafeInteger(page * Math.min(size, QUERY_LIMITS.maxPageSize))) return fail(`Invalid page: ${page}`);

  at(ctx, 'after');
  const after = request.after === undefined ? right(undefined) : keysetAfter(request.after, orders, root, page, aggregateQuery || distinct || ctx.links.length > 0);
  if (isLeft(after)) return after;

  return right({
    root,
    links: ctx.links,
    filter: rootFilter,
    ...(after.right ? { after: after.right } : {}),
    shape: aggregateQuery ? { kind: 'aggregate', columns: aggColumns } : { kind: 'plain', columns: plainColumns, distinct },
    orders,
    page,
    pageSize: Math.min(size, QUERY_LIMITS.maxPageSize),
    count: request.count === true,
  });
};
