import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import type { Dashboard, DashboardObject } from '../metadata/view.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { demoPack, systemPack } from '../packs/packs.js';
import { validateQuery } from './validate-query.js';
import { Dashboard as DashboardCodec } from '../metadata/view.js';
import {
  DEFAULT_GRID_ROWS,
  MAX_GRID_ROWS,
  dashboardFilterFragment,
  dashboardFilterKind,
  dashboardFilterOf,
  dashboardObjectQuery,
  figureOf,
  gaugePercent,
  gridColumnsOf,
  gridRowCountOf,
  initialDashboardSelection,
  resolveDashboardObjects,
  type DashboardFilter,
  type DashboardQueryContext,
} from './dashboard.js';

const opportunity: Entity = {
  logicalName: 'opportunity',
  displayName: 'Opportunity',
  displayNamePlural: 'Opportunities',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'estimatedvalue', displayName: 'Value', type: 'Money' },
    { logicalName: 'estimatedclosedate', displayName: 'Close date', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
    { logicalName: 'outcome', displayName: 'Outcome', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Open' }, { value: 2, label: 'Won' }, { value: 3, label: 'Lost' }] },
    { logicalName: 'tags', displayName: 'Tags', type: 'Integer', flags: ['MultiSelect'], options: [{ value: 0, label: 'A' }, { value: 1, label: 'B' }] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'probability', displayName: 'Probability', type: 'Integer' },
    { logicalName: 'hot', displayName: 'Hot', type: 'Boolean' },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const entities: Record<string, Entity> = { opportunity };
const entityOf = (n: string) => entities[n];
const filterObject = (name: string, propertyName: string, extra: Partial<DashboardObject> = {}): DashboardObject => ({ kind: 'filter', name, objectname: 'opportunity', propertyName, ...extra });
const ctxOf = (filters: DashboardFilter[], selections: DashboardQueryContext['selections']): DashboardQueryContext => ({
  reference: new Date('2026-11-24T10:00:00Z'),
  timeZone: 'Europe/Bratislava',
  placeholders: { userid: 'u-1' },
  filters,
  selections,
});

describe('dashboard filters support only option sets, lookups and dates (spec 000 sections 2 and 5)', () => {
  it('a date, a lookup and a single-choice option set are supported; text, numbers, yes/no and multi-select are Unsupported', () => {
    const kind = (p: string) => dashboardFilterKind(opportunity.properties.find((x) => x.logicalName === p)!);
    expect(kind('estimatedclosedate')).toBe('date');
    expect(kind('createdon')).toBe('date');
    expect(kind('ownerid')).toBe('lookup');
    expect(kind('outcome')).toBe('options');
    for (const p of ['name', 'estimatedvalue', 'probability', 'hot', 'tags', 'id', 'versionnumber']) expect(kind(p), p).toBeUndefined();
    expect(dashboardFilterOf(filterObject('f', 'name'), entityOf)._tag).toBe('Unsupported');
    expect(dashboardFilterOf(filterObject('f', 'outcome'), entityOf)._tag).toBe('Supported');
  });

  it('a filter of an unknown entity or field is Unsupported, never an error', () => {
    expect(dashboardFilterOf(filterObject('f', 'nothing'), entityOf)._tag).toBe('Unsupported');
    expect(dashboardFilterOf({ kind: 'filter', name: 'f', objectname: 'nothing', propertyName: 'ownerid' }, entityOf)._tag).toBe('Unsupported');
    expect(dashboardFilterOf({ kind: 'filter', name: 'outcome' }, entityOf)._tag).toBe('Unsupported');
    // propertyName defaults to the filter's name, as for quick filters
    expect(dashboardFilterOf({ kind: 'filter', name: 'outcome', objectname: 'opportunity' }, entityOf)._tag).toBe('Supported');
  });

  it('starts from initialValue: a date option, an option value (text read as its number), a record id or {{userid}}', () => {
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('p', 'estimatedclosedate', { initialValue: 'this-year' }), entityOf))).toBe('this-year');
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('o', 'outcome', { initialValue: '2' }), entityOf))).toBe(2);
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('o', 'outcome', { initialValue: 3 }), entityOf))).toBe(3);
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('w', 'ownerid', { initialValue: '{{userid}}' }), entityOf))).toBe('{{userid}}');
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('w', 'ownerid'), entityOf))).toBeNull();
    expect(initialDashboardSelection(dashboardFilterOf(filterObject('n', 'name', { initialValue: 'x' }), entityOf))).toBeNull();
  });
});

