import { afterEach, describe, expect, it } from 'vitest';
import type { Dashboard, Entity, FetchRequest } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { dashboardModel, selectionsKey, type DashboardMemory } from './dashboard-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '1f8fad5b-d9cb-469f-a165-70867728950e';
const opportunity: Entity = {
  logicalName: 'opportunity',
  displayName: 'Opportunity',
  displayNamePlural: 'Opportunities',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'estimatedvalue', displayName: 'Value', type: 'Money' },
    { logicalName: 'estimatedclosedate', displayName: 'Close date', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'outcome', displayName: 'Outcome', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Open' }, { value: 2, label: 'Won' }, { value: 3, label: 'Lost' }] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const invoice: Entity = {
  logicalName: 'invoice',
  displayName: 'Invoice',
  displayNamePlural: 'Invoices',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'totalamount', displayName: 'Total', type: 'Money' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }, { logicalName: 'name', displayName: 'Name', type: 'String' }] };
const entities: Record<string, Entity> = { opportunity, invoice, systemuser };

/** The demo's Sales dashboard in small: a title, a period and an owner filter, a number, a gauge (won over all), a chart and a grid of another entity. */
const sales: Dashboard = {
  gridTemplate: 'repeat(4, 1fr)',
  objects: [
    { kind: 'label', name: 'title', label: 'Sales overview' },
    { kind: 'filter', name: 'period', objectname: 'opportunity', propertyName: 'estimatedclosedate', initialValue: 'this-year' },
    { kind: 'filter', name: 'owner', objectname: 'opportunity', propertyName: 'ownerid' },
    { kind: 'filter', name: 'named', objectname: 'opportunity', propertyName: 'name' },
    {
      kind: 'simplechart',
      name: 'openvalue',
      type: 'number',
      objectname: 'opportunity',
      query: { name: 'opportunity', attributes: [{ attribute: 'estimatedvalue', aggregate: 'sum', alias: 'value' }], filter: { conditions: [{ attribute: 'outcome', operator: 'eq', value: 1 }] } },
    },
    {
      kind: 'simplechart',
      name: 'winrate',
      type: 'gauge',
      objectname: 'opportunity',
      query: { name: 'opportunity', attributes: [{ attribute: 'id', aggregate: 'count', alias: 'n' }] },
      extraFetch: { filter: { conditions: [{ attribute: 'outcome', operator: 'eq', value: 2 }] } },
    },
    {
      kind: 'chart',
      name: 'byoutcome',
      type: 'bar',
      objectname: 'opportunity',
      chart: { type: 'bar', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'sum' }], groups: [{ field: 'outcome', method: 'column' }] },
    },
    { kind: 'grid', name: 'invoices', objectname: 'invoice', query: { name: 'invoice', attributes: [{ attribute: 'name' }, { attribute: 'totalamount' }], orders: [{ attribute: 'name' }] }, gridColumns: 'name totalamount', gridRows: '2' },
  ],
};

const memoryOf = (): DashboardMemory & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 8; i++) await new Promise((r) => setTimeout(r, 0));
};

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

const setup = async (dashboard: Dashboard = sales, memory = memoryOf()) => {
  const api = new StoreClient(Object.values(entities), fullCaller(ME, Object.keys(entities)));
  const rows = [
    { outcome: 1, estimatedvalue: 100, estimatedclosedate: '2026-12-01', ownerid: { id: ME, name: 'systemuser' } },
    { outcome: 1, estimatedvalue: 50, estimatedclosedate: '2027-02-01', ownerid: { id: ME, name: 'systemuser' } },
    { outcome: 2, estimatedvalue: 70, estimatedclosedate: '2026-05-01', ownerid: { id: OTHER, name: 'systemuser' } },
    { outcome: 3, estimatedvalue: 20, estimatedclosedate: '2026-06-01', ownerid: { id: ME, name: 'systemuser' } },
    { outcome: 2, estimatedvalue: 10, estimatedclosedate: '2025-06-01', ownerid: { id: ME, name: 'systemuser' } },
  ];
  for (const [i, r] of rows.entries()) await api.update('create', 'opportunity', { name: `O${i}`, ...r });
  for (const [i, total] of [300, 200, 100].entries()) await api.update('create', 'invoice', { name: `INV-${i}`, totalamount: total });
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const failures: string[][] = [];
  const model = dashboardModel({
    api,
    name: 'sales',
    dashboard: () => dashboard,
    entityOf: (n) => entities[n],
    caller: () => api.caller,
    memory,
    now: () => new Date('2026-11-24T10:00:00Z'),
    timeZone: 'Europe/Bratislava',
    onFailed: (f) => failures.push(f.map((x) => x.message)),
  });
  stops.push(model.start());
  await settled();
  return { api, model, requests, failures, memory };
};

