import type { ListView } from '../metadata/view.js';
import { findColumn, findTable, isIndexable, nameKey, type Index, type Schema } from './schema-model.js';

/**
 * Indexes the views ask for (issue 14): a list view that can show as a calendar reads its window as
 * `end >= window start AND start <= window end`, ordered by start (spec 001 section 9). An index on
 * (end, start) serves that range from the index alone: the engine seeks the end bound and checks the
 * start bound in the index entries, so a month of a large table costs the rows after the window's
 * start, never the whole table. Other modes add nothing: the schema generator's own indexes (lookups,
 * owner, team, createdon, name) serve them.
 *
 * The rule is separate from `schemaOf` because views are data of their own (inu_view records), not
 * part of an entity: a host that wants the index derives the hints from its views and adds them.
 */

/** An index a view asks for on its entity's table. */
export type ViewIndex = { readonly table: string; readonly index: Index };

/** A view as the rule reads it: its entity and its list body (the inu_view record's objectname and body). */
export type IndexedView = { readonly objectname: string; readonly body: Pick<ListView, 'viewMode' | 'allowedModes' | 'calendarStartField' | 'calendarEndField'> };

export const viewIndexName = (table: string, columns: readonly string[]): string => `IX_${table}_${columns.join('_')}`;

const showsCalendar = (b: IndexedView['body']): boolean => b.viewMode === 'calendar' || (b.allowedModes ?? []).includes('calendar');

/** The indexes of a set of views: one (end, start) index per entity and pair of calendar fields, in first-seen order. */
export const viewIndexes = (views: readonly IndexedView[]): ViewIndex[] => {
  const out: ViewIndex[] = [];
  const seen = new Set<string>();
  for (const v of views) {
    if (!showsCalendar(v.body)) continue;
    const columns = [v.body.calendarEndField ?? 'scheduledend', v.body.calendarStartField ?? 'scheduledstart'];
    if (nameKey(columns[0]) === nameKey(columns[1])) columns.pop();
    const key = nameKey(`${v.objectname}|${columns.join('|')}`);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ table: v.objectname, index: { name: viewIndexName(v.objectname, columns), columns, unique: false } });
  }
  return out;
};

/**
 * The schema with the views' indexes added: only where the table and every column exist and can be
 * indexed, and no index of the table already has those leading columns. Idempotent.
 */
export const withViewIndexes = (schema: Schema, wanted: readonly ViewIndex[]): Schema => ({
  tables: schema.tables.map((t) => {
    const mine = wanted.filter((w) => findTable({ tables: [t] }, w.table) !== undefined);
    if (mine.length === 0) return t;
    const indexes = [...t.indexes];
    for (const w of mine) {
      const columns = w.index.columns.map((c) => findColumn(t, c));
      if (columns.some((c) => c === undefined || !isIndexable(c))) continue;
      const names = columns.map((c) => c!.name);
      const same = (i: Index) => i.columns.length >= names.length && names.every((n, k) => nameKey(i.columns[k]) === nameKey(n));
      if (indexes.some(same) || indexes.some((i) => nameKey(i.name) === nameKey(w.index.name))) continue;
      indexes.push({ ...w.index, name: viewIndexName(t.name, names), columns: names });
    }
    return { ...t, indexes };
  }),
});
