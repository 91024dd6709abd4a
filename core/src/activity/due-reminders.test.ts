import { describe, expect, it } from 'vitest';
import { isLeft } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller } from '../ports/record-store.js';
import { whatsNext } from '../services/whats-next.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { REMINDER_RULE } from './reminder.js';

const entities = builtInPacks().flatMap((p) => p.entities);
const EVA = 'a0000000-0000-4000-8000-00000000000e';
const ADAM = 'a0000000-0000-4000-8000-00000000000a';
const NOW = new Date('2026-11-26T08:00:00Z');
const owner = (userId: string): Caller => ({
  userId,
  teams: [],
  permissions: {
    permissions: { activity: packMask({ create: 3, read: 3, update: 3, delete: 3 }), account: packMask({ create: 1, read: 1, update: 1, delete: 1 }) },
    apps: [],
    owners: [],
    needsTeams: false,
  },
});

const setUp = async () => {
  let n = 0;
  const clock = { now: () => NOW };
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  const create = async (entity: string, object: Record<string, unknown>) => {
    const r = await store.create(systemCaller(), entity, object as never);
    if (isLeft(r)) throw new Error(r.left.message);
    return r.right;
  };
  const account = await create('account', { name: 'Eva Ltd', ownerid: EVA });
  const comment = (body: string, scheduledstart: string | null, status = 1, who = EVA) =>
    create('activity', { type: 1, ownerid: who, body, scheduledstart, status, objectname: 'account', objectid: account });
  await comment('Call back about the offer\nsecond line', '2026-11-26T06:00:00.000Z');
  await comment('Not yet', '2026-11-27T06:00:00.000Z');
  await comment('Done already', '2026-11-25T06:00:00.000Z', 2);
  await comment('No reminder', null);
  await comment('Adam reminds himself', '2026-11-26T06:00:00.000Z', 1, ADAM);
  return { store, clock, account };
};

describe("issue 18: reminders due show in What's Next", () => {
  it("today lists the owner's open reminders due by now, as the record they regard, with the comment's first line", async () => {
    const { store, clock, account } = await setUp();
    const r = await whatsNext({ store, clock, entities }, owner(EVA), { scheduled: 'today', owner: EVA, category: null, page: 1, timeZone: 'Europe/Bratislava' });
    if (isLeft(r)) throw new Error(r.left.message);
    expect(r.right.records.filter((x) => x.rule === REMINDER_RULE)).toEqual([
      { id: account, objectName: 'account', name: 'Eva Ltd', createdon: '2026-11-26T06:00:00.000Z', info: 'Call back about the offer', rule: REMINDER_RULE },
    ]);
  });

  it("tomorrow includes tomorrow's reminder (the newest reminder of a record gives its row)", async () => {
    const { store, clock } = await setUp();
    const r = await whatsNext({ store, clock, entities }, owner(EVA), { scheduled: 'tomorrow', owner: EVA, category: null, page: 1, timeZone: 'Europe/Bratislava' });
    if (isLeft(r)) throw new Error(r.left.message);
    expect(r.right.records.filter((x) => x.rule === REMINDER_RULE).map((x) => x.info)).toEqual(['Not yet']);
  });

  it('a user who may not read the record gets no reminder of it, even their own', async () => {
    const { store, clock } = await setUp();
    const r = await whatsNext({ store, clock, entities }, owner(ADAM), { scheduled: 'today', owner: ADAM, category: null, page: 1, timeZone: 'UTC' });
    if (isLeft(r)) throw new Error(r.left.message);
    expect(r.right.records.filter((x) => x.rule === REMINDER_RULE)).toEqual([]);
  });
});
