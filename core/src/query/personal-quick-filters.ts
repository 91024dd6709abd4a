import { isRight } from 'fp-ts/lib/Either.js';
import { hasFlag, type Entity, type Property } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { isOptionSet } from '../metadata/field-values.js';
import { QuickFilter } from '../metadata/view.js';
import { isBitmapOptions } from './quick-filter-options.js';

/**
 * Personal quick filters (spec 001 section 2, spec 002 section 6): a user adds a filter on a
 * column of the list; it is kept per organization, user and entity in the browser, in the order
 * added (the customize issue reorders them: the stored list is that order).
 */

/** Names of personal filters start with this, so they never clash with the metadata's. */
export const PERSONAL_FILTER_PREFIX = 'personal.';

/** The browser storage key of one user's personal filters of one entity in one organization. */
export const personalFiltersKey = (org: string, userId: string, entity: string): string =>
  `tessera.personalFilters.${org.toLowerCase()}.${userId.toLowerCase()}.${entity}`;

/**
 * The quick filter a column gets, by what the field-type registry says the type compares:
 * option sets a multi-select pulldown, owner the owner filter, other lookups a search picker,
 * dates the date quick options, numbers a from-to range, text a contains input. Undefined for
 * what a filter cannot compare (ids, binaries, booleans, multi-select bitmaps, file and image columns).
 */
export const quickFilterForProperty = (p: Property): QuickFilter | undefined => {
  const rules = FIELD_TYPES[p.type];
  if (hasFlag(p, 'Image') || hasFlag(p, 'File') || hasFlag(p, 'Json')) return undefined;
  const base = { name: `${PERSONAL_FILTER_PREFIX}${p.logicalName}`, propertyName: p.logicalName };
  if (isOptionSet(p)) return isBitmapOptions(p) ? undefined : { ...base, type: 'options', multiSelect: true, optionsFormat: 'select' };
  switch (rules.stored) {
    case 'lookup':
      return p.logicalName === 'ownerid' ? { ...base, type: 'owner', optionsFormat: 'select' } : { ...base, type: 'lookup' };
    case 'instant':
      return { ...base, type: 'date', optionsFormat: 'select' };
    case 'number':
      return rules.compared === 'number' ? { ...base, type: 'numericrange' } : undefined;
    case 'text':
      return rules.compared === 'text' ? { ...base, type: 'text' } : undefined;
    default:
      return undefined;
  }
};

/** The columns of a list a personal filter can be added on: those with a filter type and no filter yet (metadata or personal). */
export const filterableColumns = (entity: Entity, columns: readonly string[], existing: readonly QuickFilter[]): Property[] => {
  const taken = new Set(existing.map((d) => d.propertyName ?? (d.type === 'owner' ? 'ownerid' : d.name)));
  const seen = new Set<string>();
  return columns.flatMap((c) => {
    const p = entity.properties.find((x) => x.logicalName === c);
    if (p === undefined || taken.has(c) || seen.has(c) || quickFilterForProperty(p) === undefined) return [];
    seen.add(c);
    return [p];
  });
};

/** Adds a filter at the end; a filter of the same name is not added twice (the list keeps its order). */
export const addPersonalFilter = (list: readonly QuickFilter[], def: QuickFilter): QuickFilter[] =>
  list.some((d) => d.name === def.name) ? [...list] : [...list, def];

/** Removes the filter of that name; the others keep their order. */
export const removePersonalFilter = (list: readonly QuickFilter[], name: string): QuickFilter[] => list.filter((d) => d.name !== name);

/** The stored list as JSON text. */
export const encodePersonalFilters = (list: readonly QuickFilter[]): string => JSON.stringify(list);

/**
 * The stored list read back: entries that are not quick filters of this entity's properties (edited
 * by hand, written by an older client, a property since removed) are left out, never an error.
 */
export const decodePersonalFilters = (text: string | null, entity: Entity): QuickFilter[] => {
  if (text === null) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const names = new Set(entity.properties.map((p) => p.logicalName));
  return raw.reduce<QuickFilter[]>((list, x) => {
    const d = QuickFilter.decode(x);
    if (!isRight(d)) return list;
    const f = d.right;
    const fits = f.name.startsWith(PERSONAL_FILTER_PREFIX) && f.propertyName !== undefined && names.has(f.propertyName);
    return fits ? addPersonalFilter(list, f) : list;
  }, []);
};
