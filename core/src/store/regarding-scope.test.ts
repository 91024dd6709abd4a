import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import { packMask } from '../permissions/mask.js';
import type { Caller, Level } from '../permissions/types.js';
import { systemCaller } from '../ports/record-store.js';
import { ChangeVisibility } from '../services/change-visible-to.js';
import { InMemoryRecordStore } from './in-memory-record-store.js';

const entities = builtInPacks().flatMap((p) => p.entities);
const EVA = 'a0000000-0000-4000-8000-00000000000e';
const ADAM = 'a0000000-0000-4000-8000-00000000000a';
const mask = (read: Level): number => packMask({ create: read, read, update: read, delete: read });

/** A caller with the given read levels per entity (create/update/delete alike). */
const user = (userId: string, levels: Record<string, Level>): Caller => ({
  userId,
  teams: [],
  permissions: { permissions: Object.fromEntries(Object.entries(levels).map(([e, l]) => [e, mask(l)])), apps: [], owners: [], needsTeams: false },
});

const setUp = async () => {
  let n = 0;
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), { now: () => new Date('2026-11-25T05:00:00Z') }, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const sys = systemCaller();
  const create = async (entity: string, object: Record<string, unknown>) => {
    const r = await store.create(sys, entity, object as never);
    if (isLeft(r)) throw new Error(r.left.message);
    return r.right;
  };
  await create('systemuser', { id: ADAM, name: 'Adam', emailaddress: 'adam@example.com' });
  const evasAccount = await create('account', { name: 'Eva Ltd', ownerid: EVA });
  const adamsAccount = await create('account', { name: 'Adam Ltd', ownerid: ADAM });
  // Every activity is Adam's own (he reads all activities), about Eva's account, Adam's account, or nothing.
  const onEvas = await create('activity', { type: 1, ownerid: ADAM, body: 'about Eva', objectname: 'account', objectid: evasAccount });
  const onAdams = await create('activity', { type: 1, ownerid: ADAM, body: 'about Adam', objectname: 'account', objectid: adamsAccount });
  const loose = await create('activity', { type: 1, ownerid: ADAM, body: 'about nothing' });
  const onUnknown = await create('activity', { type: 1, ownerid: ADAM, body: 'about a lead', objectname: 'lead', objectid: evasAccount });
  return { store, evasAccount, adamsAccount, onEvas, onAdams, loose, onUnknown };
};

const bodies = async (store: InMemoryRecordStore, caller: Caller, filter?: object): Promise<string[]> => {
  const r = await store.retrieveMultiple(caller, { entity: { name: 'activity', attributes: [{ attribute: 'body' }], filter, orders: [{ attribute: 'body' }] } as never, count: true });
  if (isLeft(r)) throw new Error(r.left.message);
  expect(r.right.count).toBe(r.right.records.length);
  return r.right.records.map((x) => String(x.body));
};

describe("issue 18: only people who may read a record see its feed (an activity's read follows its regarding record)", () => {
  it('a user reading every activity but only their own accounts sees the activities of those accounts, and unregarding ones', async () => {
    const s = await setUp();
    // Adam reads every activity (organization level) but accounts only as their owner; leads not at all.
    const adam = user(ADAM, { activity: 3, account: 1 });
    expect(await bodies(s.store, adam)).toEqual(['about Adam', 'about nothing']);
  });

  it('another user without read on the record gets nothing of its feed: not by the feed query, not by id, not counted', async () => {
    const s = await setUp();
    const eva = user(EVA, { activity: 3, account: 1 });
    const adam = user(ADAM, { activity: 3, account: 1 });
    const feedOfEvas = { conditions: [{ attribute: 'objectname', operator: 'eq', value: 'account' }, { attribute: 'objectid', operator: 'eq', value: s.evasAccount }] };
    expect(await bodies(s.store, eva, feedOfEvas)).toEqual(['about Eva']);
    expect(await bodies(s.store, adam, feedOfEvas)).toEqual([]);
    expect(isRight(await s.store.retrieveById(eva, 'activity', s.onEvas))).toBe(true);
    const byId = await s.store.retrieveById(adam, 'activity', s.onEvas);
    expect(isLeft(byId) && byId.left.code).toBe('ERR_NOT_FOUND');
  });

  it('organization-level readers of the regarding entity see every feed; the activity scope still applies on top', async () => {
    const s = await setUp();
    expect(await bodies(s.store, user(EVA, { activity: 3, account: 3, lead: 3 }))).toEqual(['about Adam', 'about Eva', 'about a lead', 'about nothing']);
    // Eva owns no activity: owner level on activity hides them all, whatever she reads of accounts.
    expect(await bodies(s.store, user(EVA, { activity: 1, account: 3 }))).toEqual([]);
  });

  it('a link to activity from a readable record obeys the rule too', async () => {
    const s = await setUp();
    const adam = user(ADAM, { activity: 3, account: 1, systemuser: 3 });
    // The owner's activities, joined from the systemuser (a key to the lookup that targets it).
    const r = await s.store.retrieveMultiple(adam, {
      entity: { name: 'systemuser', attributes: [{ attribute: 'id' }], links: [{ name: 'activity', from: 'id', to: 'ownerid', alias: 'a', attributes: [{ attribute: 'body' }] }] },
      orders: [{ attribute: 'body', entityName: 'a' }],
    } as never);
    if (isLeft(r)) throw new Error(r.left.message);
    expect(r.right.records.map((x) => x['a.body'])).toEqual(['about Adam', 'about nothing']);
  });

  it('the system reads every activity', async () => {
    const s = await setUp();
    expect(await bodies(s.store, systemCaller())).toHaveLength(4);
  });

  it('the realtime stream sends an activity only to users who may read its record, even at organization level on activity', async () => {
    const s = await setUp();
    const v = new ChangeVisibility(s.store);
    const change = { entity: 'activity', id: s.onEvas, operation: 'create' as const, stamp: '2026-11-25T05:00:00.000Z' };
    expect(await v.visibleTo(user(EVA, { activity: 3, account: 1 }), change)).toBe(true);
    expect(await v.visibleTo(user(ADAM, { activity: 3, account: 1 }), change)).toBe(false);
  });
});
