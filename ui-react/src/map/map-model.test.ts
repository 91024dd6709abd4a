import { afterEach, describe, expect, it } from 'vitest';
import type { Entity, FetchRequest } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, type ListMemory } from '../list/list-model.js';
import type { NamedView } from '../list/list-query.js';
import { mapModel, spreadOffsets } from './map-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const site: Entity = {
  logicalName: 'site',
  displayName: 'Site',
  displayNamePlural: 'Sites',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'lat', displayName: 'Latitude', type: 'Float' },
    { logicalName: 'lon', displayName: 'Longitude', type: 'Float' },
  ],
};
const view: NamedView = { name: 'sites', label: 'Sites', body: { query: { name: 'site' }, columns: [{ name: 'name' }], viewMode: 'map', latitudeField: 'lat', longitudeField: 'lon' } };
const memory = (): ListMemory => {
  const map = new Map<string, string>();
  return { get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
};
let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

const setup = async (sites: Array<[string, number | null, number | null]>, body: Partial<NamedView['body']> = {}) => {
  const api = new StoreClient([site], fullCaller(ME, ['site']));
  for (const [name, lat, lon] of sites) await api.update('create', 'site', { name, lat, lon });
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const v = { ...view, body: { ...view.body, ...body } };
  const list = listModel({ api: { fetch: api.fetch, executeMultiple: api.executeMultiple.bind(api) }, entity: () => site, views: () => [v], filters: () => [], caller: () => api.caller, memory: memory() });
  const model = mapModel({ api, list, refreshDelayMs: 5 });
  stops.push(model.start());
  await settled();
  return { api, list, model, requests };
};

describe('map model (spec 001 section 2, view mode 1; issue 14)', () => {
  it('records with coordinates become markers; records without are left out by the query', async () => {
    const { model, requests } = await setup([
      ['Trnava', 48.377, 17.587],
      ['No place', null, null],
      ['Nitra', 48.31, 18.09],
    ]);
    expect(model.markers.value?.map((m) => m.record.name).sort()).toEqual(['Nitra', 'Trnava']);
    expect(model.count.value).toBe(2);
    expect(JSON.stringify(requests.at(-1)?.entity.filter)).toContain('not-null');
  });

  it("follows the list's search: a new search reloads the markers", async () => {
    const { list, model } = await setup([
      ['Trnava', 48.377, 17.587],
      ['Nitra', 48.31, 18.09],
    ]);
    list.search.value = 'Nit';
    await settled();
    expect(model.markers.value?.map((m) => m.record.name)).toEqual(['Nitra']);
  });

  it('a view whose coordinate field is not a number field names it and fetches nothing', async () => {
    const { model, requests } = await setup([['Trnava', 48.377, 17.587]], { latitudeField: 'name' });
    expect(model.fields.value).toEqual({ _tag: 'MissingField', field: 'name' });
    expect(requests.some((r) => r.pageSize === 1000)).toBe(false);
    expect(model.markers.value).toBeNull();
  });

  it('a failed load keeps the error for the view to show', async () => {
    const { api, model } = await setup([['Trnava', 48.377, 17.587]]);
    api.fetch = () => Promise.reject(new Error('offline'));
    await model.load();
    expect((model.loadError.value as Error).message).toBe('offline');
  });
});

describe('pins at the same point', () => {
  it('each of several records at one point is drawn apart (distinct offsets); a pin alone stays on its point', () => {
    const offsets = spreadOffsets([
      { lat: 48, lon: 17 },
      { lat: 48.5, lon: 17 },
      { lat: 48, lon: 17 },
      { lat: 48, lon: 17 },
    ]);
    expect(offsets[1]).toEqual([0, 0]);
    const shared = [offsets[0], offsets[2], offsets[3]].map((o) => o!.join());
    expect(new Set(shared).size).toBe(3);
  });
});
