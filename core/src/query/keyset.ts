import { primaryKeyOf, type Entity, type Property } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import type { FetchRequest } from './query.js';

/**
 * The order attributes a query can page by keyset (issue 24: the next page starts after the last
 * row shown, so page 200 costs what page 1 does; docs/api.md "Keyset paging"): a plain query of
 * the entity alone, ordered by fields of its own that the rows carry (`returned`) and that are not
 * lookups (a lookup sorts by its label). Null: it pages by number. Exports and the list's Show
 * more both ask this.
 */
export const keysetOrders = (entity: Entity, request: FetchRequest, returned: readonly Property[]): readonly string[] | null => {
  const q = request.entity;
  if ((q.links ?? []).length > 0 || q.distinct === true || (request.orders ?? []).length > 0) return null;
  const orders = q.orders ?? [];
  const ok = orders.every((o) => {
    if (o.alias !== undefined || (o.entityName !== undefined && o.entityName !== entity.logicalName)) return false;
    // The key comes back with every row even when it is not asked for.
    if (o.attribute === primaryKeyOf(entity)) return true;
    const p = returned.find((w) => w.logicalName === o.attribute);
    return p !== undefined && FIELD_TYPES[p.type].stored !== 'lookup';
  });
  return ok ? orders.map((o) => o.attribute) : null;
};

/** The `after` of the page that follows `last`: its value of each order attribute, then its key. */
export const keysetAfter = (orders: readonly string[], last: Readonly<Record<string, unknown>>, key: string): unknown[] => [
  ...orders.map((a) => last[a] ?? null),
  last[key],
];