describe('a dashboard filter applies to the objects of its objectname (docs/ui.md "Dashboards")', () => {
  const period = dashboardFilterOf(filterObject('period', 'estimatedclosedate'), entityOf);
  const owner = dashboardFilterOf(filterObject('owner', 'ownerid'), entityOf);
  const outcome = dashboardFilterOf(filterObject('outcome', 'outcome'), entityOf);
  const unsupported = dashboardFilterOf(filterObject('name', 'name'), entityOf);
  const all = [period, owner, outcome, unsupported];
  const fragment = (selections: DashboardQueryContext['selections'], objectname: string | undefined = 'opportunity') => {
    const r = dashboardFilterFragment(all, selections, objectname, ctxOf(all, selections));
    if (E.isLeft(r)) throw new Error(r.left.message);
    return r.right;
  };

  it('a date option is a range of days on the property (this year: [2026-01-01, 2027-01-01))', () => {
    expect(fragment({ period: 'this-year' })?.filter).toEqual({
      type: 'and',
      filters: [{ type: 'and', conditions: [{ attribute: 'estimatedclosedate', operator: 'ge', value: '2026-01-01' }, { attribute: 'estimatedclosedate', operator: 'lt', value: '2027-01-01' }] }],
    });
  });

  it('a range of days includes both ends', () => {
    expect(fragment({ period: { from: '2026-03-01', to: '2026-03-31' } })?.filter.filters?.[0]).toEqual({
      type: 'and',
      conditions: [{ attribute: 'estimatedclosedate', operator: 'ge', value: '2026-03-01' }, { attribute: 'estimatedclosedate', operator: 'lt', value: '2026-04-01' }],
    });
  });

  it('a lookup or option is a condition on the value; several options are any of them; {{userid}} is the user', () => {
    expect(fragment({ owner: 'abc' })?.filter.filters?.[0]).toEqual({ type: 'and', conditions: [{ attribute: 'ownerid', operator: 'eq', value: 'abc' }] });
    expect(fragment({ owner: '{{userid}}' })?.filter.filters?.[0]).toEqual({ type: 'and', conditions: [{ attribute: 'ownerid', operator: 'eq', value: 'u-1' }] });
    expect(fragment({ outcome: [2, 3] })?.filter.filters?.[0]).toEqual({ type: 'and', conditions: [{ attribute: 'outcome', operator: 'in', value: [2, 3] }] });
  });

  it('all filters of the entity apply together; empty selections and unsupported filters add nothing', () => {
    expect(fragment({ period: 'this-year', owner: 'abc', name: 'x' })?.filter.filters).toHaveLength(2);
    expect(fragment({})).toBeNull();
    expect(fragment({ period: null, owner: '' })).toBeNull();
  });

  it('applies to nothing of another entity', () => {
    expect(fragment({ period: 'this-year', owner: 'abc' }, 'invoice')).toBeNull();
    expect(dashboardFilterFragment(all, { period: 'this-year' }, undefined, ctxOf(all, {}))).toEqual(E.right(null));
  });

  it('an unknown date option is an input error (a metadata mistake), not a silent match-all', () => {
    expect(E.isLeft(dashboardFilterFragment(all, { period: 'someday' }, 'opportunity', ctxOf(all, {})))).toBe(true);
  });

  it('property: each applying filter adds exactly one and-ed part; filters of other entities none', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.constantFrom('opportunity', 'invoice'), (p, o, x, entity) => {
        const sel = { ...(p ? { period: 'this-month' } : {}), ...(o ? { owner: 'abc' } : {}), ...(x ? { outcome: 1 } : {}) };
        const f = fragment(sel, entity);
        const expected = entity === 'opportunity' ? Number(p) + Number(o) + Number(x) : 0;
        return expected === 0 ? f === null : f?.filter.filters?.length === expected;
      }),
    );
  });
});

