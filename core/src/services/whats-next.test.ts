import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { packMask, uniformLevels } from '../permissions/mask.js';
import { effectivePermissions } from '../permissions/roles.js';
import type { Caller, Levels } from '../permissions/types.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { WHATS_NEXT_PAGE_SIZE } from '../whatsnext/reference-date.js';
import { NEXT_RULE_ENTITY } from '../whatsnext/next-rule.js';
import { defaultWhatsNextFilters, whatsNext, type WhatsNextFilters, type WhatsNextList } from './whats-next.js';

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const DAY = 86_400_000;
/** Tuesday 24 November 2026, 10:00 UTC: "now" of every test. */
const NOW = new Date('2026-11-24T10:00:00Z');
const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';
const OPEN_LEAD = 1;
const CONTACTED = 2;
const DISQUALIFIED = 4;

const userCaller = (userId: string, levels: Record<string, Levels>): Caller => ({
  userId,
  teams: [],
  permissions: effectivePermissions([{ name: 'r', body: { permissions: Object.fromEntries(Object.entries(levels).map(([e, l]) => [e, packMask(l)])) } }], []),
});
/** A salesperson: creates and reads their own leads and activities only. */
const salesperson = (userId: string) => userCaller(userId, { lead: uniformLevels(1), activity: uniformLevels(1) });

const setUp = async () => {
  let n = 0;
  let at = NOW;
  const clock = { now: () => at };
  let reads = 0;
  const inner = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  // Counts the queries a listing runs (the related ages must be one aggregate, not one query per record).
  const store: RecordStore = Object.assign(Object.create(inner) as RecordStore, {
    retrieveMultiple: (c: Caller, r: Parameters<RecordStore['retrieveMultiple']>[1]) => {
      reads++;
      return inner.retrieveMultiple(c, r);
    },
  });
  const sys = systemCaller();
  /** Creates a record as if `daysAgo` days before now (the store stamps createdon from the clock). */
  const create = async (entity: string, daysAgo: number, object: EntityRecord): Promise<string> => {
    at = new Date(NOW.getTime() - daysAgo * DAY);
    try {
      return must(await inner.create(sys, entity, object));
    } finally {
      at = NOW;
    }
  };
  const owner = (id: string) => ({ ownerid: { id, name: 'systemuser' } });
  const lead = (daysAgo: number, name: string, status = OPEN_LEAD, ownerId = U1) => create('lead', daysAgo, { name, status, ...owner(ownerId) });
  const activity = (daysAgo: number, leadId: string, objectname = 'lead', ownerId = U1) =>
    create('activity', daysAgo, { name: 'Call', objectid: leadId, objectname, ...owner(ownerId) });
  const rule = (r: EntityRecord) => create(NEXT_RULE_ENTITY, 30, { statusfield: 'status', ...r });
  const deps = { store, clock, entities };
  const list = async (caller: Caller = salesperson(U1), f: Partial<WhatsNextFilters> = {}): Promise<WhatsNextList> =>
    must(await whatsNext(deps, caller, { ...defaultWhatsNextFilters(caller), ...f }));
  const names = async (caller?: Caller, f?: Partial<WhatsNextFilters>) => (await list(caller, f)).records.map((x) => x.name);
  return { lead, activity, rule, list, names, deps, reads: () => reads, resetReads: () => (reads = 0) };
};

