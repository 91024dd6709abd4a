import { afterEach, describe, expect, it } from 'vitest';
import type { Caller, Entity, FetchRequest, QuickFilter } from '../core.js';
import { packMask, LANE_COUNT_KEY } from '../core.js';
import { ServerError } from '../api/client.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, type ListMemory } from '../list/list-model.js';
import type { NamedView } from '../list/list-query.js';
import { kanbanModel } from './kanban-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const lead: Entity = {
  logicalName: 'lead',
  displayName: 'Lead',
  displayNamePlural: 'Leads',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'companyname', displayName: 'Company', type: 'String' },
    {
      logicalName: 'status',
      displayName: 'Lead Status',
      type: 'Integer',
      flags: ['OptionSet', 'Required'],
      richOptions: [
        { value: 1, label: 'New' },
        { value: 2, label: 'Contacted' },
        { value: 3, label: 'Qualified' },
      ],
    },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }, { logicalName: 'name', displayName: 'Name', type: 'String' }] };
const board: NamedView = {
  name: 'board',
  label: 'Lead Board',
  body: { query: { name: 'lead', orders: [{ attribute: 'name' }] }, columns: [{ name: 'name' }, { name: 'companyname' }], viewMode: 'kanban', kanbanField: 'status' },
};

const memory = (): ListMemory => {
  const map = new Map<string, string>();
  return { get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 8; i++) await new Promise((r) => setTimeout(r, 0));
};

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

/** A board over leads in the core's in-memory store; `statuses` are the leads' lanes, each owned by `owners[i]` (default me). */
const setup = async (statuses: number[], options: { caller?: Caller; view?: NamedView; owners?: Array<'me' | 'other'>; pageSize?: number; filters?: QuickFilter[] } = {}) => {
  const api = new StoreClient([lead, systemuser], fullCaller(ME, ['lead', 'systemuser']));
  const other = await api.update('create', 'systemuser', { name: 'Other' });
  for (const [i, s] of statuses.entries()) {
    await api.update('create', 'lead', { name: `Lead ${String(i).padStart(2, '0')}`, companyname: i % 2 ? 'Acme' : 'Zed', status: s, ownerid: { id: options.owners?.[i] === 'other' ? other : ME, name: 'systemuser' } });
  }
  const caller = options.caller ?? api.caller;
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const list = listModel({ api: { fetch: api.fetch, executeMultiple: api.executeMultiple.bind(api) }, entity: () => lead, views: () => [options.view ?? board], filters: () => options.filters ?? [], caller: () => caller, memory: memory() });
  const model = kanbanModel({ api, list, caller: () => caller, pageSize: options.pageSize ?? 25, refreshDelayMs: 10 });
  stops.push(model.start());
  await settled();
  requests.length = 0;
  return { api, list, model, requests };
};

const lanesOf = (m: ReturnType<typeof kanbanModel>) => m.lanes.value?.map((l) => [l.label, l.count, l.cards.map((c) => c.name)]);
const idOf = async (api: StoreClient, name: string) => {
  const r = await api.fetch({ entity: { name: 'lead', attributes: [{ attribute: 'id' }], filter: { conditions: [{ attribute: 'name', operator: 'eq', value: name }] } } });
  return String(r.records[0].id);
};