describe('the queries of dashboard objects: figures are aggregated by the query engine', () => {
  const period = dashboardFilterOf(filterObject('period', 'estimatedclosedate'), entityOf);
  const openValue: DashboardObject = {
    kind: 'simplechart',
    name: 'openvalue',
    type: 'number',
    objectname: 'opportunity',
    query: { name: 'opportunity', attributes: [{ attribute: 'estimatedvalue', aggregate: 'sum', alias: 'value' }], filter: { conditions: [{ attribute: 'outcome', operator: 'eq', value: 1 }] } },
  };
  const winrate: DashboardObject = {
    kind: 'simplechart',
    name: 'winrate',
    type: 'gauge',
    objectname: 'opportunity',
    query: { name: 'opportunity', attributes: [{ attribute: 'id', aggregate: 'count', alias: 'opportunities' }] },
    extraFetch: { filter: { conditions: [{ attribute: 'outcome', operator: 'eq', value: 2 }] } },
  };
  const q = (o: DashboardObject, selections: DashboardQueryContext['selections'] = {}) => {
    const r = dashboardObjectQuery(o, ctxOf([period], selections));
    if (E.isLeft(r)) throw new Error(r.left.message);
    return r.right;
  };

  it('a number asks for one row of its aggregate, with the filters of its entity and-ed to its own filter', () => {
    const n = q(openValue, { period: 'this-year' });
    expect(n._tag).toBe('Number');
    if (n._tag !== 'Number') return;
    expect(n.key).toBe('value');
    expect(n.request.pageSize).toBe(1);
    expect(n.request.entity.attributes).toEqual(openValue.query!.attributes);
    expect(n.request.entity.filter?.filters?.[0]).toEqual(openValue.query!.filter);
    expect(JSON.stringify(n.request.entity.filter)).toContain('estimatedclosedate');
  });

  it('a gauge with one aggregate: the first value with extraFetch (won), the second without (all)', () => {
    const g = q(winrate);
    expect(g._tag).toBe('Gauge');
    if (g._tag !== 'Gauge') return;
    expect(JSON.stringify(g.first.request.entity.filter)).toContain('"value":2');
    expect(g.second.request.entity.filter).toBeUndefined();
    expect(g.first.key).toBe('opportunities');
    expect(g.second.key).toBe('opportunities');
  });

  it('a gauge with two aggregates takes both values from one answer', () => {
    const g = q({ ...winrate, extraFetch: undefined, query: { name: 'opportunity', attributes: [{ attribute: 'estimatedvalue', aggregate: 'sum', alias: 'won' }, { attribute: 'estimatedvalue', aggregate: 'sum', alias: 'all' }] } });
    if (g._tag !== 'Gauge') throw new Error(g._tag);
    expect(g.first.request).toBe(g.second.request);
    expect([g.first.key, g.second.key]).toEqual(['won', 'all']);
  });

  it('a grid asks for gridRows rows (default 10, at most 200) and the count; its columns are gridColumns', () => {
    const grid: DashboardObject = { kind: 'grid', name: 'g', objectname: 'opportunity', query: { name: 'opportunity', attributes: [{ attribute: 'name' }, { attribute: 'estimatedvalue' }] }, gridColumns: 'name estimatedvalue' };
    const g = q(grid);
    if (g._tag !== 'Grid') throw new Error(g._tag);
    expect(g.request.pageSize).toBe(DEFAULT_GRID_ROWS);
    expect(g.request.count).toBe(true);
    expect(g.columns).toEqual(['name', 'estimatedvalue']);
    expect(gridRowCountOf({ ...grid, gridRows: '5' })).toBe(5);
    expect(gridRowCountOf({ ...grid, gridRows: '99999' })).toBe(MAX_GRID_ROWS);
    expect(gridRowCountOf({ ...grid, gridRows: '1fr 2fr' })).toBe(DEFAULT_GRID_ROWS);
    expect(gridColumnsOf({ ...grid, gridColumns: undefined })).toEqual(['name', 'estimatedvalue']);
    expect(gridColumnsOf({ kind: 'grid', name: 'x' })).toEqual(['name']);
  });

  it('labels and filters fetch nothing; a chart body is drawn by the chart module; an object without a query has none', () => {
    expect(q({ kind: 'label', name: 'l' })).toEqual({ _tag: 'None', reason: 'label' });
    expect(q({ kind: 'filter', name: 'f' })).toEqual({ _tag: 'None', reason: 'filter' });
    expect(q({ kind: 'simplechart', name: 's' })).toEqual({ _tag: 'None', reason: 'no-query' });
    expect(q({ kind: 'chart', name: 'c', chart: { type: 'bar', series: [], groups: [] } })).toEqual({ _tag: 'None', reason: 'no-query' });
  });

  it("a chart is the chart module's aggregate query over its objectname, filtered like the other objects; the object's type wins", () => {
    const chart: DashboardObject = {
      kind: 'chart',
      name: 'bystage',
      type: 'line',
      objectname: 'opportunity',
      chart: { type: 'bar', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'sum' }], groups: [{ field: 'outcome', method: 'column' }] },
      extraFetch: { filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] } },
    };
    const c = q(chart, { period: 'this-year' });
    if (c._tag !== 'Chart') throw new Error(c._tag);
    expect(c.chart.type).toBe('line');
    expect(c.request.entity.name).toBe('opportunity');
    expect(c.request.entity.attributes).toEqual([
      { attribute: 'outcome', groupBy: true, alias: 'g0' },
      { attribute: 'estimatedvalue', aggregate: 'sum', alias: 's0' },
    ]);
    const filter = JSON.stringify(c.request.entity.filter);
    expect(filter).toContain('estimatedclosedate');
    expect(filter).toContain('u-1');
  });

  it('{{userid}} in a query is the user', () => {
    const n = q({ ...openValue, query: { ...openValue.query!, filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] } } });
    if (n._tag !== 'Number') throw new Error(n._tag);
    expect(JSON.stringify(n.request.entity.filter)).toContain('u-1');
  });

  it('the figures come out of the store aggregated, and a filter changes them', async () => {
    const caller: Caller = { userId: 'u-1', teams: [], permissions: { permissions: { opportunity: packMask({ create: 3, read: 3, update: 3, delete: 3 }) }, apps: [], owners: [], needsTeams: false } };
    let n = 0;
    const store = new InMemoryRecordStore(entityOf, { now: () => new Date('2026-11-24T10:00:00Z') }, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const rows = [
      { outcome: 1, estimatedvalue: 100, estimatedclosedate: '2026-12-01' },
      { outcome: 1, estimatedvalue: 50, estimatedclosedate: '2027-02-01' },
      { outcome: 2, estimatedvalue: 70, estimatedclosedate: '2026-05-01' },
      { outcome: 3, estimatedvalue: 20, estimatedclosedate: '2026-06-01' },
      { outcome: 2, estimatedvalue: 10, estimatedclosedate: '2025-06-01' },
    ];
    for (const [i, r] of rows.entries()) expect(E.isRight(await store.create(caller, 'opportunity', { name: `O${i}`, ...r }))).toBe(true);
    const figure = async (request: { request: Parameters<typeof store.retrieveMultiple>[1]; key: string }) => {
      const a = await store.retrieveMultiple(caller, request.request);
      if (E.isLeft(a)) throw new Error(a.left.message);
      return figureOf(a.right.records, request.key);
    };
    const number = async (sel: DashboardQueryContext['selections']) => {
      const o = q(openValue, sel);
      if (o._tag !== 'Number') throw new Error(o._tag);
      return figure(o);
    };
    expect(await number({})).toBe(150);
    expect(await number({ period: 'this-year' })).toBe(100);
    const gauge = async (sel: DashboardQueryContext['selections']) => {
      const g = q(winrate, sel);
      if (g._tag !== 'Gauge') throw new Error(g._tag);
      return gaugePercent(await figure(g.first), await figure(g.second));
    };
    expect(await gauge({})).toBe(40); // 2 won of 5
    expect(await gauge({ period: 'this-year' })).toBeCloseTo(100 / 3); // 1 won of 3 closing in 2026
  });
});

