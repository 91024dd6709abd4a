import { afterEach, describe, expect, it, vi } from 'vitest';
import { signal } from '@preact/signals-react';
import type { Entity, FetchRequest, QuickFilter } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, PAGE_SIZE, pageSizeKey, selectionsKey, type ListMemory } from './list-model.js';
import { viewsOf } from './list-query.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'city', displayName: 'City', type: 'String' },
    { logicalName: 'statuscode', displayName: 'Status', type: 'Integer', options: [{ value: 1, label: 'Active' }, { value: 2, label: 'Closed' }] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const status: QuickFilter = { name: 'status', type: 'options', propertyName: 'statuscode' };

const memoryOf = (): ListMemory & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};

/** Resolves once the model is idle again (every load settled). */
const settled = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

const setup = async (n = 3, options: { filters?: QuickFilter[]; memory?: ListMemory } = {}) => {
  const api = new StoreClient([account], fullCaller(ME, ['account']));
  for (let i = 0; i < n; i++) await api.update('create', 'account', { name: `Account ${String(i).padStart(3, '0')}`, city: i % 2 ? 'Brno' : 'Praha', statuscode: i % 3 === 0 ? 2 : 1 });
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const failures: unknown[] = [];
  const memory = options.memory ?? memoryOf();
  const model = listModel({ api, entity: () => account, views: () => viewsOf(account, [], () => undefined), filters: () => options.filters ?? [status], caller: () => api.caller, memory, refreshDelayMs: 20, onLoadFailed: (e) => failures.push(e) });
  const stop = model.start();
  await settled();
  return { api, model, stop, requests, memory, failures };
};

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
  vi.useRealTimers();
});
const started = async (...args: Parameters<typeof setup>) => {
  const s = await setup(...args);
  stops.push(s.stop);
  return s;
};

