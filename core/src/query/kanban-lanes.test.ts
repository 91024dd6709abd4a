import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord, Property } from '../metadata/entity.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { withSystemFields } from '../metadata/system-fields.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { systemCaller } from '../ports/record-store.js';
import type { FetchRequest } from './query.js';
import {
  countedLanes,
  DEFAULT_KANBAN_FIELD,
  kanbanFieldName,
  kanbanFieldOf,
  LANE_COUNT_KEY,
  laneCardsRequest,
  laneCountRequest,
  mayMoveCard,
  moveCard,
  moveCheckFields,
  optionLanes,
  restoreCard,
  type BoardLane,
} from './kanban-lanes.js';

const status: Property = {
  logicalName: 'status',
  displayName: 'Lead Status',
  type: 'Integer',
  flags: ['OptionSet', 'Required'],
  richOptions: [
    { value: 1, label: 'New', color: '#1565c0' },
    { value: 2, label: 'Contacted' },
    { value: 3, label: 'Qualified' },
  ],
};
const stage: Property = { logicalName: 'stage', displayName: 'Stage', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Qualify' }, { value: 2, label: 'Develop' }] };
const lead: Entity = {
  logicalName: 'lead',
  displayName: 'Lead',
  displayNamePlural: 'Leads',
  properties: [
    status,
    stage,
    { logicalName: 'tags', displayName: 'Tags', type: 'Integer', flags: ['MultiSelect'], options: [{ value: 0, label: 'A' }] },
    { logicalName: 'companyname', displayName: 'Company', type: 'String' },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
  ],
};

describe('the lane field (spec 001 section 2: default field name status, else the view field)', () => {
  it('is status when the view names none, and the view field otherwise', () => {
    expect(DEFAULT_KANBAN_FIELD).toBe('status');
    expect([kanbanFieldName(undefined), kanbanFieldName(' '), kanbanFieldName('stage')]).toEqual(['status', 'status', 'stage']);
    const byDefault = kanbanFieldOf(lead, undefined);
    expect(isRight(byDefault) && byDefault.right.logicalName).toBe('status');
    const named = kanbanFieldOf(lead, 'stage');
    expect(isRight(named) && named.right.logicalName).toBe('stage');
  });

  it('must exist and be a single-choice option set', () => {
    expect(kanbanFieldOf(lead, 'missing')).toEqual({ _tag: 'Left', left: { _tag: 'NoField', field: 'missing' } });
    expect(kanbanFieldOf(lead, 'companyname')).toEqual({ _tag: 'Left', left: { _tag: 'NotOptionSet', field: 'companyname' } });
    expect(kanbanFieldOf(lead, 'tags')).toEqual({ _tag: 'Left', left: { _tag: 'NotOptionSet', field: 'tags' } });
  });

  it('has one lane per option, in the options order, with the rich option colour', () => {
    expect(optionLanes(status).map((l) => [l.key, l.label, l.color ?? null, l.accepts])).toEqual([
      ['1', 'New', '#1565c0', true],
      ['2', 'Contacted', null, true],
      ['3', 'Qualified', null, true],
    ]);
    expect(optionLanes(stage).map((l) => l.label)).toEqual(['Qualify', 'Develop']);
  });
});

describe('lane counts from an aggregate query derived from the list fetch', () => {
  const list: FetchRequest = {
    entity: {
      name: 'lead',
      attributes: [{ attribute: 'name' }, { attribute: 'companyname' }],
      filter: { type: 'and', conditions: [{ attribute: 'companyname', operator: 'like', value: '%a%' }] },
      orders: [{ attribute: 'name' }],
      links: [{ name: 'systemuser', from: 'ownerid', to: 'id', alias: 'o', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'not-null' }] } }],
    },
    page: 3,
    pageSize: 150,
    count: true,
    orders: [{ attribute: 'companyname' }],
  };

  it('keeps the filter and the joins (quick filters and search apply), groups by the field and counts; no order, no paging of the list', () => {
    const r = laneCountRequest(list, lead, 'status');
    expect(r.entity.filter).toEqual(list.entity.filter);
    expect(r.entity.links).toEqual([{ name: 'systemuser', from: 'ownerid', to: 'id', alias: 'o', filter: { conditions: [{ attribute: 'name', operator: 'not-null' }] } }]);
    // A join may repeat a record: the count is of distinct ids.
    expect(r.entity.attributes).toEqual([
      { attribute: 'status', groupBy: true },
      { attribute: 'id', aggregate: 'countdistinct', alias: LANE_COUNT_KEY },
    ]);
    expect(r.entity.orders).toBeUndefined();
    expect(r.orders).toBeUndefined();
    expect([r.page, r.count]).toEqual([1, undefined]);
    const plain = laneCountRequest({ entity: { name: 'lead' } }, lead, 'status');
    expect(plain.entity.attributes?.[1].aggregate).toBe('count');
    expect(plain.entity.filter).toBeUndefined();
  });

  it('maps the answer to every option lane (0 when absent), a lane per unknown value and the records without a value', () => {
    const lanes = countedLanes(stage, [
      { stage: 2, [LANE_COUNT_KEY]: 4 },
      { stage: 9, [LANE_COUNT_KEY]: 1 },
      { stage: null, [LANE_COUNT_KEY]: 2 },
    ]);
    expect(lanes.map((l) => [l.key, l.kind, l.count, l.accepts])).toEqual([
      ['1', 'option', 0, true],
      ['2', 'option', 4, true],
      ['9', 'other', 1, false],
      ['', 'empty', 2, true],
    ]);
    // A Required field takes no empty value: its empty lane (old records) accepts no card.
    expect(countedLanes(status, [{ status: null, [LANE_COUNT_KEY]: 1 }]).at(-1)).toMatchObject({ kind: 'empty', accepts: false });
    // No empty lane without records in it.
    expect(countedLanes(status, [{ status: 1, [LANE_COUNT_KEY]: 1 }]).map((l) => l.key)).toEqual(['1', '2', '3']);
  });

  it('property: the lane counts add up to the total of the answer', () => {
    const value = fc.option(fc.integer({ min: -3, max: 12 }), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.record({ v: value, n: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 20 }), (rows) => {
        const answer = rows.map((r) => ({ stage: r.v, [LANE_COUNT_KEY]: r.n }));
        const lanes = countedLanes(stage, answer);
        expect(lanes.reduce((s, l) => s + l.count, 0)).toBe(rows.reduce((s, r) => s + r.n, 0));
        expect(new Set(lanes.map((l) => l.key)).size).toBe(lanes.length);
      }),
    );
  });

  it('the count and card queries run on the store: counts per lane, each lane its own cards', async () => {
    let n = 0;
    const full = withSystemFields(lead);
    if (isLeft(full)) throw new Error(full.left.message);
    const entities = new Map([[lead.logicalName, full.right]]);
    const store = new InMemoryRecordStore((name) => entities.get(name), { now: () => new Date('2026-01-01T00:00:00Z') }, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const sys = systemCaller();
    const statuses = [1, 1, 2, 3, 3, 3, 1];
    for (const [i, s] of statuses.entries()) await store.create(sys, 'lead', { name: `Lead ${i}`, companyname: i % 2 ? 'Acme' : 'Zed', status: s });
    const view: FetchRequest = { entity: { name: 'lead', attributes: [{ attribute: 'name' }], orders: [{ attribute: 'name' }] }, pageSize: 50, count: true };
    const counts = await store.retrieveMultiple(sys, laneCountRequest(view, full.right, 'status'));
    if (isLeft(counts)) throw new Error(counts.left.message);
    expect(countedLanes(status, counts.right.records as EntityRecord[]).map((l) => l.count)).toEqual([3, 1, 3]);
    const page = await store.retrieveMultiple(sys, laneCardsRequest(view, full.right, 'status', 3, { page: 1, pageSize: 2 }, ['ownerid']));
    if (isLeft(page)) throw new Error(page.left.message);
    expect(page.right.records.map((r) => [r.name, r.status])).toEqual([
      ['Lead 3', 3],
      ['Lead 4', 3],
    ]);
    expect(page.right.moreRecords).toBe(true);
    expect(Object.keys(page.right.records[0]).sort()).toEqual(['id', 'name', 'ownerid', 'status', 'versionnumber']);
  });
});