describe('a gauge shows the percent of the first value over the second (spec 000 section 9)', () => {
  it('is first / second x 100, and no percent without a second value or over zero', () => {
    expect(gaugePercent(1, 4)).toBe(25);
    expect(gaugePercent(5, 4)).toBe(125);
    expect(gaugePercent(0, 4)).toBe(0);
    expect(gaugePercent(3, 0)).toBeNull();
    expect(gaugePercent(null, 4)).toBeNull();
    expect(gaugePercent(3, null)).toBeNull();
  });

  it('property: the percent of the second value gives back the first', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.double({ min: -1e9, max: 1e9, noNaN: true }).filter((x) => Math.abs(x) > 1e-6), (a, b) => {
        const p = gaugePercent(a, b)!;
        return Math.abs((p / 100) * b - a) <= 1e-6 * Math.max(1, Math.abs(a));
      }),
    );
  });

  it('reads a figure from the first row: numbers, numeric text; null for nothing', () => {
    expect(figureOf([{ v: 3 }], 'v')).toBe(3);
    expect(figureOf([{ v: '2.5' }], 'v')).toBe(2.5);
    expect(figureOf([{ v: null }], 'v')).toBeNull();
    expect(figureOf([], 'v')).toBeNull();
    expect(figureOf([{ v: 'x' }], 'v')).toBeNull();
  });
});

