import { primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import { followsRegarding, readableEntities, REGARDING_ID_FIELD, REGARDING_NAME_FIELD } from '../permissions/regarding.js';
import type { Caller, ReadScope } from '../permissions/types.js';
import { ROOT_TABLE, type PlanCondition, type PlanFilter, type PlanLink, type QueryPlan, type Scalar } from '../query/plan.js';
import type { EntityLookup } from '../query/validate-query.js';

/**
 * The read rule of permissions/regarding.ts as part of a query plan, so every store (SQL and in
 * memory) applies it inside the one query, and paging and counts see only permitted rows.
 *
 * For each table of the plan whose entity follows its regarding record (the root, or a link) the
 * plan gets, per entity the caller reads only partly, an outer join of the regarding record under
 * that entity's read scope (the store puts a link's scope in its ON clause), and a condition:
 *
 *   objectname IS NULL
 *   OR objectname IN (entities the caller reads entirely)
 *   OR (objectname = 'account' AND regarding_account.id IS NOT NULL) OR ...
 *
 * Entities the caller cannot read at all are left out, so rows regarding them are not shown.
 * A root filter that pins `objectname` (the feed of one record does) narrows the joins to that
 * entity. A link's row whose regarding record is unreadable removes the joined row (the condition
 * is in the WHERE): for an outer link that drops the parent row too, rather than show it.
 */

/** At most this many regarding joins per table (SQLite joins at most 64 tables); further partly read entities count as unreadable. */
export const MAX_REGARDING_JOINS = 40;

const propertyOf = (e: Entity, name: string): Property | undefined => e.properties.find((p) => p.logicalName === name);

const keyProperty = (e: Entity): Property => {
  const pk = primaryKeyOf(e);
  return propertyOf(e, pk) ?? { logicalName: pk, displayName: pk, type: 'Guid' };
};

/** The entity names a root filter pins objectname to (an AND of `eq`/`in` conditions), or undefined when it does not. */
const pinnedNames = (filter: PlanFilter | null): Set<string> | undefined => {
  if (!filter || filter.type !== 'and') return undefined;
  for (const c of filter.conditions) {
    if (c.column.table !== ROOT_TABLE || c.column.property.logicalName !== REGARDING_NAME_FIELD) continue;
    if (c.kind === 'compare' && c.operator === 'eq') return new Set([String(c.value)]);
    if (c.kind === 'in' && !c.negate) return new Set(c.values.map(String));
  }
  return undefined;
};

const and = (a: PlanFilter | null, b: PlanFilter): PlanFilter => (a === null ? b : { type: 'and', conditions: [], filters: [a, b] });

/** The plan with the regarding read rule for every table that needs it; the plan itself when none does. */
export const withRegardingScope = (
  plan: QueryPlan,
  caller: Caller,
  lookup: EntityLookup,
  scope: (entity: string) => ReadScope,
): QueryPlan => {
  const tables = [{ table: ROOT_TABLE, entity: plan.root }, ...plan.links.map((l) => ({ table: l.table, entity: l.entity, link: l }))];
  const ruled = tables.filter((t) => followsRegarding(t.entity.logicalName));
  if (ruled.length === 0) return plan;

  const readable = readableEntities(caller);
  const links: PlanLink[] = [...plan.links];
  let filter = plan.filter;
  let next = plan.links.length + 1;
  for (const t of ruled) {
    const name = propertyOf(t.entity, REGARDING_NAME_FIELD);
    const id = propertyOf(t.entity, REGARDING_ID_FIELD);
    if (!name || !id) continue;
    const pinned = t.table === ROOT_TABLE ? pinnedNames(plan.filter) : undefined;
    const candidates = pinned ? readable.filter((e) => pinned.has(e)) : readable;
    const entirely: Scalar[] = [];
    const partly: PlanFilter[] = [];
    const column = { table: t.table, entity: t.entity, property: name };
    for (const entityName of candidates) {
      const target = lookup(entityName);
      const s = scope(entityName);
      if (!target || s.kind === 'none') continue;
      if (s.kind === 'all') {
        entirely.push(entityName);
        continue;
      }
      if (partly.length >= MAX_REGARDING_JOINS) continue;
      const table = `t${next++}`;
      const key = keyProperty(target);
      links.push({ table, alias: `\u0000regarding.${t.table}.${entityName}`, entity: target, parent: t.table, from: id, to: key, type: 'outer', filter: null });
      partly.push({
        type: 'and',
        conditions: [
          { kind: 'compare', column, operator: 'eq', value: entityName },
          { kind: 'null', column: { table, entity: target, property: key }, negate: true },
        ],
        filters: [],
      });
    }
    const conditions: PlanCondition[] = [{ kind: 'null', column, negate: false }];
    if (entirely.length > 0) conditions.push({ kind: 'in', column, negate: false, values: entirely });
    const rule: PlanFilter = { type: 'or', conditions, filters: partly };
    // A link's row may be absent (an outer link): then there is nothing to hide.
    const guarded: PlanFilter =
      t.table === ROOT_TABLE
        ? rule
        : { type: 'or', conditions: [{ kind: 'null', column: { table: t.table, entity: t.entity, property: keyProperty(t.entity) }, negate: false }], filters: [rule] };
    filter = and(filter, guarded);
  }
  return { ...plan, links, filter };
};
