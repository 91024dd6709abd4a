import { batch, computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Caller, Entity, EntityRecord, FetchRequest, Filter, Order, QuickFilter, QuickFilterSelection, ViewModeName } from '../core.js';
import { applyQuickFilterFragment, checkPermissionString, commandPermission, effectiveSelection, initialSelection, isEmptySelection, keysetAfter, keysetOrders, mayAccessSome, primaryKeyOf, quickFiltersToFetch } from '../core.js';
import type { ApiClient } from '../api/client.js';
import { KEYS } from '../state/storage.js';
import { listRequest, searchFilter, type NamedView } from './list-query.js';

/**
 * The list screen as a model of signals (spec 001 section 2): the view, quick-filter selections,
 * search, sort and page size make the query; a change of any of them reloads. Rows, count,
 * "more", selection, Show more, batch delete and the realtime refresh live here too. It knows
 * nothing of the DOM: tested in vitest with the core's in-memory store behind a fake client.
 */

/** What the model needs of the API client. */
export type ListApi = Pick<ApiClient, 'fetch' | 'executeMultiple'>;
/** Where the list remembers things for the browser session (page size, quick-filter selections). */
export type ListMemory = { get(key: string): string | null; set(key: string, value: string): void };

/** Spec 001 section 2: page size 50 by default; Show more adds as many. */
export const PAGE_SIZE = 50;
/** The pause after a server change before the list reloads: a burst of changes reloads once. */
export const REFRESH_DELAY_MS = 300;

export const pageSizeKey = (name: string) => `${KEYS.listPageSize}.${name}`;
export const selectionsKey = (name: string) => `tessera.quickFilters.${name}`;

/** The remembered selections of a list's quick filters, else each filter's initial selection. */
const storedSelections = (memory: ListMemory, name: string, filters: readonly QuickFilter[]): Record<string, QuickFilterSelection> => {
  let stored: Record<string, QuickFilterSelection> = {};
  try {
    stored = JSON.parse(memory.get(selectionsKey(name)) ?? '{}') as Record<string, QuickFilterSelection>;
  } catch {
    stored = {};
  }
  return Object.fromEntries(filters.map((f) => [f.name, Object.hasOwn(stored, f.name) ? stored[f.name] : initialSelection(f)]));
};

export type DeleteResult = { _tag: 'Deleted'; errors: string[] } | { _tag: 'Failed'; error: unknown };

export type ListModelOptions = {
  api: ListApi;
  /**
   * The inputs from the metadata are read through functions: a signal read there is followed,
   * so a metadata refresh (a language change) reloads the list and keeps its sort, search and page.
   */
  entity: () => Entity;
  /** the entity's views (at least the generated one) */
  views: () => readonly NamedView[];
  /** the view of the route's ?view=, else the first */
  initialView?: string;
  /** the quick filters the caller may see */
  filters: () => readonly QuickFilter[];
  caller: () => Caller;
  memory: ListMemory;
  /** the reference time of date quick filters, and their time zone */
  now?: () => Date;
  timeZone?: string;
  refreshDelayMs?: number;
  /** a load that failed (the rows are then empty); the screen alerts it */
  onLoadFailed?: (error: unknown) => void;
};

export type ListModel = ReturnType<typeof listModel>;

