import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { CHART_AGGREGATES, CHART_GROUPINGS, DEFAULT_CHART_COLOR, type Chart } from '../metadata/view.js';
import { chartPalette } from './chart-palette.js';
import {
  aggregatesFor,
  chartData,
  chartFields,
  chartName,
  chartRequest,
  cutLabel,
  dateGroupRange,
  groupingsFor,
  pickFilter,
  uniqueChartName,
} from './chart-query.js';
import { dateGroupKey, evaluateQuery } from './evaluate-query.js';
import type { EntityQuery, FetchRequest } from './query.js';
import { validateQuery } from './validate-query.js';

const lead: Entity = {
  logicalName: 'lead',
  displayName: 'Lead',
  displayNamePlural: 'Leads',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'estimatedvalue', displayName: 'Estimated Value', type: 'Money' },
    { logicalName: 'leadsource', displayName: 'Lead Source', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Web' }, { value: 2, label: 'Phone' }] },
    { logicalName: 'statecode', displayName: 'State', type: 'Integer' },
    { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
    { logicalName: 'notes', displayName: 'Notes', type: 'String', flags: ['MultiLine'] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const user: Entity = {
  logicalName: 'systemuser',
  displayName: 'User',
  displayNamePlural: 'Users',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
  ],
};
const lookup = (n: string): Entity | undefined => (n === 'lead' ? lead : n === 'systemuser' ? user : undefined);
const U1 = 'a0000000-0000-4000-8000-000000000001';
const U2 = 'a0000000-0000-4000-8000-000000000002';
const L = (n: number) => `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rows = [
  { id: L(1), name: 'A', estimatedvalue: 100, leadsource: 1, statecode: 0, createdon: '2024-01-15T10:00:00.000Z', ownerid: { id: U1, name: 'systemuser' } },
  { id: L(2), name: 'B', estimatedvalue: 250, leadsource: 2, statecode: 0, createdon: '2024-02-20T08:00:00.000Z', ownerid: { id: U2, name: 'systemuser' } },
  { id: L(3), name: 'C', estimatedvalue: 50, leadsource: 1, statecode: 0, createdon: '2024-02-01T12:00:00.000Z', ownerid: { id: U1, name: 'systemuser' } },
  { id: L(4), name: 'D', estimatedvalue: 999, leadsource: 1, statecode: 1, createdon: '2024-03-01T12:00:00.000Z', ownerid: { id: U2, name: 'systemuser' } },
  { id: L(5), name: 'E', estimatedvalue: null, leadsource: null, statecode: 0, createdon: '2023-12-31T23:30:00.000Z', ownerid: { id: U2, name: 'systemuser' } },
];
const users = [
  { id: U1, name: 'Eva' },
  { id: U2, name: 'Adam' },
];

/** Runs a request on the core's reference evaluator (the twin of the SQL compiler, tested against it in tests/src/contract). */
const run = (r: FetchRequest) => {
  const plan = validateQuery(r, lookup);
  if (isLeft(plan)) throw new Error(plan.left.message);
  return evaluateQuery(plan.right, { rows: (e) => (e === 'lead' ? rows : e === 'systemuser' ? users : []), scope: () => ({ kind: 'all' }) });
};

/** The list's current query: the view's filter (open leads), with the list's columns, order and a link's column. */
const listQuery: EntityQuery = {
  name: 'lead',
  attributes: [{ attribute: 'id' }, { attribute: 'name' }],
  filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] },
  links: [{ name: 'systemuser', from: 'ownerid', to: 'id', alias: 'owner', attributes: [{ attribute: 'name' }] }],
  orders: [{ attribute: 'name' }],
};

const bySource: Chart = {
  type: 'bar',
  series: [
    { aggregateField: 'id', aggregateMethod: 'count' },
    { aggregateField: 'estimatedvalue', aggregateMethod: 'sum', color: '#ef6c00' },
  ],
  groups: [{ field: 'leadsource', method: 'column' }],
};

describe('chartRequest (spec 001 section 2/9: the chart aggregates in the query engine, over the list query)', () => {
  it('groups by X and aggregates Y in one aggregate query of the list records, keeping the list filter and links but not its columns or order', () => {
    const r = chartRequest(bySource, listQuery);
    expect(r.entity.attributes).toEqual([
      { attribute: 'leadsource', groupBy: true, alias: 'g0' },
      { attribute: 'id', aggregate: 'count', alias: 's0' },
      { attribute: 'estimatedvalue', aggregate: 'sum', alias: 's1' },
    ]);
    expect(r.entity.filter).toEqual(listQuery.filter);
    expect(r.entity.orders).toBeUndefined();
    expect(r.entity.links?.[0].attributes).toBeUndefined();
    // The open leads only: D (state 1) is not counted.
    expect(run(r).records).toEqual([
      { g0: null, s0: 1, s1: null },
      { g0: 1, s0: 2, s1: 150 },
      { g0: 2, s0: 1, s1: 250 },
    ]);
  });

  it('spells average as the engine does (avg) and passes every other aggregate of the spec through', () => {
    for (const a of CHART_AGGREGATES) {
      const r = chartRequest({ type: 'bar', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: a }], groups: [{ field: 'leadsource', method: 'column' }] }, { name: 'lead' });
      expect(r.entity.attributes?.[1].aggregate).toBe(a === 'average' ? 'avg' : a);
      expect(() => run(r)).not.toThrow();
    }
  });

  it('groups a date by each grouping of the spec (column, year, quarter, month, week, day)', () => {
    const keys = (method: (typeof CHART_GROUPINGS)[number]) =>
      run(chartRequest({ type: 'line', series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'sum' }], groups: [{ field: 'createdon', method }] }, { name: 'lead' })).records.map((x) => x.g0);
    expect(keys('year')).toEqual(['2023', '2024']);
    expect(keys('quarter')).toEqual(['2023-Q4', '2024-Q1']);
    expect(keys('month')).toEqual(['2023-12', '2024-01', '2024-02', '2024-03']);
    expect(keys('week')).toEqual(['2023-W52', '2024-W03', '2024-W05', '2024-W08', '2024-W09']);
    expect(keys('day')).toHaveLength(5);
    expect(keys('column')).toHaveLength(5);
  });

  it("adds the chart's own filter to the list's", () => {
    const r = chartRequest({ ...bySource, filter: { filter: { conditions: [{ attribute: 'estimatedvalue', operator: 'gt', value: 60 }] } } }, listQuery);
    expect(run(r).records.map((x) => x.s0)).toEqual([1, 1]);
  });
});

describe('chartData: the answer as categories and lines', () => {
  it('one category per X value in the answer order, one line per series, a missing value as null', () => {
    const d = chartData(bySource, run(chartRequest(bySource, listQuery)).records);
    expect(d.categories.map((c) => c.key)).toEqual(['', '1', '2']);
    expect(d.lines.map((l) => l.values)).toEqual([
      [1, 2, 1],
      [null, 150, 250],
    ]);
  });

  it('colours (spec 001 section 9): one series takes its colour or the default #0071eb; several keep their own colour, else the palette', () => {
    const one: Chart = { type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'leadsource', method: 'column' }] };
    expect(chartData(one, []).lines[0].color).toBe(DEFAULT_CHART_COLOR);
    expect(DEFAULT_CHART_COLOR).toBe('#0071eb');
    expect(chartData({ ...one, series: [{ ...one.series[0], color: '#123456' }] }, []).lines[0].color).toBe('#123456');
    expect(chartData(bySource, []).lines.map((l) => l.color)).toEqual([chartPalette(2)[0], '#ef6c00']);
  });

  it('a second group splits each series into one line per value of it, coloured from the palette', () => {
    const split: Chart = { type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count', color: '#000000' }], groups: [{ field: 'leadsource', method: 'column' }, { field: 'ownerid', method: 'column' }] };
    const d = chartData(split, run(chartRequest(split, { name: 'lead' })).records);
    expect(d.lines.map((l) => (l.split?.value as { label?: string } | null)?.label ?? null)).toEqual(['Adam', 'Eva']);
    expect(d.lines.map((l) => l.color)).toEqual(chartPalette(2));
    expect(d.lines.map((l) => l.values)).toEqual([
      [1, 1, 1],
      [null, 2, null],
    ]);
  });

  it('property: every answer row lands in exactly one cell, and every line has a value slot per category', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ g0: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), s0: fc.integer() }), { selector: (r) => r.g0 }),
        (records) => {
          const chart: Chart = { type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'leadsource', method: 'column' }] };
          const d = chartData(chart, records);
          expect(d.categories).toHaveLength(records.length);
          expect(d.lines[0].values).toEqual(records.map((r) => r.s0));
        },
      ),
    );
  });
});

describe("legend labels (spec 001 section 9: cut to 10 characters plus '...')", () => {
  it('cuts longer labels and keeps short ones', () => {
    expect(cutLabel('Estimated Value')).toBe('Estimated ...');
    expect(cutLabel('Lead Sourc')).toBe('Lead Sourc');
    expect(cutLabel('')).toBe('');
  });

  it('property: a label of at most 10 characters is kept; a longer one becomes its first 10 characters and "..."', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (s) => {
        const chars = Array.from(s);
        const cut = cutLabel(s);
        if (chars.length <= 10) expect(cut).toBe(s);
        else expect(cut).toBe(`${chars.slice(0, 10).join('')}...`);
        expect(Array.from(cut).length).toBeLessThanOrEqual(13);
      }),
    );
  });
});

describe('clicking a bar filters the list (spec 001 section 2)', () => {
  it('a column value is an equality, a lookup its id, an empty group null', () => {
    expect(pickFilter({ field: 'leadsource', method: 'column' }, 2)).toEqual({ type: 'and', conditions: [{ attribute: 'leadsource', operator: 'eq', value: 2 }] });
    expect(pickFilter({ field: 'ownerid', method: 'column' }, { id: U1, name: 'systemuser', label: 'Eva' })).toEqual({ type: 'and', conditions: [{ attribute: 'ownerid', operator: 'eq', value: U1 }] });
    expect(pickFilter({ field: 'leadsource', method: 'column' }, null)).toEqual({ type: 'and', conditions: [{ attribute: 'leadsource', operator: 'null' }] });
  });

  it('a date group is its range [from, to) in UTC; a malformed key is no condition', () => {
    expect(pickFilter({ field: 'createdon', method: 'month' }, '2024-02')).toEqual({
      type: 'and',
      conditions: [
        { attribute: 'createdon', operator: 'ge', value: '2024-02-01T00:00:00.000Z' },
        { attribute: 'createdon', operator: 'lt', value: '2024-03-01T00:00:00.000Z' },
      ],
    });
    expect(dateGroupRange('2024-W01', 'week')).toEqual({ from: '2024-01-01T00:00:00.000Z', to: '2024-01-08T00:00:00.000Z' });
    expect(dateGroupRange('2020-W53', 'week')).toEqual({ from: '2020-12-28T00:00:00.000Z', to: '2021-01-04T00:00:00.000Z' });
    expect(dateGroupRange('2021-W53', 'week')).toBeUndefined();
    expect(dateGroupRange('2024-Q4', 'quarter')).toEqual({ from: '2024-10-01T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z' });
    expect(dateGroupRange('2023-02-29', 'day')).toBeUndefined();
    expect(pickFilter({ field: 'createdon', method: 'month' }, '2024-13')).toBeUndefined();
  });

  it('property: the range of the group of any instant holds it, and both of its ends belong to that group (every grouping)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.constantFrom('year' as const, 'quarter' as const, 'month' as const, 'week' as const, 'day' as const),
        (d, g) => {
          const key = dateGroupKey(d.toISOString(), g);
          const range = dateGroupRange(key, g);
          expect(range).toBeDefined();
          if (!range) return;
          expect(range.from <= d.toISOString() && d.toISOString() < range.to).toBe(true);
          expect(dateGroupKey(range.from, g)).toBe(key);
          expect(dateGroupKey(new Date(Date.parse(range.to) - 1).toISOString(), g)).toBe(key);
        },
      ),
    );
  });

  it('the picked bar, as a list filter, keeps exactly the records the bar counted', () => {
    const chart: Chart = { type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'createdon', method: 'month' }] };
    const d = chartData(chart, run(chartRequest(chart, { name: 'lead' })).records);
    d.categories.forEach((c, i) => {
      const f = pickFilter(chart.groups[0], c.value);
      const listed = run({ entity: { name: 'lead', attributes: [{ attribute: 'id' }], ...(f ? { filter: f } : {}) } }).records;
      expect(listed).toHaveLength(d.lines[0].values[i] as number);
    });
  });
});

describe('a new chart is named from the Y and X display names without spaces (spec 001 section 9)', () => {
  it('joins the names and drops every space', () => {
    expect(chartName('Estimated Value', 'Lead Source')).toBe('EstimatedValueLeadSource');
  });
  it('numbers a name already taken', () => {
    expect(uniqueChartName('A', new Set())).toBe('A');
    expect(uniqueChartName('A', new Set(['A', 'A2']))).toBe('A3');
  });
});

describe('the fields a chart offers', () => {
  it('Y: sum, average, min and max for numbers; count and countdistinct for any field; nothing for long text', () => {
    const p = (n: string) => lead.properties.find((x) => x.logicalName === n)!;
    expect(aggregatesFor(p('estimatedvalue'))).toEqual([...CHART_AGGREGATES]);
    expect(aggregatesFor(p('name'))).toEqual(['count', 'countdistinct']);
    expect(aggregatesFor(p('notes'))).toEqual([]);
  });
  it('X: dates by every grouping, other fields by column; never ids, versions or long text', () => {
    const p = (n: string) => lead.properties.find((x) => x.logicalName === n)!;
    expect(groupingsFor(p('createdon'))).toEqual([...CHART_GROUPINGS]);
    expect(groupingsFor(p('leadsource'))).toEqual(['column']);
    expect(chartFields(lead).x.map((x) => x.logicalName)).toEqual(['name', 'estimatedvalue', 'leadsource', 'statecode', 'createdon', 'ownerid']);
  });
});
