import { signal } from '@preact/signals-react';
import type { Entity, Property, QuickFilter } from '../../core.js';
import { addPersonalFilter, completeQuickFilter, decodePersonalFilters, encodePersonalFilters, movePersonalFilter, personalFiltersKey, quickFilterForProperty, removePersonalFilter } from '../../core.js';
import { caller, session } from '../../state/session.js';
import { local } from '../../state/storage.js';

/**
 * Personal quick filters (spec 001 section 2): kept in localStorage per organization, user and
 * entity, in the order added. A change bumps `changed`, so the list model (which reads the filters
 * through a function) reloads with the new bar.
 */
const changed = signal(0);

const keyOf = (entity: string): string | null => {
  const org = session.value?.context.orgName;
  const user = caller.value?.userId;
  return org && user ? personalFiltersKey(org, user, entity) : null;
};

/** The signed-in user's personal filters of an entity (followed: a change re-runs the reader). */
export const personalFilters = (entity: Entity): QuickFilter[] => {
  void changed.value;
  const key = keyOf(entity.logicalName);
  return key ? decodePersonalFilters(local.get(key), entity) : [];
};

const write = (entity: Entity, next: (list: QuickFilter[]) => QuickFilter[]): void => {
  const key = keyOf(entity.logicalName);
  if (!key) return;
  local.set(key, encodePersonalFilters(next(decodePersonalFilters(local.get(key), entity))));
  changed.value++;
};

/** Adds a filter on a column; answers its name (the bar focuses it). */
export const addPersonalFilterOn = (entity: Entity, p: Property): string | undefined => {
  const def = quickFilterForProperty(p);
  if (def) write(entity, (list) => addPersonalFilter(list, def));
  return def?.name;
};

export const removePersonalFilterNamed = (entity: Entity, name: string): void => write(entity, (list) => removePersonalFilter(list, name));

/** Customize mode (issue 15): moves a personal filter to another place in the bar. */
export const movePersonalFilterNamed = (entity: Entity, name: string, to: number): void => write(entity, (list) => movePersonalFilter(list, name, to));

/**
 * The bar of a list: the metadata's filters the user may see, then their personal ones; each
 * completed (a mustSelect filter without a default falls back to its first option).
 */
export const listQuickFilters = (entity: Entity, visible: readonly QuickFilter[]): QuickFilter[] =>
  [...visible, ...personalFilters(entity)].map((d) => completeQuickFilter(d, entity));