describe('list model (spec 001 section 2: the list screen)', () => {
  it('loads the first page of 50 with the count', async () => {
    const { model, requests } = await started(60);
    expect(requests).toHaveLength(1);
    expect(requests[0].pageSize).toBe(PAGE_SIZE);
    expect(model.rows.value).toHaveLength(50);
    expect(model.count.value).toBe(60);
    expect(model.more.value).toBe(true);
  });

  it('Show more grows the page by 50 and remembers it; a list reload keeps the page size grown by Show more', async () => {
    const { api, model, requests, memory } = await started(60);
    model.showMore();
    await settled();
    expect(model.rows.value).toHaveLength(60);
    expect(model.more.value).toBe(false);
    expect(memory.get(pageSizeKey('account'))).toBe('100');
    model.serverChanged();
    await new Promise((r) => setTimeout(r, 40));
    await settled();
    expect(requests.at(-1)?.pageSize).toBe(100);
    // the same list opened again in this browser session starts at the grown size
    const again = listModel({ api, entity: () => account, views: () => viewsOf(account, [], () => undefined), filters: () => [status], caller: () => api.caller, memory });
    expect(again.pageSize.value).toBe(100);
  });

  it('Show more asks for the 50 rows after the last one shown (issue 24 keyset paging), in order, none twice', async () => {
    const { model, requests } = await started(130);
    model.showMore();
    await settled();
    model.showMore();
    await settled();
    const [, second, third] = requests;
    expect(second.pageSize).toBe(PAGE_SIZE);
    expect(second.after?.[second.after.length - 1]).toBe(model.rows.value?.[49].id);
    expect(third.after?.[third.after.length - 1]).toBe(model.rows.value?.[99].id);
    const names = (model.rows.value ?? []).map((r) => String(r.name));
    expect(names).toHaveLength(130);
    expect(new Set(names).size).toBe(130);
    expect(names).toEqual([...names].sort());
    expect(model.more.value).toBe(false);
    expect(model.pageSize.value).toBe(150);
  });

  it('a record added before Show more is neither repeated nor skipped (the rows go on from the last one shown)', async () => {
    const { api, model } = await started(60);
    await api.update('create', 'account', { name: 'Account 000a', city: 'Brno', statuscode: 1 });
    model.showMore();
    await settled();
    const names = (model.rows.value ?? []).map((r) => String(r.name));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(60);
  });

  it('changing the sort, the search or a quick filter reloads with it', async () => {
    const { model, requests } = await started(6);
    model.sortBy('city');
    await settled();
    expect(requests.at(-1)?.entity.orders).toEqual([{ attribute: 'city', descending: false }]);
    model.sortBy('city');
    await settled();
    expect(requests.at(-1)?.entity.orders).toEqual([{ attribute: 'city', descending: true }]);
    model.search.value = '004';
    await settled();
    expect(model.rows.value?.map((r) => r.name)).toEqual(['Account 004']);
    model.search.value = '';
    model.select({ status: 2 });
    await settled();
    expect(model.rows.value?.map((r) => r.name)).toEqual(['Account 000', 'Account 003']);
    expect(model.count.value).toBe(2);
    expect(model.activeFilters.value).toBe(1);
  });

  it('quick-filter selections are remembered per list for the browser session', async () => {
    const memory = memoryOf();
    const { model } = await started(3, { memory });
    model.select({ status: 1 });
    await settled();
    expect(JSON.parse(memory.get(selectionsKey('account'))!)).toEqual({ status: 1 });
    const { model: reopened } = await started(3, { memory });
    expect(reopened.selections.value).toEqual({ status: 1 });
  });

  it('a mandatory group without an active filter returns nothing, without asking the server', async () => {
    const { model, requests } = await started(3, { filters: [{ ...status, mandatoryGroup: 'g' }] });
    expect(requests).toHaveLength(0);
    expect(model.rows.value).toEqual([]);
    expect(model.count.value).toBe(0);
    model.select({ status: 1 });
    await settled();
    expect(requests).toHaveLength(1);
    expect(model.rows.value?.length).toBeGreaterThan(0);
  });

  it('issue 23 item 2: an empty list without filters has nothing to show', async () => {
    const { model } = await started(0, { filters: [] });
    expect(model.rows.value).toEqual([]);
    expect(model.filtered.value).toBe(false);
    expect(model.emptyBecause.value).toBe('nothing');
  });

  it('issue 23 item 2: a list emptied by a quick filter that starts on (like Mine) says the filters caused it; Show all clears them and shows the records', async () => {
    const memory = memoryOf();
    const { model, requests } = await started(3, { filters: [{ ...status, initialOption: 9 }], memory });
    expect(model.rows.value).toEqual([]);
    expect(model.emptyBecause.value).toBe('filters');
    const before = requests.length;
    model.clearFilters();
    await settled();
    expect(requests.length).toBe(before + 1);
    expect(model.selections.value).toEqual({ status: null });
    expect(model.rows.value).toHaveLength(3);
    expect(model.emptyBecause.value).toBeNull();
    // Cleared for the browser session: the list opens again showing all.
    expect(JSON.parse(memory.get(selectionsKey('account'))!)).toEqual({ status: null });
  });

  it('issue 23 item 2: a search without matches counts as a filter, and Show all clears the search too', async () => {
    const { model } = await started(3, { filters: [] });
    model.search.value = 'no such name';
    await settled();
    expect(model.emptyBecause.value).toBe('filters');
    model.clearFilters();
    await settled();
    expect(model.search.value).toBe('');
    expect(model.rows.value).toHaveLength(3);
  });

  it('issue 23 item 2: a mustSelect filter on its default is not a filter Show all could clear', async () => {
    const { model } = await started(3, { filters: [{ ...status, mustSelect: true, defaultOption: 9 }] });
    expect(model.rows.value).toEqual([]);
    expect(model.activeFilters.value).toBe(1);
    expect(model.filtered.value).toBe(false);
    expect(model.emptyBecause.value).toBe('nothing');
  });

  it('select all takes the rows on the page; again clears; one row toggles', async () => {
    const { model } = await started(3);
    model.toggleAll();
    expect(model.selected.value.size).toBe(3);
    expect(model.allSelected.value).toBe(true);
    model.toggle(String(model.rows.value![0].id));
    expect(model.allSelected.value).toBe(false);
    model.toggleAll();
    expect(model.allSelected.value).toBe(true);
    model.toggleAll();
    expect(model.selected.value.size).toBe(0);
  });

  it('deleting several records sends one batch with each loaded version, clears the selection and reloads', async () => {
    const { api, model } = await started(3);
    const [a, b] = model.rows.value!;
    model.toggle(String(a.id));
    model.toggle(String(b.id));
    const r = await model.deleteSelected();
    expect(r).toEqual({ _tag: 'Deleted', errors: [] });
    expect(model.selected.value.size).toBe(0);
    expect(model.rows.value).toHaveLength(1);
    expect(await api.stored('account', String(a.id))).toBeUndefined();
  });

  it('a burst of server changes reloads once, after the pause', async () => {
    const { model, requests } = await started(3);
    const before = requests.length;
    model.serverChanged();
    model.serverChanged();
    model.serverChanged();
    await new Promise((r) => setTimeout(r, 40));
    await settled();
    expect(requests.length).toBe(before + 1);
  });

  it('an older answer arriving after a newer request is dropped', async () => {
    const { api, model } = await started(6);
    const fetch = api.fetch.bind(api);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    api.fetch = async (r) => {
      const res = await fetch(r);
      if (first) {
        first = false;
        await gate;
      }
      return res;
    };
    model.search.value = '001';
    await settled();
    model.search.value = '002';
    await settled();
    release();
    await settled();
    expect(model.rows.value?.map((r) => r.name)).toEqual(['Account 002']);
  });

  it('a failed load empties the rows and tells the screen', async () => {
    const { api, model, failures } = await started(3);
    api.fetch = async () => {
      throw new Error('down');
    };
    await model.load();
    expect(model.rows.value).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(model.loading.value).toBe(false);
  });

  it('a metadata refresh (new texts) reloads the list and keeps its sort and page size', async () => {
    const api = new StoreClient([account], fullCaller(ME, ['account']));
    await api.update('create', 'account', { name: 'A', city: 'Brno' });
    const meta = signal(account);
    const model = listModel({ api, entity: () => meta.value, views: () => viewsOf(meta.value, [], () => undefined), filters: () => [], caller: () => api.caller, memory: memoryOf() });
    stops.push(model.start());
    model.sortBy('city');
    model.showMore();
    await settled();
    const fetches = api.fetches;
    meta.value = { ...account, displayNamePlural: 'Účty' };
    await settled();
    expect(api.fetches).toBe(fetches + 1);
    expect(model.order.value).toEqual({ attribute: 'city', descending: false });
    expect(model.pageSize.value).toBe(100);
    expect(model.views.value[0].label).toBe('Účty');
  });

  it('New, Delete and Export follow the default permissions when the view lists no commands', async () => {
    const { model } = await started(1);
    expect([model.canNew.value, model.canDelete.value, model.canExport.value]).toEqual([true, true, true]);
    const readOnly = listModel({
      api: new StoreClient([account], fullCaller(ME, [])),
      entity: () => account,
      views: () => viewsOf(account, [], () => undefined),
      filters: () => [],
      caller: () => ({ ...fullCaller(ME, []), permissions: { permissions: { account: 0x0030 }, apps: [], owners: [], needsTeams: false } }),
      memory: memoryOf(),
    });
    expect([readOnly.canNew.value, readOnly.canDelete.value, readOnly.canExport.value]).toEqual([false, false, true]);
  });
});