describe('moving a card (dragging sets the field to the lane value; the card goes back when the save fails)', () => {
  const card = (id: string, s: number): EntityRecord => ({ id, name: id, status: s });
  const board = (): BoardLane[] => [
    { key: '1', count: 3, cards: [card('a', 1), card('b', 1)] },
    { key: '2', count: 1, cards: [card('c', 2)] },
    { key: '3', count: 0, cards: [] },
  ];
  const setStatus = (v: number) => (c: EntityRecord) => ({ ...c, status: v });

  it('moves the card to the top of the lane with the value set, and the counts follow', () => {
    const r = moveCard(board(), 'b', '3', setStatus(3));
    expect(r?.lanes.map((l) => [l.key, l.count, l.cards.map((c) => `${c.id}${c.status}`)])).toEqual([
      ['1', 2, ['a1']],
      ['2', 1, ['c2']],
      ['3', 1, ['b3']],
    ]);
    expect(r?.from).toEqual({ key: '1', index: 1, card: card('b', 1) });
  });

  it('puts a card back exactly where it was', () => {
    const moved = moveCard(board(), 'a', '2', setStatus(2));
    expect(moved).toBeDefined();
    expect(restoreCard(moved!.lanes, 'a', moved!.from)).toEqual(board());
  });

  it('moving to its own lane or an unknown card changes nothing', () => {
    expect(moveCard(board(), 'a', '1', setStatus(1))?.lanes).toEqual(board());
    expect(moveCard(board(), 'zz', '2', setStatus(2))).toBeUndefined();
    expect(moveCard(board(), 'a', 'nope', setStatus(2))).toBeUndefined();
  });

  it('property: any sequence of moves keeps the total, each card in one lane, and undoing them in reverse restores the board', () => {
    const ids = ['a', 'b', 'c'];
    const keys = ['1', '2', '3'];
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.constantFrom(...ids), to: fc.constantFrom(...keys), index: fc.nat(4) }), { maxLength: 12 }), (moves) => {
        let lanes = board();
        const undo: Array<{ id: string; from: Parameters<typeof restoreCard>[2] }> = [];
        for (const m of moves) {
          const r = moveCard(lanes, m.id, m.to, setStatus(Number(m.to)), m.index);
          if (!r) continue;
          lanes = r.lanes;
          undo.push({ id: m.id, from: r.from });
        }
        expect(lanes.reduce((s, l) => s + l.count, 0)).toBe(4);
        const all = lanes.flatMap((l) => l.cards.map((c) => String(c.id)));
        expect(all.sort()).toEqual(ids);
        for (const l of lanes) for (const c of l.cards) expect(String(c.status)).toBe(l.key);
        for (const u of undo.reverse()) lanes = restoreCard(lanes, u.id, u.from);
        expect(lanes).toEqual(board());
      }),
    );
  });
});

