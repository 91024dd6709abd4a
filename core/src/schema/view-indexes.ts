import type { Entity } from '../metadata/entity.js';
import type { ListView } from '../metadata/view.js';
import { declaredIndexName, findTable, nameKey, withDeclaredIndexes, type Index, type Schema } from './schema-model.js';

/**
 * Indexes the views ask for (issues 13 and 14): a list view that can show as a calendar reads its window as
 * `end >= window start AND start <= window end`, ordered by start (spec 001 section 9). An index on
 * (end, start) serves that range from the index alone: the engine seeks the end bound and checks the
 * start bound in the index entries, so a month of a large table costs the rows after the window's
 * start, never the whole table. A kanban board asks for its lane field (then its order, see
 * indexedColumns). Other modes add nothing: the schema generator's own indexes (lookups, owner, team,
 * createdon, name) serve them.
 *
 * Views are data of their own (inu_view records), not part of an entity, so the schema learns of
 * them through the entity: `withViewIndexHints` writes a pack's view indexes into its entities'
 * `indexes` (when an organization is created from packs, and by `tessera schema apply --to` a
 * pack), and `schemaOf` makes them. The applied metadata then holds them, so a migration plans them
 * once. A host may also add them to a schema directly (`withViewIndexes`).
 */

/** An index a view asks for on its entity's table. */
export type ViewIndex = { readonly table: string; readonly index: Index };

/** A view as the rule reads it: its entity and its list body (the inu_view record's objectname and body). */
export type IndexedView = {
  readonly objectname: string;
  readonly body: Pick<ListView, 'viewMode' | 'allowedModes' | 'calendarStartField' | 'calendarEndField' | 'kanbanField'> & { readonly query?: Pick<ListView['query'], 'orders' | 'filter'> };
};

export const viewIndexName = declaredIndexName;

const shows = (b: IndexedView['body'], mode: 'calendar' | 'kanban'): boolean => b.viewMode === mode || (b.allowedModes ?? []).includes(mode);
const showsList = (b: IndexedView['body']): boolean => (b.viewMode ?? 'list') === 'list' || (b.allowedModes ?? []).includes('list');
const onRoot = (attribute: string): boolean => !attribute.includes('.');

/**
 * A list's page (issue 24): the view's equality conditions (of its top-level and-filter, on its own
 * fields; `eq`, then `in`) first, then its first sort column. The index then finds the view's rows already in
 * order, so a page costs its own rows, not a sort of the table (the list-scale bench: a sort by an
 * indexed column at 1M rows in about a millisecond).
 */
const listColumns = (b: IndexedView['body']): string[] | null => {
  const order = b.query?.orders?.[0]?.attribute;
  if (!showsList(b) || !order || !onRoot(order)) return null;
  const f = b.query?.filter;
  const own = f && (f.type ?? 'and') === 'and' ? (f.conditions ?? []).filter((c) => !c.entityName && onRoot(c.attribute)) : [];
  // eq first, then in-lists (an index finds each listed value; the page then merges them)
  const equal = [...own.filter((c) => c.operator === 'eq'), ...own.filter((c) => c.operator === 'in')].map((c) => c.attribute);
  const lead = [...new Set(equal.map(nameKey))].filter((c) => c !== nameKey(order));
  return [...lead, order];
};

/**
 * The columns a view reads by: a calendar's (end, start); a kanban board's lane field (default
 * `status`) then the view's first order, as each lane's page is `lane = value ORDER BY that` and the
 * lane counts group by the lane field (the kanban bench: five lane pages of 100k leads from 40 ms to
 * 0.5 ms).
 */
const indexedColumns = (b: IndexedView['body']): string[][] => {
  const out: string[][] = [];
  if (shows(b, 'calendar')) {
    const columns = [b.calendarEndField ?? 'scheduledend', b.calendarStartField ?? 'scheduledstart'];
    if (nameKey(columns[0]) === nameKey(columns[1])) columns.pop();
    out.push(columns);
  }
  if (shows(b, 'kanban')) {
    const lane = b.kanbanField ?? 'status';
    const order = b.query?.orders?.[0]?.attribute;
    out.push(order && nameKey(order) !== nameKey(lane) && !order.includes('.') ? [lane, order] : [lane]);
  }
  const list = listColumns(b);
  if (list) out.push(list);
  return out;
};

