import { describe, expect, it } from 'vitest';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { InuViewRecord, WhatsNextAnswer, WhatsNextRequest } from '../core.js';
import { builtInPacks, InMemoryRecordStore, systemCaller, whatsNext } from '../core.js';
import { NEXT_LIST_FILTER_KEY, newRecordLink, ownerSearchRequest, rowLink, ruleLink, whatsNextModel, type WhatsNextApi } from './whats-next-model.js';

const ME = { id: '11111111-1111-4111-8111-111111111111', label: 'Nina North' };
const answer = (over: Partial<WhatsNextAnswer> = {}): WhatsNextAnswer => ({
  records: [],
  count: 0,
  page: 1,
  pageSize: 10,
  moreRecords: false,
  categories: [],
  createEntity: null,
  reference: '2026-11-24T10:00:00.000Z',
  notes: [],
  ...over,
});
const row = (id: string, name: string) => ({ id, objectName: 'lead', name, createdon: '2026-11-20T10:00:00.000Z', info: null, rule: 'r1' });
const memory = () => {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v), m };
};
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A client whose answers the test releases one by one, recording each request and its signal. */
const controlled = () => {
  const calls: Array<{ request: WhatsNextRequest; signal?: AbortSignal; answer: (a: WhatsNextAnswer) => void; fail: (e: unknown) => void }> = [];
  const api: WhatsNextApi = {
    whatsNext: (request, signal) =>
      new Promise((resolve, reject) => {
        calls.push({ request, signal, answer: resolve, fail: reject });
      }),
  };
  return { api, calls };
};

