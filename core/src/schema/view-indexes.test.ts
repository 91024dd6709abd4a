import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { demoPack } from '../packs/packs.js';
import { diffSchema } from './migration-plan.js';
import { schemaOfMetadata } from './migrate.js';
import { findTable, type Schema } from './schema-model.js';
import { quickFilterIndexes, viewIndexes, withViewIndexes, withViewIndexHints, type IndexedFilterBar, type IndexedView } from './view-indexes.js';
import { planMigration } from './migrate.js';

const appointment: Entity = {
  logicalName: 'appointment',
  displayName: 'Appointment',
  displayNamePlural: 'Appointments',
  properties: [
    { logicalName: 'starts', displayName: 'Starts', type: 'DateTime' },
    { logicalName: 'ends', displayName: 'Ends', type: 'DateTime' },
    { logicalName: 'notes', displayName: 'Notes', type: 'String', flags: ['MultiLine'] },
  ],
};
const schemaOfAppointments = (): Schema => {
  const s = schemaOfMetadata([appointment]);
  if (!isRight(s)) throw new Error('schema');
  return s.right;
};
const calendarView = (body: Partial<IndexedView['body']> = {}): IndexedView => ({ objectname: 'appointment', body: { viewMode: 'calendar', calendarStartField: 'starts', calendarEndField: 'ends', ...body } });

describe("the schema indexes a calendar view's date fields (issue 14: the month fetch end >= a and start <= b)", () => {
  it('a view that shows as a calendar (its mode or an allowed mode) asks for an (end, start) index', () => {
    expect(viewIndexes([calendarView()])).toEqual([{ table: 'appointment', index: { name: 'IX_appointment_ends_starts', columns: ['ends', 'starts'], unique: false } }]);
    expect(viewIndexes([calendarView({ viewMode: 'list', allowedModes: ['list', 'calendar'] })])).toHaveLength(1);
    expect(viewIndexes([calendarView({ viewMode: 'list' })])).toEqual([]);
    // a kanban view asks for its lane field, not the calendar's dates
    expect(viewIndexes([calendarView({ viewMode: 'kanban' })]).map((v) => v.index.columns)).toEqual([['status']]);
  });

  // The key ends the index (issue 24): pages order ties by it, so the index serves the whole ORDER BY.
  it('the schema gets the index once, only where the table and both columns exist, ending with the key', () => {
    const base = schemaOfAppointments();
    const once = withViewIndexes(base, viewIndexes([calendarView(), calendarView()]));
    expect(findTable(once, 'appointment')?.indexes.filter((i) => i.name === 'IX_appointment_ends_starts_id')).toEqual([{ name: 'IX_appointment_ends_starts_id', columns: ['ends', 'starts', 'id'], unique: false }]);
    expect(withViewIndexes(base, viewIndexes([calendarView({ calendarEndField: 'missing' })]))).toEqual(base);
    expect(withViewIndexes(base, viewIndexes([{ ...calendarView(), objectname: 'other' }]))).toEqual(base);
    // A long text cannot be an index key: no index.
    expect(withViewIndexes(base, viewIndexes([calendarView({ calendarEndField: 'notes' })]))).toEqual(base);
  });

  it('adding it to an applied schema is one create-index step (a migration, no data at risk)', () => {
    const base = schemaOfAppointments();
    expect(diffSchema(base, withViewIndexes(base, viewIndexes([calendarView()])))).toEqual([
      { kind: 'createIndex', table: 'appointment', index: { name: 'IX_appointment_ends_starts_id', columns: ['ends', 'starts', 'id'], unique: false }, dataLoss: false },
    ]);
  });

  it("the demo's Schedule view indexes the work order's scheduledend and scheduledstart", () => {
    const views = (demoPack().views ?? []).filter((v) => v.kind === 'view').map((v) => ({ objectname: String(v.objectname), body: v.body as IndexedView['body'] }));
    const s = schemaOfMetadata(demoPack().entities);
    if (!isRight(s)) throw new Error('schema');
    const indexed = withViewIndexes(s.right, viewIndexes(views));
    expect(findTable(indexed, 'workorder')?.indexes.map((i) => i.name)).toContain('IX_workorder_scheduledend_scheduledstart_id');
  });

  it('property: adding the view indexes is idempotent', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ start: fc.constantFrom('starts', 'ends', 'notes', 'nope'), end: fc.constantFrom('starts', 'ends', 'notes', 'nope') }), { maxLength: 5 }), (pairs) => {
        const hints = viewIndexes(pairs.map((p) => calendarView({ calendarStartField: p.start, calendarEndField: p.end })));
        const once = withViewIndexes(schemaOfAppointments(), hints);
        expect(withViewIndexes(once, hints)).toEqual(once);
      }),
    );
  });
});