describe('kanban model (spec 001 section 2: cards in lanes of the status field)', () => {
  it('shows a lane per option with its count from one aggregate query, and each lane its cards', async () => {
    const { model } = await setup([1, 2, 1, 3, 1]);
    expect(lanesOf(model)).toEqual([
      ['New', 3, ['Lead 00', 'Lead 02', 'Lead 04']],
      ['Contacted', 1, ['Lead 01']],
      ['Qualified', 1, ['Lead 03']],
    ]);
    expect(model.total.value).toBe(5);
  });

  it('derives its queries from the list: a search narrows the counts and the cards', async () => {
    const { list, model, requests } = await setup([1, 2, 1, 3, 1]);
    list.search.value = 'Lead 0';
    await settled();
    expect(requests[0].entity.attributes?.some((a) => a.alias === LANE_COUNT_KEY)).toBe(true);
    expect(JSON.stringify(requests[0].entity.filter)).toContain('%Lead 0%');
    list.search.value = 'Lead 01';
    await settled();
    expect(lanesOf(model)).toEqual([
      ['New', 0, []],
      ['Contacted', 1, ['Lead 01']],
      ['Qualified', 0, []],
    ]);
  });

  it('leaves out a quick filter on the lane field (the lanes are that filter; the list keeps it)', async () => {
    const status: QuickFilter = { name: 'status', type: 'options', propertyName: 'status', mustSelect: true, defaultOption: 1 };
    const { list, model } = await setup([1, 2, 3], { filters: [status] });
    expect(model.lanes.value?.map((l) => l.count)).toEqual([1, 1, 1]);
    const listed = list.currentRequest();
    expect(listed._tag === 'Fetch' && JSON.stringify(listed.request.entity.filter)).toContain('"status"');
  });

  it('a lane loads a page of cards, Show more adds a page, and a reload keeps the lane grown', async () => {
    const { model, api } = await setup([1, 1, 1, 1, 1, 2], { pageSize: 2 });
    expect(model.lanes.value?.[0]).toMatchObject({ count: 5, more: true });
    expect(model.lanes.value?.[0].cards).toHaveLength(2);
    await model.showMore('1');
    expect(model.lanes.value?.[0].cards.map((c) => c.name)).toEqual(['Lead 00', 'Lead 01', 'Lead 02', 'Lead 03']);
    await api.update('create', 'lead', { name: 'Lead 99', status: 2 });
    await model.load();
    expect(model.lanes.value?.[0].cards).toHaveLength(4);
    expect(model.lanes.value?.[1].count).toBe(2);
  });

  it('moving a card sets the field to the lane value with the version check; the card moves before the save answers', async () => {
    const { model, api } = await setup([1, 2]);
    const id = await idOf(api, 'Lead 00');
    const loaded = model.lanes.value?.[0].cards[0];
    const saving = model.move(id, '3');
    // Optimistic: already in Qualified, its save under way (not draggable meanwhile).
    expect(lanesOf(model)?.map((l) => l[1])).toEqual([0, 1, 1]);
    expect(model.saving.value.has(id)).toBe(true);
    expect(await saving).toBe('Moved');
    expect(api.calls.at(-1)).toEqual({ operation: 'update', name: 'lead', object: { id, versionnumber: loaded?.versionnumber, status: 3 } });
    expect((await api.stored('lead', id))?.status).toBe(3);
    // The card was read again: its new version, so a second move passes the version check.
    expect(model.lanes.value?.[2].cards[0].versionnumber).toBe((await api.stored('lead', id))?.versionnumber);
    expect(await model.move(id, '2')).toBe('Moved');
    expect(lanesOf(model)).toEqual([
      ['New', 0, []],
      ['Contacted', 2, ['Lead 00', 'Lead 01']],
      ['Qualified', 0, []],
    ]);
  });

  it('a save that fails (ERR_8001: changed by someone else) puts the card back where it was and keeps the error', async () => {
    const { model, api } = await setup([1, 1, 2]);
    const id = await idOf(api, 'Lead 01');
    await api.otherUserEdits('lead', { id, companyname: 'Changed elsewhere' });
    expect(await model.move(id, '3')).toBe('Failed');
    expect(lanesOf(model)).toEqual([
      ['New', 2, ['Lead 00', 'Lead 01']],
      ['Contacted', 1, ['Lead 02']],
      ['Qualified', 0, []],
    ]);
    const failure = model.failure.value;
    expect(failure?.title).toBe('Lead 01');
    expect(failure?.error).toBeInstanceOf(ServerError);
    expect((failure?.error as ServerError).code).toBe('ERR_8001');
    // The card now holds the server's record (its newer version): moving it again works.
    expect(model.lanes.value?.[0].cards[1].companyname).toBe('Changed elsewhere');
    expect(await model.move(id, '3')).toBe('Moved');
    expect(model.failure.value).toBeNull();
  });

  it('a user without update permission on a card cannot move it (no targets, no save)', async () => {
    const reader: Caller = { userId: ME, teams: [], permissions: { permissions: { lead: packMask({ create: 0, read: 3, update: 1, delete: 0 }) }, apps: [], owners: [], needsTeams: false } };
    const { model, api } = await setup([1, 1], { caller: reader, owners: ['me', 'other'] });
    const [mine, theirs] = model.lanes.value?.[0].cards ?? [];
    expect([model.canMove(mine), model.canMove(theirs)]).toEqual([true, false]);
    const calls = api.calls.length;
    expect(await model.move(String(theirs.id), '2')).toBe('Refused');
    expect(api.calls.length).toBe(calls);
    expect(model.targetsOf(mine).map((l) => l.label)).toEqual(['Contacted', 'Qualified']);
  });

  it('a view whose lane field is no option set shows no board and asks nothing', async () => {
    const { model, requests } = await setup([1], { view: { ...board, body: { ...board.body, kanbanField: 'companyname' } } });
    expect(model.field.value).toEqual({ _tag: 'Left', left: { _tag: 'NotOptionSet', field: 'companyname' } });
    await model.load();
    expect(requests).toHaveLength(0);
    expect(model.lanes.value).toBeNull();
  });
});