describe("What's Next screen model (spec 002 sections 2 and 4)", () => {
  it('starts at scheduled today and the current user as owner, every category, page 1, in the browser time zone', async () => {
    const { api, calls } = controlled();
    const m = whatsNextModel({ api, me: ME, memory: memory(), timeZone: 'Europe/Bratislava' });
    const stop = m.start();
    expect(calls[0].request).toEqual({ scheduled: 'today', owner: ME.id, category: null, page: 1, timeZone: 'Europe/Bratislava' });
    expect(m.loading.value).toBe(true);
    calls[0].answer(answer({ records: [row('a', 'Lead A')], count: 1, categories: ['lead'], createEntity: 'lead' }));
    await tick();
    expect([m.rows.value?.map((r) => r.name), m.categories.value, m.createEntity.value, m.loading.value]).toEqual([['Lead A'], ['lead'], 'lead', false]);
    stop();
  });

  it('changing a filter cancels the load in flight: its signal is aborted and its late answer is never shown', async () => {
    const { api, calls } = controlled();
    const m = whatsNextModel({ api, me: ME, memory: memory(), timeZone: 'UTC' });
    const stop = m.start();
    m.setScheduled('tomorrow');
    expect(calls).toHaveLength(2);
    expect(calls[0].signal?.aborted).toBe(true);
    expect(calls[1].request.scheduled).toBe('tomorrow');
    calls[1].answer(answer({ records: [row('b', 'Tomorrow')], count: 1 }));
    calls[0].answer(answer({ records: [row('a', 'Stale')], count: 1 }));
    await tick();
    expect(m.rows.value?.map((r) => r.name)).toEqual(['Tomorrow']);
    m.setOwner(null);
    expect(calls[2].request.owner).toBe(null);
    stop();
    expect(calls[2].signal?.aborted).toBe(true);
  });

  it('a failed load is only logged, and loading ends', async () => {
    const { api, calls } = controlled();
    const logged: string[] = [];
    const m = whatsNextModel({ api, me: ME, memory: memory(), log: (msg) => logged.push(msg) });
    const stop = m.start();
    calls[0].fail(new Error('Server Error: boom'));
    await tick();
    expect([m.loading.value, m.failed.value, m.rows.value]).toEqual([false, true, []]);
    expect(logged).toEqual(["What's Next: the list could not be loaded"]);
    stop();
  });

  it("the rules' notes are logged, not shown", async () => {
    const { api, calls } = controlled();
    const logged: string[] = [];
    const m = whatsNextModel({ api, me: ME, memory: memory(), log: (msg) => logged.push(msg) });
    const stop = m.start();
    calls[0].answer(answer({ notes: ['Rule X: No Object:leed'] }));
    await tick();
    expect(logged).toEqual(["What's Next: Rule X: No Object:leed"]);
    stop();
  });

  it('a filter change goes back to page 1; the next page only while there are more records', async () => {
    const { api, calls } = controlled();
    const m = whatsNextModel({ api, me: ME, memory: memory() });
    const stop = m.start();
    m.nextPage();
    expect(calls).toHaveLength(1);
    calls[0].answer(answer({ count: 25, moreRecords: true }));
    await tick();
    m.nextPage();
    expect([calls[1].request.page, m.pages.value]).toEqual([2, 3]);
    m.setCategory('lead');
    expect(calls[2].request).toMatchObject({ category: 'lead', page: 1 });
    stop();
  });

  it('remembers the filters as nextListFilter for this user; another user starts at the defaults', async () => {
    const mem = memory();
    const a = controlled();
    const m = whatsNextModel({ api: a.api, me: ME, memory: mem });
    const stop = m.start();
    m.setScheduled('next-week');
    m.setOwner({ id: '22222222-2222-4222-8222-222222222222', label: 'Sam South' });
    stop();
    expect(JSON.parse(mem.m.get(NEXT_LIST_FILTER_KEY)!)).toMatchObject({ user: ME.id, scheduled: 'next-week', owner: { label: 'Sam South' } });
    const again = controlled();
    const stopAgain = whatsNextModel({ api: again.api, me: ME, memory: mem }).start();
    expect(again.calls[0].request).toMatchObject({ scheduled: 'next-week', owner: '22222222-2222-4222-8222-222222222222' });
    stopAgain();
    const other = controlled();
    const stopOther = whatsNextModel({ api: other.api, me: { id: '33333333-3333-4333-8333-333333333333', label: 'Tom' }, memory: mem }).start();
    expect(other.calls[0].request).toMatchObject({ scheduled: 'today', owner: '33333333-3333-4333-8333-333333333333' });
    stopOther();
  });

  it('a record opens its form; a virtual record (id "0") opens a new one with its init JSON; New goes to /!/edit/{entity}/0', () => {
    expect(rowLink('sales', row('abc', 'A'))).toBe('/sales/edit/lead/abc');
    expect(rowLink('sales', { ...row('0', 'Virtual'), init: { name: 'Follow up', regarding: 'x' } })).toBe(
      `/sales/edit/lead/0?init=${encodeURIComponent('{"name":"Follow up","regarding":"x"}')}`,
    );
    expect(newRecordLink('lead')).toBe('/!/edit/lead/0');
    expect(ruleLink('sales', row('abc', 'A'))).toBe('/sales/edit/inu_nextrule/r1');
  });

  it("the owner picker searches with the NextListUsers view's query and the typed start of a name", () => {
    const view: InuViewRecord = {
      name: 'NextListUsers',
      kind: 'view',
      objectname: 'systemuser',
      body: JSON.stringify({ query: { name: 'systemuser', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] }, orders: [{ attribute: 'name' }] }, columns: [{ name: 'name' }] }),
    };
    const parse = (g: InuViewRecord) => JSON.parse(g.body) as unknown;
    expect(ownerSearchRequest([view], parse, 'Ni%').entity.filter).toEqual({
      type: 'and',
      filters: [{ conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] }, { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: 'Ni\\%%' }] }],
    });
    // Without the view (an organization created before it existed): every user, by name.
    expect(ownerSearchRequest([], parse, '').entity).toEqual({ name: 'systemuser', attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'emailaddress' }], orders: [{ attribute: 'name' }] });
  });

  it("over the core's service: the seeded rule's records, 10 a page, newest first", async () => {
    const entities = builtInPacks().flatMap((p) => p.entities);
    let n = 0;
    let at = new Date('2026-11-01T10:00:00Z');
    const clock = { now: () => at };
    const store = new InMemoryRecordStore((x) => entities.find((e) => e.logicalName === x), clock, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const sys = systemCaller(ME.id);
    await store.create(sys, 'inu_nextrule', { name: 'New leads', objectname: 'lead', statusfield: 'status', statusvalues: '1', nullrelatedmaxage: 0, can_create: true });
    for (let i = 0; i < 12; i++) {
      at = new Date(Date.UTC(2026, 10, 2 + i));
      await store.create(sys, 'lead', { name: `Lead ${i + 1}`, status: 1, ownerid: { id: ME.id, name: 'systemuser' } });
    }
    at = new Date('2026-11-24T10:00:00Z');
    const api: WhatsNextApi = {
      whatsNext: async (r) => {
        const res = await whatsNext({ store, clock, entities }, sys, { scheduled: r.scheduled ?? 'today', owner: r.owner === undefined ? ME.id : r.owner, category: r.category ?? null, page: r.page ?? 1, timeZone: r.timeZone ?? 'UTC' });
        if (isLeft(res)) throw new Error(res.left.message);
        return res.right;
      },
    };
    const m = whatsNextModel({ api, me: ME, memory: memory(), timeZone: 'UTC' });
    const stop = m.start();
    await tick();
    await tick();
    expect(m.rows.value?.map((r) => r.name)).toEqual(['Lead 12', 'Lead 11', 'Lead 10', 'Lead 9', 'Lead 8', 'Lead 7', 'Lead 6', 'Lead 5', 'Lead 4', 'Lead 3']);
    expect([m.count.value, m.pages.value, m.createEntity.value]).toEqual([12, 2, 'lead']);
    stop();
  });
});