describe("spec 002 What's Next: a rule's clauses", () => {
  it('status: a record is listed only when its status field is one of the semicolon-separated statusvalues', async () => {
    const s = await setUp();
    await s.rule({ name: 'Open', objectname: 'lead', statusvalues: `${OPEN_LEAD}; ${CONTACTED}`, nullrelatedmaxage: 0 });
    await s.lead(3, 'New one');
    await s.lead(2, 'Contacted one', CONTACTED);
    await s.lead(1, 'Lost cause', DISQUALIFIED);
    expect(await s.names()).toEqual(['Contacted one', 'New one']);
  });

  it('status: statusfield defaults to statuscode; empty statusvalues put no condition on the status', async () => {
    const s = await setUp();
    await s.rule({ name: 'Any', objectname: 'lead', statusfield: null, nullrelatedmaxage: 0 });
    await s.lead(1, 'Any status', DISQUALIFIED);
    expect(await s.names()).toEqual(['Any status']);
    const t = await setUp();
    await t.rule({ name: 'Inactive ones', objectname: 'lead', statusfield: null, statusvalues: '2', nullrelatedmaxage: 0 });
    await t.lead(1, 'Active lead');
    expect(await t.names()).toEqual([]);
  });

  it('related max age: listed when the newest related record is older than relatedmaxage days; exactly N days is not older', async () => {
    const s = await setUp();
    await s.rule({ name: 'Quiet', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', relatedmaxage: 7 });
    const quiet = await s.lead(20, 'Quiet');
    await s.activity(15, quiet);
    await s.activity(8, quiet);
    const boundary = await s.lead(20, 'Exactly seven');
    await s.activity(7, boundary);
    const fresh = await s.lead(20, 'Fresh');
    await s.activity(9, fresh);
    await s.activity(1, fresh);
    await s.lead(20, 'No activity');
    expect(await s.names()).toEqual(['Quiet']);
  });

  it('null related max age: a record without related records is listed once it is older than nullrelatedmaxage days; exactly N is not', async () => {
    const s = await setUp();
    await s.rule({ name: 'Untouched', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', nullrelatedmaxage: 7 });
    await s.lead(8, 'Eight days');
    await s.lead(7, 'Seven days');
    await s.lead(2, 'Two days');
    const called = await s.lead(30, 'Called once');
    await s.activity(20, called);
    expect(await s.names()).toEqual(['Eight days']);
  });

  it('without related, nullrelatedmaxage is the age of the record itself; an unset age lists nothing', async () => {
    const s = await setUp();
    await s.rule({ name: 'Old', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 5 });
    await s.rule({ name: 'Ageless', objectname: 'lead', statusvalues: '1' });
    await s.lead(6, 'Six');
    await s.lead(5, 'Five');
    expect(await s.names()).toEqual(['Six']);
  });

  it('a Guid related field beside objectname counts only related records of the rule\'s entity', async () => {
    const s = await setUp();
    await s.rule({ name: 'Untouched', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', nullrelatedmaxage: 0 });
    const a = await s.lead(3, 'Activity about another entity');
    await s.activity(1, a, 'account');
    const b = await s.lead(3, 'Activity about it');
    await s.activity(1, b);
    expect(await s.names()).toEqual(['Activity about another entity']);
  });

  it('a lookup related field (opportunity.originatingleadid) works the same way', async () => {
    const s = await setUp();
    await s.rule({ name: 'No deal yet', objectname: 'lead', statusvalues: '1', related: 'opportunity.originatingleadid', relatedmaxage: 10, nullrelatedmaxage: 0 });
    const withDeal = await s.lead(30, 'With a recent deal');
    const sys = systemCaller();
    must(await s.deps.store.create(sys, 'opportunity', { name: 'Deal', originatingleadid: { id: withDeal, name: 'lead' } }));
    await s.lead(30, 'Without a deal');
    expect(await s.names()).toEqual(['Without a deal']);
  });

  it('scheduled tomorrow and next-week measure the ages from 2 and 8 days ahead', async () => {
    const s = await setUp();
    await s.rule({ name: 'Untouched', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', nullrelatedmaxage: 7 });
    await s.lead(9, 'Nine');
    await s.lead(6, 'Six');
    await s.lead(0, 'Today');
    expect(await s.names(undefined, { scheduled: 'today' })).toEqual(['Nine']);
    // Tomorrow's reference is the midnight after tomorrow: 6 days ago plus 1 day and 14 hours is past 7 days.
    expect(await s.names(undefined, { scheduled: 'tomorrow' })).toEqual(['Six', 'Nine']);
    expect(await s.names(undefined, { scheduled: 'next-week' })).toEqual(['Today', 'Six', 'Nine']);
  });
});

describe("What's Next: how rules combine (docs/whats-next.md)", () => {
  it('the union of the rules, each record once with the first rule\'s info text, newest first, 10 a page', async () => {
    const s = await setUp();
    await s.rule({ name: 'A rule', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 0, description: 'Call them' });
    await s.rule({ name: 'B rule', objectname: 'lead', statusvalues: '1;2', nullrelatedmaxage: 0, description: 'Write to them' });
    for (let i = 1; i <= 12; i++) await s.lead(i, `Lead ${i}`, i === 12 ? CONTACTED : OPEN_LEAD);
    const first = await s.list();
    expect(first.records.map((x) => x.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Lead ${i + 1}`));
    expect(first.records.every((x) => x.info === 'Call them')).toBe(true);
    expect([first.count, first.pageSize, first.moreRecords]).toEqual([12, WHATS_NEXT_PAGE_SIZE, true]);
    const second = await s.list(undefined, { page: 2 });
    expect(second.records.map((x) => [x.name, x.info])).toEqual([['Lead 11', 'Call them'], ['Lead 12', 'Write to them']]);
    expect(second.moreRecords).toBe(false);
  });

  it('categories are the entity types present; the category filter keeps one of them', async () => {
    const s = await setUp();
    await s.rule({ name: 'Leads', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 0 });
    await s.rule({ name: 'Activities', objectname: 'activity', nullrelatedmaxage: 0 });
    await s.rule({ name: 'Accounts', objectname: 'account', nullrelatedmaxage: 0 });
    const l = await s.lead(2, 'Lead');
    await s.activity(1, l);
    const all = await s.list(systemCaller(U1));
    expect(all.categories).toEqual(['activity', 'lead']);
    const leads = await s.list(systemCaller(U1), { category: 'lead' });
    expect([leads.records.map((x) => x.objectName), leads.count, leads.categories]).toEqual([['lead'], 1, ['activity', 'lead']]);
  });

  it('inactive rules are not evaluated; a broken rule is named in the notes and the others still list', async () => {
    const s = await setUp();
    await s.rule({ name: 'Off', objectname: 'lead', nullrelatedmaxage: 0, statecode: 1 });
    await s.rule({ name: 'Typo', objectname: 'leed', nullrelatedmaxage: 0 });
    await s.rule({ name: 'Bad related', objectname: 'lead', related: 'activity', nullrelatedmaxage: 0 });
    await s.rule({ name: 'Bad status', objectname: 'lead', statusvalues: 'open', nullrelatedmaxage: 0 });
    await s.rule({ name: 'Fine', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 0, description: 'ok' });
    await s.lead(1, 'Listed');
    const r = await s.list();
    expect(r.records.map((x) => [x.name, x.info])).toEqual([['Listed', 'ok']]);
    expect(r.notes).toEqual([
      'Rule Bad related: related "activity" is not entity.field',
      'Rule Bad status: statusvalues "open" do not fit lead.status',
      'Rule Typo: No Object:leed',
    ]);
  });

  it('New: the entity of the first rule that allows creation and that the caller may create', async () => {
    const s = await setUp();
    await s.rule({ name: 'A', objectname: 'account', can_create: true, nullrelatedmaxage: 0 });
    await s.rule({ name: 'B', objectname: 'lead', can_create: true, nullrelatedmaxage: 0 });
    await s.rule({ name: 'C', objectname: 'activity', can_create: false, nullrelatedmaxage: 0 });
    expect((await s.list(systemCaller())).createEntity).toBe('account');
    expect((await s.list(salesperson(U1))).createEntity).toBe('lead');
    expect((await s.list(userCaller(U1, { lead: { create: 0, read: 1, update: 0, delete: 0 } }))).createEntity).toBe(null);
  });

  it('the newest related record of every candidate comes from one aggregate query, not one query per record', async () => {
    const s = await setUp();
    await s.rule({ name: 'Quiet', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', relatedmaxage: 7, nullrelatedmaxage: 7 });
    for (let i = 0; i < 40; i++) {
      const id = await s.lead(30, `Lead ${i}`);
      if (i % 2 === 0) await s.activity(10, id);
    }
    s.resetReads();
    expect((await s.list()).count).toBe(40);
    // The rules, the reminders due (issue 18), one page of candidates, one aggregate of their activities.
    expect(s.reads()).toBe(4);
  });

  it('a time zone that is not one is ERR_INPUT', async () => {
    const s = await setUp();
    const r = await whatsNext(s.deps, salesperson(U1), { ...defaultWhatsNextFilters(salesperson(U1)), timeZone: 'Mars/Olympus' });
    expect(isLeft(r) && r.left).toMatchObject({ code: 'ERR_INPUT', message: 'Invalid time zone: Mars/Olympus' });
  });
});

describe("What's Next: a user sees only records they may read", () => {
  it('owner: the default is the caller\'s records; null lists every owner\'s records the caller may read', async () => {
    const s = await setUp();
    await s.rule({ name: 'Open', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 0 });
    await s.lead(2, 'Mine');
    await s.lead(1, "Colleague's", OPEN_LEAD, U2);
    expect(await s.names(systemCaller(U1))).toEqual(['Mine']);
    expect(await s.names(systemCaller(U1), { owner: U2 })).toEqual(["Colleague's"]);
    expect(await s.names(systemCaller(U1), { owner: null })).toEqual(["Colleague's", 'Mine']);
    // A salesperson reads their own leads only: another owner's list is empty for them.
    expect(await s.names(salesperson(U1), { owner: null })).toEqual(['Mine']);
    expect(await s.names(salesperson(U1), { owner: U2 })).toEqual([]);
  });

  it('a user who may not read the rule\'s entity gets nothing from it, and no note', async () => {
    const s = await setUp();
    await s.rule({ name: 'Open', objectname: 'lead', statusvalues: '1', nullrelatedmaxage: 0 });
    await s.lead(2, 'Mine');
    const r = await s.list(userCaller(U1, { account: uniformLevels(3) }));
    expect([r.records, r.notes, r.categories]).toEqual([[], [], []]);
  });

  it("a colleague's follow-up counts even where the caller may not read it (only its date is used)", async () => {
    const s = await setUp();
    await s.rule({ name: 'Quiet', objectname: 'lead', statusvalues: '1', related: 'activity.objectid', relatedmaxage: 7, nullrelatedmaxage: 0 });
    const id = await s.lead(20, 'Called by a colleague yesterday');
    await s.activity(1, id, 'lead', U2);
    expect(await s.names(salesperson(U1))).toEqual([]);
  });
});

describe("What's Next: properties", () => {
  it('raising relatedmaxage or nullrelatedmaxage never adds records', async () => {
    const s = await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await s.lead(i * 2 + 1, `Lead ${i}`));
    for (let i = 0; i < 12; i += 2) await s.activity(i, ids[i]);
    for (let i = 0; i < 12; i += 3) await s.activity(i + 1, ids[i]);
    const listed = async (related: number, nullRelated: number): Promise<Set<string>> => {
      const deps = s.deps;
      const rec = must(await deps.store.create(systemCaller(), NEXT_RULE_ENTITY, { name: 'P', objectname: 'lead', related: 'activity.objectid', relatedmaxage: related, nullrelatedmaxage: nullRelated }));
      const r = new Set<string>();
      for (let page = 1; ; page++) {
        const got = await s.list(undefined, { page });
        for (const x of got.records) r.add(String(x.name));
        if (!got.moreRecords) break;
      }
      must(await deps.store.delete(systemCaller(), NEXT_RULE_ENTITY, { id: rec }));
      return r;
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 }), async (a, b, da, db) => {
        const before = await listed(a, b);
        const after = await listed(a + da, b + db);
        for (const x of after) expect(before.has(x), `${x} listed at ${a + da}/${b + db} days but not at ${a}/${b}`).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
