import { afterEach, describe, expect, it } from 'vitest';
import type { Entity, FetchRequest, InuViewRecord, QuickFilter } from '../core.js';
import { chartPalette, DEFAULT_CHART_COLOR, systemPack } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, type ListMemory } from '../list/list-model.js';
import { viewsOf } from '../list/list-query.js';
import { chartModel, defaultChart, savedChartsOf } from './chart-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const lead: Entity = {
  logicalName: 'lead',
  displayName: 'Lead',
  displayNamePlural: 'Leads',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'estimatedvalue', displayName: 'Estimated Value', type: 'Money' },
    { logicalName: 'leadsource', displayName: 'Lead Source', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Web' }, { value: 2, label: 'Phone' }, { value: 3, label: 'Fair' }] },
    { logicalName: 'closedate', displayName: 'Close Date', type: 'DateTime' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const inuView = systemPack().entities.find((e) => e.logicalName === 'inu_view') as Entity;
const bySource: InuViewRecord = {
  name: 'bysource',
  kind: 'chart',
  objectname: 'lead',
  label: 'Leads by Source',
  body: JSON.stringify({ type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count' }, { aggregateField: 'estimatedvalue', aggregateMethod: 'sum', color: '#ef6c00' }], groups: [{ field: 'leadsource', method: 'column' }] }),
};
const sourceFilter: QuickFilter = { name: 'source', type: 'options', propertyName: 'leadsource' };

const memory = (): ListMemory => {
  const m = new Map<string, string>();
  return { get: (k) => m.get(k) ?? null, set: (k, v) => void m.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 8; i++) await new Promise((r) => setTimeout(r, 0));
};

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

const setup = async (gui: InuViewRecord[] = [bySource]) => {
  const api = new StoreClient([lead, inuView], fullCaller(ME, ['lead', 'inu_view']));
  const sources = [1, 1, 2, 1, 3, 2, null];
  for (const [i, s] of sources.entries()) await api.update('create', 'lead', { name: `Lead ${i}`, estimatedvalue: 100 * (i + 1), leadsource: s, closedate: `2024-0${(i % 3) + 1}-15T10:00:00Z` });
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const list = listModel({ api, entity: () => lead, views: () => viewsOf(lead, [], () => undefined), filters: () => [sourceFilter], caller: () => api.caller, memory: memory(), refreshDelayMs: 5 });
  const chart = chartModel({ api, list, saved: () => savedChartsOf('lead', gui, (g) => JSON.parse(g.body)), caller: () => api.caller });
  stops.push(list.start(), chart.start());
  await settled();
  return { api, list, chart, requests };
};

const ready = (m: Awaited<ReturnType<typeof setup>>['chart']) => {
  const s = m.chart && m.state.value;
  if (s._tag !== 'Ready') throw new Error(`chart not ready: ${s._tag}`);
  return s.data;
};

describe('chart mode (spec 001 sections 2 and 9)', () => {
  it("opens the entity's first saved chart and aggregates in one query of the engine (count and sum by source)", async () => {
    const { chart, requests } = await setup();
    expect(chart.chosen.value).toBe('bysource');
    const aggregate = requests.filter((r) => r.entity.attributes?.some((a) => a.aggregate));
    expect(aggregate).toHaveLength(1);
    const d = ready(chart);
    expect(d.categories.map((c) => c.value)).toEqual([null, 1, 2, 3]);
    expect(d.lines.map((l) => l.values)).toEqual([
      [1, 3, 2, 1],
      [700, 100 + 200 + 400, 300 + 600, 500],
    ]);
    // Two series: the one without a colour takes the palette's, the other keeps its own.
    expect(d.lines.map((l) => l.color)).toEqual([chartPalette(2)[0], '#ef6c00']);
  });

  it("derives its query from the list's current request: a quick filter narrows the chart too", async () => {
    const { list, chart } = await setup();
    list.select({ source: [1, 2] });
    await settled();
    expect(ready(chart).categories.map((c) => c.value)).toEqual([1, 2]);
  });

  it('clicking a bar filters the list; clicking it again clears the filter', async () => {
    const { list, chart } = await setup();
    expect(list.count.value).toBe(7);
    chart.pickAt(1); // source 1 (Web)
    await settled();
    expect(list.count.value).toBe(3);
    expect(list.rows.value?.map((r) => r.leadsource)).toEqual([1, 1, 1]);
    expect(chart.pickedIndex.value).toBe(1);
    // The chart keeps all its bars while the list shows one.
    expect(ready(chart).categories).toHaveLength(4);
    chart.pickAt(1);
    await settled();
    expect(list.count.value).toBe(7);
    expect(chart.pickedIndex.value).toBe(-1);
  });

  it('a picked empty bar lists the records without a value; a month bar lists that month', async () => {
    const { list, chart } = await setup();
    chart.pickAt(0);
    await settled();
    expect(list.count.value).toBe(1);
    chart.edit({ xField: 'closedate' });
    await settled();
    expect(chart.chart.value?.groups[0]).toEqual({ field: 'closedate', method: 'month' });
    expect(list.count.value).toBe(7); // a new X drops the old pick
    expect(ready(chart).categories.map((c) => c.key)).toEqual(['2024-01', '2024-02', '2024-03']);
    chart.pickAt(1);
    await settled();
    expect(list.count.value).toBe(2);
  });

  it('Show all and a mode switch clear the pick', async () => {
    const { list, chart } = await setup();
    chart.pickAt(2);
    await settled();
    expect(list.count.value).toBe(2);
    list.clearFilters();
    await settled();
    expect(list.count.value).toBe(7);
    expect(chart.pickedIndex.value).toBe(-1);
  });

  it('the pick goes with the chart: when the chart leaves the screen the list is whole again', async () => {
    const api = new StoreClient([lead, inuView], fullCaller(ME, ['lead', 'inu_view']));
    for (const s of [1, 2, 2]) await api.update('create', 'lead', { name: `L${s}`, leadsource: s });
    const list = listModel({ api, entity: () => lead, views: () => viewsOf(lead, [], () => undefined), filters: () => [], caller: () => api.caller, memory: memory() });
    const chart = chartModel({ api, list, saved: () => savedChartsOf('lead', [bySource], (g) => JSON.parse(g.body)), caller: () => api.caller });
    stops.push(list.start());
    const stopChart = chart.start();
    await settled();
    chart.pickAt(0);
    await settled();
    expect(list.count.value).toBe(1);
    stopChart();
    await settled();
    expect(list.pick.value).toBeNull();
    expect(list.count.value).toBe(3);
  });

  it('the pickers: Y field and aggregate (only those that apply), X field and grouping, bar or line', async () => {
    const { chart } = await setup([]);
    expect(chart.chart.value).toEqual(defaultChart(lead));
    expect(chart.chart.value?.groups[0].field).toBe('leadsource');
    chart.edit({ yField: 'estimatedvalue', aggregate: 'average', type: 'line' });
    await settled();
    expect(chart.aggregates.value).toEqual(['count', 'countdistinct', 'min', 'max', 'sum', 'average']);
    expect(chart.chart.value).toEqual({ type: 'line', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'average' }], groups: [{ field: 'leadsource', method: 'column' }] });
    expect(ready(chart).lines[0].values).toEqual([700, (100 + 200 + 400) / 3, (300 + 600) / 2, 500]);
    expect(ready(chart).lines[0].color).toBe(DEFAULT_CHART_COLOR);
    chart.edit({ yField: 'name' });
    expect(chart.chart.value?.series[0].aggregateMethod).toBe('count');
    expect(chart.aggregates.value).toEqual(['count', 'countdistinct']);
    chart.edit({ xField: 'closedate', grouping: 'quarter' });
    expect(chart.groupings.value).toEqual(['column', 'year', 'quarter', 'month', 'week', 'day']);
    await settled();
    expect(ready(chart).categories.map((c) => c.key)).toEqual(['2024-Q1']);
  });

  it('bar or line keeps a saved chart whole; a new Y or X makes it the one series and group the pickers show', async () => {
    const { chart } = await setup();
    chart.edit({ type: 'line' });
    expect(chart.chart.value?.series).toHaveLength(2);
    expect(chart.chosen.value).toBe('');
    chart.edit({ xField: 'closedate' });
    expect(chart.chart.value).toEqual({ type: 'line', series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'closedate', method: 'month' }] });
  });

  it('saves the chart as an inu_view record of kind chart named from the Y and X display names without spaces', async () => {
    const { api, chart } = await setup([]);
    chart.edit({ yField: 'estimatedvalue', aggregate: 'sum' });
    const r = await chart.save();
    expect(r).toEqual({ _tag: 'Saved', name: 'EstimatedValueLeadSource' });
    const stored = await api.fetch({ entity: { name: 'inu_view', allattrs: true } });
    expect(stored.records).toHaveLength(1);
    const rec = stored.records[0];
    expect(rec).toMatchObject({ name: 'EstimatedValueLeadSource', kind: 'chart', objectname: 'lead' });
    expect(JSON.parse(String(rec.body))).toEqual({ type: 'bar', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'sum' }], groups: [{ field: 'leadsource', method: 'column' }] });
    expect(chart.saved.value.map((s) => s.name)).toEqual(['EstimatedValueLeadSource']);
    expect(chart.chosen.value).toBe('EstimatedValueLeadSource');
    // The same chart again takes the next free name.
    expect(await chart.save()).toEqual({ _tag: 'Saved', name: 'EstimatedValueLeadSource2' });
  });

  it('saving needs create on inu_view', async () => {
    const api = new StoreClient([lead, inuView], fullCaller(ME, ['lead']));
    const list = listModel({ api, entity: () => lead, views: () => viewsOf(lead, [], () => undefined), filters: () => [], caller: () => api.caller, memory: memory() });
    const chart = chartModel({ api, list, saved: () => [], caller: () => api.caller });
    expect(chart.canSave.value).toBe(false);
  });

  it('a failing query is a Failed state, not an exception', async () => {
    const { chart } = await setup([{ ...bySource, body: JSON.stringify({ type: 'bar', series: [{ aggregateField: 'nope', aggregateMethod: 'count' }], groups: [{ field: 'leadsource', method: 'column' }] }) }]);
    expect(chart.state.value._tag).toBe('Failed');
  });
});