describe('the dashboard model (spec 000 section 2, issue 13 section 4)', () => {
  it('starts from the filters\' initialValue and shows figures aggregated by the query engine', async () => {
    const { model, requests, failures } = await setup();
    expect(failures).toEqual([]);
    expect(model.selections.value).toEqual({ period: 'this-year', owner: null, named: null });
    const s = model.states.value;
    // Open closing this year: 100 (the 50 closes in 2027).
    expect(s.openvalue).toMatchObject({ _tag: 'Number', value: 100 });
    expect(s.openvalue._tag === 'Number' && s.openvalue.property?.logicalName).toBe('estimatedvalue');
    // Won over all of those closing this year: 1 of 3.
    expect(s.winrate).toMatchObject({ _tag: 'Gauge', first: 1, second: 3 });
    expect(s.winrate._tag === 'Gauge' && s.winrate.percent).toBeCloseTo(100 / 3);
    expect(s.byoutcome._tag).toBe('Chart');
    if (s.byoutcome._tag === 'Chart') {
      expect(s.byoutcome.data.categories.map((c) => c.value)).toEqual([1, 2, 3]);
      expect(s.byoutcome.data.lines[0].values).toEqual([100, 70, 20]);
    }
    expect(s.invoices).toMatchObject({ _tag: 'Grid', entity: 'invoice', columns: ['name', 'totalamount'], count: 3 });
    expect(s.invoices._tag === 'Grid' && s.invoices.rows.map((r) => r.name)).toEqual(['INV-0', 'INV-1']);
    expect(s.title).toEqual({ _tag: 'None', reason: 'label' });
    // Every figure came from an aggregate query: no request read the opportunity rows themselves.
    for (const r of requests.filter((x) => x.entity.name === 'opportunity')) expect(r.entity.attributes?.some((a) => a.aggregate !== undefined)).toBe(true);
  });

  it("a filter changes the figures of its entity's objects and reloads only them", async () => {
    const { model, requests } = await setup();
    const before = requests.length;
    model.select('owner', ME);
    await settled();
    const again = requests.slice(before);
    expect(again.every((r) => r.entity.name === 'opportunity')).toBe(true);
    expect(again.length).toBe(4); // number, gauge (part and whole), chart; not the invoice grid
    expect(model.states.value.winrate).toMatchObject({ first: 0, second: 2 });
    model.select('period', null);
    await settled();
    expect(model.states.value.openvalue).toMatchObject({ value: 150 });
    expect(model.states.value.winrate).toMatchObject({ first: 1, second: 4 });
    model.select('period', { from: '2026-05-01', to: '2026-05-31' });
    model.select('owner', null);
    await settled();
    expect(model.states.value.winrate).toMatchObject({ first: 1, second: 1, percent: 100 });
  });

  it('remembers the selections for the browser session', async () => {
    const memory = memoryOf();
    const first = await setup(sales, memory);
    first.model.select('period', 'previous-year');
    await settled();
    expect(JSON.parse(memory.map.get(selectionsKey('sales')) ?? '{}')).toMatchObject({ period: 'previous-year' });
    const second = await setup(sales, memory);
    expect(second.model.selections.value.period).toBe('previous-year');
    expect(second.model.states.value.winrate).toMatchObject({ first: 1, second: 1 });
  });

  it('a query failure is reported once with its message; the other objects still show', async () => {
    const broken: Dashboard = {
      objects: [
        ...sales.objects,
        { kind: 'simplechart', name: 'bad', type: 'number', query: { name: 'opportunity', attributes: [{ attribute: 'nosuchfield', aggregate: 'sum' }] } },
        { kind: 'grid', name: 'bad2', query: { name: 'nosuchentity' } },
      ],
    };
    const { model, failures } = await setup(broken);
    expect(failures).toHaveLength(1);
    expect(failures[0].join('\n')).toContain('Field not found:opportunity.nosuchfield');
    expect(failures[0].join('\n')).toContain('No Object:nosuchentity');
    expect(model.states.value.bad).toMatchObject({ _tag: 'Failed' });
    expect(model.states.value.openvalue).toMatchObject({ _tag: 'Number', value: 100 });
    // Refresh tries again, and says it again.
    await model.refresh();
    expect(failures).toHaveLength(2);
  });

  it('a change on the server reloads the objects of that entity', async () => {
    const { api, model, requests } = await setup();
    await api.update('create', 'invoice', { name: 'INV-A', totalamount: 1 });
    const before = requests.length;
    await model.serverChanged('invoice');
    expect(requests.slice(before).map((r) => r.entity.name)).toEqual(['invoice']);
    expect(model.states.value.invoices).toMatchObject({ count: 4 });
    expect(model.entities.value.sort()).toEqual(['invoice', 'opportunity']);
  });
});