describe("a pack's calendar views reach the schema through their entities' `indexes` (organizations get the index)", () => {
  const pack = demoPack();
  const hinted = withViewIndexHints(pack.entities, pack.views ?? []);
  it("the demo's Schedule view (work orders by scheduledstart/scheduledend, also a board) and Lead Board put their indexes into the entities' metadata, once", () => {
    expect(hinted.find((e) => e.logicalName === 'workorder')?.indexes).toEqual(expect.arrayContaining([['scheduledend', 'scheduledstart'], ['status']]));
    expect(hinted.find((e) => e.logicalName === 'lead')?.indexes).toEqual(expect.arrayContaining([['status']]));
    expect(withViewIndexHints(hinted, pack.views ?? [])).toEqual(hinted);
    // entities without views are left as they are
    expect(hinted.find((e) => e.logicalName === 'invoicedetail')).toBe(pack.entities.find((e) => e.logicalName === 'invoicedetail'));
  });
  it('schemaOf makes the declared index; a migration from metadata without it plans exactly that index, and none once applied', () => {
    const withIndex = planMigration(null, hinted);
    if (!isRight(withIndex)) throw new Error('plan');
    const table = findTable(withIndex.right.to, 'workorder')!;
    expect(table.indexes.map((i) => i.name)).toContain('IX_workorder_scheduledend_scheduledstart_id');
    const applied = { version: 1, appliedOn: '2026-11-24T00:00:00.000Z', entities: pack.entities };
    const added = planMigration(applied, hinted);
    if (!isRight(added)) throw new Error('plan');
    const created = added.right.plan.map((step) => (step.kind === 'createIndex' ? step.index.name : step.kind));
    expect(created).toContain('IX_workorder_scheduledend_scheduledstart_id');
    expect(created).toContain('IX_lead_status_id');
    expect(added.right.plan.every((step) => step.kind === 'createIndex' && !step.dataLoss)).toBe(true);
    const again = planMigration({ ...applied, entities: hinted }, hinted);
    if (!isRight(again)) throw new Error('plan');
    expect(again.right.plan).toEqual([]);
  });
});

describe('a kanban board asks for an index on its lane field, then its order (issue 13: lane pages and counts)', () => {
  it('lane field (default status) and the first order; none twice', () => {
    const board = (body: Partial<IndexedView['body']>): IndexedView => ({ objectname: 'lead', body: { viewMode: 'kanban', ...body } });
    expect(viewIndexes([board({})]).map((v) => v.index.columns)).toEqual([['status']]);
    expect(viewIndexes([board({ kanbanField: 'stage', query: { orders: [{ attribute: 'name' }] } })]).map((v) => v.index.columns)).toEqual([['stage', 'name']]);
    expect(viewIndexes([board({}), { objectname: 'lead', body: { allowedModes: ['list', 'kanban'] } }])).toHaveLength(1);
    expect(viewIndexes([{ objectname: 'lead', body: { viewMode: 'list' } }])).toEqual([]);
  });
});