describe('who may drag (spec 000 section 6: update permission on the record)', () => {
  const caller = (update: 0 | 1 | 2 | 3): Caller => ({
    userId: 'u1',
    teams: ['t1'],
    permissions: { permissions: { lead: packMask({ create: 1, read: 3, update: update, delete: 1 }) }, apps: [], owners: [], needsTeams: false },
  });
  const mine = { id: 'x', ownerid: { id: 'u1', name: 'systemuser' } };
  const teams = { id: 'y', ownerid: { id: 'u2', name: 'systemuser' }, teamid: { id: 't1', name: 'team' } };
  const others = { id: 'z', ownerid: { id: 'u2', name: 'systemuser' } };

  it('follows the update level: none drags nothing, owner its own, team its team, organization all', () => {
    const can = (level: 0 | 1 | 2 | 3) => [mine, teams, others].map((r) => mayMoveCard(caller(level), lead, status, r));
    expect(can(0)).toEqual([false, false, false]);
    expect(can(1)).toEqual([true, false, false]);
    expect(can(2)).toEqual([true, true, false]);
    expect(can(3)).toEqual([true, true, true]);
  });

  it('an auto-number field is never a drop target', () => {
    expect(mayMoveCard(caller(3), lead, { ...status, flags: ['OptionSet', 'AutoNumber'] }, mine)).toBe(false);
  });

  it('the cards read what the check needs: owner, team and custom-owner fields', () => {
    const c = caller(1);
    expect(moveCheckFields(c, lead)).toEqual(['ownerid', 'teamid']);
    const custom: Caller = { ...c, permissions: { ...c.permissions, owners: [{ objectName: 'lead', operation: 'update', fieldName: 'companyname' }] } };
    expect(moveCheckFields(custom, lead)).toEqual(['ownerid', 'teamid', 'companyname']);
  });
});