describe('objects given by reference and the demo Sales dashboard', () => {
  it('an object naming a stored simplechart, grid or label takes its body; the dashboard fields win', () => {
    const d: Dashboard = { objects: [{ kind: 'grid', name: 'unpaid', gridArea: '1 / 1' }, { kind: 'label', name: 'hello', label: 'Hi' }] };
    const out = resolveDashboardObjects(d, (kind, name) => (kind === 'grid' && name === 'unpaid' ? { query: { name: 'invoice' }, gridArea: '9 / 9', label: 'Unpaid' } : undefined));
    expect(out[0]).toMatchObject({ kind: 'grid', name: 'unpaid', gridArea: '1 / 1', label: 'Unpaid', query: { name: 'invoice' } });
    expect(out[1]).toEqual(d.objects[1]);
    // A stored body that does not decode leaves the object as written.
    expect(resolveDashboardObjects(d, () => ({ query: 42 }))[0]).toEqual(d.objects[0]);
  });

  it('the demo Sales dashboard decodes, its filters are supported, and its gauge has a query (won over all)', () => {
    const view = (demoPack().views ?? []).find((v) => v.kind === 'dashboard' && v.name === 'sales');
    const d = DashboardCodec.decode(view?.body);
    if (E.isLeft(d)) throw new Error('the Sales dashboard does not decode');
    const byName = new Map(demoPack().entities.map((e) => [e.logicalName, e]));
    const filters = d.right.objects.filter((o) => o.kind === 'filter').map((o) => dashboardFilterOf(o, (n) => byName.get(n)));
    expect(filters.map((f) => f._tag)).toEqual(['Supported', 'Supported']);
    const winrate = d.right.objects.find((o) => o.name === 'winrate');
    expect(winrate?.type).toBe('gauge');
    expect(winrate?.query).toBeDefined();
    const g = dashboardObjectQuery(winrate!, ctxOf(filters, { period: 'this-year' }));
    expect(E.isRight(g) && g.right._tag).toBe('Gauge');
  });

  it("every query of the demo's Sales dashboard is valid against the demo's metadata, with and without its filters", () => {
    const pack = demoPack();
    const d = DashboardCodec.decode((pack.views ?? []).find((v) => v.kind === 'dashboard' && v.name === 'sales')?.body);
    if (E.isLeft(d)) throw new Error('the Sales dashboard does not decode');
    const all = [...(systemPack().entities ?? []), ...pack.entities];
    const byName = new Map(all.map((e) => [e.logicalName, e]));
    const filters = d.right.objects.filter((o) => o.kind === 'filter').map((o) => dashboardFilterOf(o, (n) => byName.get(n)));
    for (const selections of [{}, { period: 'this-year', owner: '00000000-0000-4000-8000-000000000001' }]) {
      const requests = d.right.objects.flatMap((o) => {
        const q = dashboardObjectQuery(o, ctxOf(filters, selections));
        if (E.isLeft(q)) throw new Error(`${o.name}: ${q.left.message}`);
        const p = q.right;
        return p._tag === 'Gauge' ? [p.first.request, p.second.request] : p._tag === 'None' ? [] : [p.request];
      });
      expect(requests).toHaveLength(5);
      for (const r of requests) {
        const v = validateQuery(r, (n) => byName.get(n));
        expect(E.isRight(v) ? 'ok' : v.left.message, JSON.stringify(r.entity).slice(0, 120)).toBe('ok');
      }
    }
  });
});