export const listModel = ({
  api,
  entity: entityOf,
  views: viewsOf,
  initialView = '',
  filters: filtersOf,
  caller,
  memory,
  now = () => new Date(),
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  refreshDelayMs = REFRESH_DELAY_MS,
  onLoadFailed,
}: ListModelOptions) => {
  const entity = computed(entityOf);
  const views = computed(viewsOf);
  const filters = computed(filtersOf);
  const name = untracked(() => entity.value.logicalName);
  const props = computed(() => new Map(entity.value.properties.map((p) => [p.logicalName, p])));

  const viewName = signal(initialView);
  const view = computed(() => views.value.find((v) => v.name === viewName.value) ?? views.value[0]);
  /** The modes the view offers (spec 001 section 2: allowedModes, else its own mode), in that order. */
  const modes = computed((): readonly ViewModeName[] => {
    const b = view.value?.body;
    const own = b?.viewMode ?? 'list';
    return b?.allowedModes?.length ? [...new Set([own, ...b.allowedModes])] : [own];
  });
  const pickedMode = signal<{ view: string; mode: ViewModeName } | undefined>(undefined);
  /** The mode shown: the one the user switched to in this view, else the view's own. */
  const mode = computed((): ViewModeName => {
    const p = pickedMode.value;
    return p && p.view === view.value?.name && modes.value.includes(p.mode) ? p.mode : modes.value[0];
  });
  // The bar's selections last for the browser session, per list, so a list opens as it was left.
  const selections = signal(storedSelections(memory, name, untracked(() => filters.value)));
  /** The search text in force (the screen passes it on after a pause in typing). */
  const search = signal('');
  const order = signal<Order | undefined>(undefined);
  // Spec 001 section 2: a reload keeps the page size grown by Show more (for the browser session).
  const pageSize = signal(Math.max(PAGE_SIZE, Number(memory.get(pageSizeKey(name))) || PAGE_SIZE));
  const rows = signal<EntityRecord[] | null>(null);
  const count = signal<number | null>(null);
  /** The count stopped at the server's cap (issue 24): the list says "50 of 10,000+". */
  const countIsCapped = signal(false);
  const more = signal(false);
  const loading = signal(false);
  const selected = signal<ReadonlySet<string>>(new Set());
  /** The chart's picked bar as a condition on the list (spec 001 section 2: clicking a bar filters the list), or null. */
  const pick = signal<Filter | null>(null);

  /** The view's columns the entity has (dotted columns read a related record). */
  const columns = computed(() => (view.value?.body.columns ?? []).filter((c) => c.name.includes('.') || props.value.has(c.name)));
  const sortable = computed(() => columns.value.filter((c) => !c.name.includes('.')));
  const activeFilters = computed(() => filters.value.filter((f) => !isEmptySelection(effectiveSelection(f, selections.value[f.name]))).length);
  /**
   * Whether the user narrowed the list (issue 23 item 2): search text, or a quick filter with a
   * selection that Show all can clear (a mustSelect filter falls back to its default: not counted).
   */
  const filtered = computed(
    () =>
      search.value.trim() !== '' ||
      pick.value !== null ||
      filters.value.some((f) => !isEmptySelection(effectiveSelection(f, selections.value[f.name])) && isEmptySelection(effectiveSelection(f, null))),
  );
  /** Why the list shows no rows: nothing matches the user's filters, or there is nothing to show (null while loading or with rows). */
  const emptyBecause = computed((): 'filters' | 'nothing' | null => (rows.value?.length === 0 ? (filtered.value ? 'filters' : 'nothing') : null));
  const idsOnPage = computed(() => rows.value?.map((r) => String(r.id)) ?? []);
  const allSelected = computed(() => idsOnPage.value.length > 0 && idsOnPage.value.every((id) => selected.value.has(id)));

  // The view's standard commands (all of them when it lists none); a command's own permission string replaces the default.
  const listed = (cmd: string, fallback: () => boolean): boolean => {
    const commands = view.value?.body.commands;
    const c = commands ? commands.find((x) => x.kind === 'std' && x.name.toLowerCase() === cmd) : { kind: 'std' as const, name: cmd, permissions: undefined };
    return !!c && (c.permissions ? checkPermissionString(caller(), c.permissions) : fallback());
  };
  const canNew = computed(() => listed('new', () => checkPermissionString(caller(), commandPermission({ name: 'New' }, name))));
  const canDelete = computed(() => listed('delete', () => mayAccessSome(caller(), 'delete', name)));
  const canExport = computed(() => listed('export', () => mayAccessSome(caller(), 'read', name)));

  /**
   * The fetch the list runs now: the view's query with the quick filters, search, order and page
   * size, or why it returns nothing. Kanban lanes and charts derive their aggregate queries from it,
   * so every view mode shows the same records.
   */
  const currentRequest = (options: { withoutPick?: boolean; withoutFiltersOn?: string } = {}): { _tag: 'Fetch'; request: FetchRequest } | { _tag: 'NoResults' } => {
    const v = view.value;
    const e = entity.value;
    // A kanban board leaves out the quick filters on its lane field: the lanes are that filter (docs/ui.md "Kanban").
    const applied = options.withoutFiltersOn === undefined ? filters.value : filters.value.filter((f) => f.propertyName !== options.withoutFiltersOn);
    const quick = quickFiltersToFetch(applied, selections.value, { reference: now(), timeZone, entity: e, placeholders: { userid: caller().userId } });
    // Spec 001 section 2: a mandatory group without an active filter returns nothing.
    if (isLeft(quick) || quick.right._tag === 'NoResults') return { _tag: 'NoResults' };
    const request = listRequest(e, v, { search: searchFilter(e, search.value), order: order.value, pageSize: pageSize.value });
    const entityQuery = applyQuickFilterFragment(request.entity, quick.right.fragment);
    // The chart's own query asks without its pick: the chart keeps every bar while the list shows one.
    const p = options.withoutPick ? null : pick.value;
    const picked = p ? { ...entityQuery, filter: entityQuery.filter ? { type: 'and' as const, filters: [entityQuery.filter, p] } : p } : entityQuery;
    return { _tag: 'Fetch', request: { ...request, entity: picked } };
  };

  let seq = 0;
  /** Loads the first page of the query; an answer older than the latest request is dropped. */
  const load = async (): Promise<void> => {
    if (!view.value) return;
    const n = ++seq;
    const current = currentRequest();
    if (current._tag === 'NoResults') {
      batch(() => {
        rows.value = [];
        count.value = 0;
        more.value = false;
      });
      return;
    }
    loading.value = true;
    try {
      const res = await api.fetch(current.request);
      if (n !== seq) return;
      batch(() => {
        rows.value = res.records as EntityRecord[];
        count.value = res.count;
        countIsCapped.value = res.countIsCapped === true;
        more.value = res.moreRecords;
      });
    } catch (e) {
      if (n !== seq) return;
      rows.value = [];
      onLoadFailed?.(e);
    } finally {
      if (n === seq) loading.value = false;
    }
  };

  let refresh: ReturnType<typeof setTimeout> | undefined;
  /** A change on the server: the list reloads after a short pause (the page keeps its grown size). */
  const serverChanged = () => {
    clearTimeout(refresh);
    refresh = setTimeout(() => void load(), refreshDelayMs);
  };

  /**
   * Starts following the query: loads now and whenever the view, selections, search, order or
   * page size change, and remembers the selections. Returns the stop function.
   */
  const start = (): (() => void) => {
    const stopLoading = effect(() => {
      void [entity.value, filters.value, view.value, selections.value, search.value, order.value, pageSize.value, pick.value];
      // Show more appended the next rows itself and grew the page size: nothing to reload.
      if (appended) {
        appended = false;
        return;
      }
      untracked(() => void load());
    });
    const stopRemembering = effect(() => memory.set(selectionsKey(name), JSON.stringify(selections.value)));
    return () => {
      stopLoading();
      stopRemembering();
      clearTimeout(refresh);
      seq++;
    };
  };

  /** Set while Show more's own rows and page size land, so the page-size change does not reload. */
  let appended = false;
  /**
   * The next rows after the last one shown, when the list's order allows it (issue 24 keyset
   * paging: the 200th Show more costs what the first does, and rows never repeat or go missing
   * when others add records meanwhile). Undefined: the list reloads at the grown page size.
   */
  const keysetNext = (): FetchRequest | undefined => {
    const last = rows.value?.at(-1);
    const current = currentRequest();
    if (!last || !more.value || current._tag !== 'Fetch') return undefined;
    const e = entity.value;
    const request = current.request;
    const returned = request.entity.allattrs ? e.properties : e.properties.filter((p) => (request.entity.attributes ?? []).some((a) => a.attribute === p.logicalName));
    const orders = keysetOrders(e, request, returned);
    if (!orders || orders.length === 0) return undefined;
    return { ...request, page: 1, pageSize: PAGE_SIZE, count: false, after: keysetAfter(orders, last, primaryKeyOf(e)) };
  };
  const showMore = () => {
    const next = pageSize.value + PAGE_SIZE;
    // Spec 001 section 2: the grown size is remembered, so a reload shows as many rows.
    memory.set(pageSizeKey(name), String(next));
    // While a load runs, its rows are not the ones to go on from: reload at the grown size instead.
    const request = loading.value ? undefined : keysetNext();
    if (!request) {
      pageSize.value = next;
      return;
    }
    const n = ++seq;
    loading.value = true;
    void api
      .fetch(request)
      .then((res) => {
        if (n !== seq) return;
        batch(() => {
          const shown = new Set((rows.value ?? []).map((r) => String(r.id)));
          rows.value = [...(rows.value ?? []), ...(res.records as EntityRecord[]).filter((r) => !shown.has(String(r.id)))];
          more.value = res.moreRecords;
          appended = true;
          pageSize.value = next;
        });
      })
      .catch((e: unknown) => {
        if (n === seq) onLoadFailed?.(e);
      })
      .finally(() => {
        if (n === seq) loading.value = false;
      });
  };
  /** Spec 001 section 2: a reload shows at least as many rows as were shown (rows added in the list's edit mode). */
  const keepShown = (shown: number) => {
    if (shown <= pageSize.value) return;
    memory.set(pageSizeKey(name), String(shown));
    pageSize.value = shown;
  };

  const select = (patch: Record<string, QuickFilterSelection>) => {
    selections.value = { ...selections.value, ...patch };
  };
  /** Show all (issue 23 item 2): clears the search and every quick filter that can be cleared; the list reloads once. */
  const clearFilters = () => {
    batch(() => {
      search.value = '';
      selections.value = Object.fromEntries(filters.value.map((f) => [f.name, null]));
      pick.value = null;
    });
  };
  /** Sort by a column; the same column again turns the direction. */
  const sortBy = (attribute: string) => {
    const sorted = order.value?.attribute === attribute;
    order.value = { attribute, descending: sorted ? !order.value?.descending : false };
  };
  const toggle = (id: string) => {
    const next = new Set(selected.value);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    selected.value = next;
  };
  const toggleAll = () => {
    selected.value = allSelected.value ? new Set() : new Set(idsOnPage.value);
  };

  /** Deletes the selected records in one batch (after the screen's question), each with its loaded version; then reloads. */
  const deleteSelected = async (): Promise<DeleteResult> => {
    const ids = [...selected.value];
    try {
      const results = await api.executeMultiple(
        ids.map((id) => ({ operation: 'delete', name, object: { id, versionnumber: rows.value?.find((r) => r.id === id)?.versionnumber ?? undefined } })),
      );
      selected.value = new Set();
      await load();
      return { _tag: 'Deleted', errors: results.flatMap((r) => (r.error ? [r.error] : [])) };
    } catch (error) {
      return { _tag: 'Failed', error };
    }
  };

  return {
    entity,
    views,
    filters,
    viewName,
    view,
    modes,
    mode,
    /** Switches the view mode (one of `modes`). */
    setMode: (m: ViewModeName) => {
      // A chart's picked bar filters the list only while the chart shows it.
      batch(() => {
        pickedMode.value = { view: view.value?.name ?? '', mode: m };
        pick.value = null;
      });
    },
    currentRequest,
    pick: pick as ReadonlySignal<Filter | null>,
    /** Filters the list by a chart's picked bar (null clears it). */
    setPick: (f: Filter | null) => (pick.value = f),
    selections: selections as ReadonlySignal<Record<string, QuickFilterSelection>>,
    search,
    order,
    pageSize: pageSize as ReadonlySignal<number>,
    rows: rows as ReadonlySignal<EntityRecord[] | null>,
    count: count as ReadonlySignal<number | null>,
    countIsCapped: countIsCapped as ReadonlySignal<boolean>,
    more: more as ReadonlySignal<boolean>,
    loading: loading as ReadonlySignal<boolean>,
    selected: selected as ReadonlySignal<ReadonlySet<string>>,
    columns,
    sortable,
    activeFilters,
    filtered,
    emptyBecause,
    allSelected,
    canNew,
    canDelete,
    canExport,
    start,
    load,
    serverChanged,
    showMore,
    keepShown,
    select,
    clearFilters,
    sortBy,
    toggle,
    toggleAll,
    deleteSelected,
  };
};