/** The indexes of a set of views: one per entity and list of columns (calendar, kanban), in first-seen order. */
export const viewIndexes = (views: readonly IndexedView[]): ViewIndex[] => {
  const out: ViewIndex[] = [];
  const seen = new Set<string>();
  for (const v of views)
    for (const columns of indexedColumns(v.body)) {
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
    return mine.length === 0 ? t : withDeclaredIndexes(t, mine.map((w) => w.index.columns));
  }),
});

/** A pack's views as the rule reads them: list views with their entity (others are passed over). */
const listViewsOf = (views: ReadonlyArray<{ kind: string; objectname?: string; body: unknown }>): IndexedView[] =>
  views.flatMap((v) => (v.kind === 'view' && v.objectname ? [{ objectname: v.objectname, body: v.body as IndexedView['body'] }] : []));

/** The quick filters that add `field = value` (or `in`) to a list: option sets, lookups, the owner. */
const EQUALITY_FILTERS = new Set(['options', 'lookup', 'owner']);

/** A quick-filter bar as the rule reads it (inu_view kind `filter`). */
export type IndexedFilterBar = { readonly objectname: string; readonly body: { readonly filters?: ReadonlyArray<{ type?: string; propertyName?: string; customFetch?: unknown }> } };

/**
 * Indexes for the quick filters (issue 24: "what the views and quick filters of an entity filter
 * and sort on"): a quick filter that adds an equality on one of the entity's own fields makes the
 * list `field = value ORDER BY the view's order`, so for each list view of the entity the index is
 * (field, that order): the filtered page is then read in order from the index. A filter with its own
 * `customFetch` says nothing of its columns and asks for none; text and date filters are ranges or
 * searches (the full-text index and the view's order serve them).
 */
export const quickFilterIndexes = (bars: readonly IndexedFilterBar[], lists: readonly IndexedView[]): ViewIndex[] => {
  const out: ViewIndex[] = [];
  const seen = new Set<string>();
  for (const bar of bars)
    for (const f of bar.body.filters ?? []) {
      const field = f.propertyName;
      if (!field || !onRoot(field) || f.customFetch !== undefined || !EQUALITY_FILTERS.has(f.type ?? '')) continue;
      for (const v of lists) {
        if (nameKey(v.objectname) !== nameKey(bar.objectname) || !showsList(v.body)) continue;
        const order = v.body.query?.orders?.[0]?.attribute;
        const columns = order && onRoot(order) && nameKey(order) !== nameKey(field) ? [field, order] : [field];
        const key = nameKey(`${bar.objectname}|${columns.join('|')}`);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ table: bar.objectname, index: { name: viewIndexName(bar.objectname, columns), columns, unique: false } });
      }
    }
  return out;
};

const filterBarsOf = (views: ReadonlyArray<{ kind: string; objectname?: string; body: unknown }>): IndexedFilterBar[] =>
  views.flatMap((v) => (v.kind === 'filter' && v.objectname ? [{ objectname: v.objectname, body: (v.body ?? {}) as IndexedFilterBar['body'] }] : []));

/** The entities with the indexes their views ask for in `indexes` (kept once; the order of first sight). */
export const withViewIndexHints = (entities: readonly Entity[], views: ReadonlyArray<{ kind: string; objectname?: string; body: unknown }>): Entity[] => {
  const listed = listViewsOf(views);
  const wanted = [...viewIndexes(listed), ...quickFilterIndexes(filterBarsOf(views), listed)];
  return entities.map((e) => {
    const mine = wanted.filter((w) => nameKey(w.table) === nameKey(e.logicalName)).map((w) => [...w.index.columns]);
    const lists = [...(e.indexes ?? [])];
    for (const m of mine) if (!lists.some((l) => l.length === m.length && l.every((c, k) => nameKey(c) === nameKey(m[k])))) lists.push(m);
    const indexed = lists.length === (e.indexes ?? []).length ? e : { ...e, indexes: lists };
    // An entity with a list has its search box: a 'contains' on name, served by a full-text index.
    const searched = e.fullText === undefined && listed.some((v) => nameKey(v.objectname) === nameKey(e.logicalName) && showsList(v.body));
    return searched ? { ...indexed, fullText: ['name'] } : indexed;
  });
};