describe('a list view asks for its equality conditions then its sort column; a listed entity gets a full-text name (issue 24)', () => {
  const listView = (query: NonNullable<IndexedView['body']['query']>, body: Partial<IndexedView['body']> = {}): IndexedView => ({ objectname: 'appointment', body: { viewMode: 'list', query, ...body } });
  it('equality columns of the top-level and-filter first, then the first order', () => {
    const v = listView({ filter: { type: 'and', conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }, { attribute: 'starts', operator: 'ge', value: '2024-01-01' }] }, orders: [{ attribute: 'ends' }] });
    expect(viewIndexes([v]).map((i) => i.index.columns)).toEqual([['statecode', 'ends']]);
  });
  it('nothing without an order, for an or-filter only the order, nothing for a sort by a linked column', () => {
    expect(viewIndexes([listView({})])).toEqual([]);
    expect(viewIndexes([listView({ filter: { type: 'or', conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] }, orders: [{ attribute: 'ends' }] })]).map((i) => i.index.columns)).toEqual([['ends']]);
    expect(viewIndexes([listView({ orders: [{ attribute: 'pc.name' }] })])).toEqual([]);
  });
  it('the demo: accounts by statecode then name, with a full-text index of name for the search box', () => {
    const pack = demoPack();
    const account = withViewIndexHints(pack.entities, pack.views ?? []).find((e) => e.logicalName === 'account')!;
    expect(account.indexes).toContainEqual(['statecode', 'name']);
    expect(account.fullText).toEqual(['name']);
  });
  it('hints are idempotent for any set of list views (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('starts', 'ends', 'statecode', 'notes'), { maxLength: 3 }), fc.constantFrom('starts', 'ends', 'notes'), (eqs, order) => {
        const views = [{ kind: 'view', objectname: 'appointment', body: listView({ filter: { type: 'and', conditions: eqs.map((a) => ({ attribute: a, operator: 'eq' as const, value: 1 })) }, orders: [{ attribute: order }] }).body }];
        const once = withViewIndexHints([appointment], views);
        expect(withViewIndexHints(once, views)).toEqual(once);
        const columns = viewIndexes([listView({ filter: { type: 'and', conditions: eqs.map((a) => ({ attribute: a, operator: 'eq' as const, value: 1 })) }, orders: [{ attribute: order }] })])[0].index.columns;
        expect(columns[columns.length - 1]).toBe(order);
      }),
    );
  });
});

describe('quick filters ask for (their field, the list order) on each list of the entity (issue 24: "views and quick filters")', () => {
  const list = (order: string): IndexedView => ({ objectname: 'account', body: { viewMode: 'list', query: { orders: [{ attribute: order }] } } });
  const bar = (filters: IndexedFilterBar['body']['filters']): IndexedFilterBar => ({ objectname: 'account', body: { filters } });
  it('options, lookup and owner filters index (field, order) per distinct list order; text, date and customFetch filters none', () => {
    const bars = [bar([
      { type: 'options', propertyName: 'industry' },
      { type: 'owner', propertyName: 'ownerid' },
      { type: 'text', propertyName: 'name' },
      { type: 'date', propertyName: 'createdon' },
      { type: 'lookup', propertyName: 'parentaccountid', customFetch: {} },
    ])];
    expect(quickFilterIndexes(bars, [list('name'), list('name'), list('createdon')]).map((i) => i.index.columns)).toEqual([
      ['industry', 'name'], ['industry', 'createdon'], ['ownerid', 'name'], ['ownerid', 'createdon'],
    ]);
  });
  it('a filter on the order field itself asks for that field alone; another entity\'s lists ask nothing', () => {
    expect(quickFilterIndexes([bar([{ type: 'options', propertyName: 'name' }])], [list('name')]).map((i) => i.index.columns)).toEqual([['name']]);
    expect(quickFilterIndexes([bar([{ type: 'options', propertyName: 'industry' }])], [{ ...list('name'), objectname: 'lead' }])).toEqual([]);
  });
  it("the demo: the account quick filters' industry gets (industry, name) in the entity's indexes", () => {
    const pack = demoPack();
    const account = withViewIndexHints(pack.entities, pack.views ?? []).find((e) => e.logicalName === 'account')!;
    expect(account.indexes).toContainEqual(['industry', 'name']);
  });
});
