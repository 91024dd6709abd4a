import type { Entity, EntityRecord, FetchRequest, Filter, FieldValue } from '../core.js';
import { likeLiteral } from '../core.js';
import { useApi } from '../api/context.js';
import { formatValue } from '../format.js';
import { viewsOf, type NamedView } from '../list/list-query.js';
import { entityOf, guiObjects, parsedBody } from '../state/session.js';

/** A record found by a lookup search: its id, name, and the secondary columns that tell namesakes apart. */
export type Hit = { id: string; label: string; details?: string[] };

/** The view of an entity used for lookups: a list view of this name (issue 23 item 8). */
export const LOOKUP_VIEW = 'lookup';
/** Secondary columns shown beside the name in the lookup's list and dialog. */
export const MAX_LOOKUP_COLUMNS = 3;

/**
 * The secondary columns of a lookup on `entity` (issue 23 item 8: three "Alpine Works" must be
 * told apart): the columns after name of its lookup view when it has one; else its city and its
 * owner (where it is and whose it is), when the entity has them; else the next columns of its
 * first list view.
 */
export const lookupColumns = (entity: Entity, views: readonly NamedView[]): string[] => {
  const has = (name: string) => entity.properties.some((p) => p.logicalName === name);
  const rest = (v: NamedView) => v.body.columns.map((c) => c.name).filter((n) => n !== 'name' && !n.includes('.') && has(n));
  const lookupView = views.find((v) => v.name === LOOKUP_VIEW);
  if (lookupView) return rest(lookupView).slice(0, MAX_LOOKUP_COLUMNS);
  const city = entity.properties.find((p) => /(^|_|\d)city$/.test(p.logicalName))?.logicalName;
  const where = [city, has('ownerid') ? 'ownerid' : undefined].filter((n): n is string => !!n);
  if (where.length > 0) return where;
  const first = views[0];
  return first ? rest(first).filter((n) => n !== 'modifiedon').slice(0, 2) : [];
};

/**
 * The record a lookup must not offer: the record itself, when the lookup points at its own entity
 * (an account is not its own parent). Undefined for another entity or a record not saved yet.
 */
export const selfExclusion = (target: string, self: { entity: string; id?: string } | undefined): string | undefined =>
  self && self.entity === target && self.id && self.id !== '0' ? self.id : undefined;

/** Spec 001 section 9: lookup search uses starts-with matching on name; the record itself left out. */
export const lookupRequest = (target: string, text: string, columns: readonly string[], exclude: string | undefined, pageSize: number): FetchRequest => {
  const q = likeLiteral(text.trim());
  const conditions = [
    ...(q ? [{ attribute: 'name', operator: 'like' as const, value: `${q}%` }] : []),
    ...(exclude ? [{ attribute: 'id', operator: 'ne' as const, value: exclude }] : []),
  ];
  const filter: Filter | undefined = conditions.length > 0 ? { type: 'and', conditions } : undefined;
  return {
    entity: {
      name: target,
      attributes: [{ attribute: 'id' }, { attribute: 'name' }, ...columns.map((attribute) => ({ attribute }))],
      ...(filter ? { filter } : {}),
      orders: [{ attribute: 'name' }],
    },
    page: 1,
    pageSize,
  };
};

/** A found record as the lookup shows it: the name, then each non-empty secondary column formatted. */
export const hitOf = (entity: Entity | undefined, columns: readonly string[], r: EntityRecord, unnamed: string): Hit => ({
  id: String(r.id),
  label: String(r.name ?? '') || unnamed,
  details: columns
    .map((c) => formatValue(entity?.properties.find((p) => p.logicalName === c), r[c] as FieldValue | undefined, r))
    .filter((s) => s !== ''),
});

/** The lookup columns of a target from the session's views. */
export const lookupColumnsOf = (target: string): string[] => {
  const entity = entityOf(target);
  return entity ? lookupColumns(entity, viewsOf(entity, guiObjects('view', target), parsedBody)) : [];
};

/** The search of a lookup on `target`, leaving out `exclude` (the record itself). */
export const useLookupSearch = (target: string, exclude?: string, unnamed = '') => {
  const api = useApi();
  return async (text: string, pageSize = 10): Promise<Hit[]> => {
    const entity = entityOf(target);
    const columns = lookupColumnsOf(target);
    const res = await api.fetch(lookupRequest(target, text, columns, exclude, pageSize));
    return res.records.map((r) => hitOf(entity, columns, r as EntityRecord, unnamed));
  };
};
