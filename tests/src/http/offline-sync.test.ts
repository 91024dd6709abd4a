import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { right } from 'fp-ts/lib/Either.js';
import {
  applyPull,
  coalesce,
  deletionsOf,
  pullRequests,
  runSync,
  type EntityRecord,
  type ItemResult,
  type QueuedChange,
  type SyncState,
  type SyncTransport,
} from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 21 over HTTP: a Sync plan (core/src/offline) run against the real server through
 * /api/executemultiple and /api/fetch. Queued creates, updates and deletes arrive (a contact
 * created offline points at an account created offline: the lookup arrives with the server's id);
 * a record changed meanwhile by another session merges (other fields) or waits with 'This record
 * was modified by {modifier}' (same field); a Sync cut half way resumes without loss or duplicates;
 * the pull then brings changes since the last sync and the deletions from the audit entity.
 */
const PW = 'offline-password-1';

const transport = (api: Api, failOnCall?: number): SyncTransport & { calls: number } => {
  const t = {
    calls: 0,
    async executeMultiple(items: readonly unknown[]) {
      if (t.calls++ === failOnCall) throw new Error('network cut by the test');
      const r = await api.post('executemultiple', items);
      expect(r.status).toBe(200);
      return right<unknown, ItemResult[]>((await r.json()) as ItemResult[]);
    },
    async retrieve(entity: string, id: string) {
      const page = await api.fetchRecords({ entity: { name: entity, allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
      return page.records[0] as EntityRecord | undefined;
    },
  };
  return t;
};

const one = async (api: Api, entity: string, id: string): Promise<EntityRecord | undefined> => transport(api).retrieve(entity, id);
const strip = (t: string): string => t.trim().replace(/^"|"$/g, '');

describe('offline Sync over HTTP (issue 21)', () => {
  let h: Harness;
  let mine: Api;
  let other: Api;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('off-a', { email: 'admin@off-a.test', password: PW, name: 'Eva Admin' }, ['demo']);
    mine = new Api(h.url);
    other = new Api(h.url);
    expect((await mine.login('off-a', 'admin@off-a.test', PW)).status).toBe(200);
    expect((await other.login('off-a', 'admin@off-a.test', PW)).status).toBe(200);
    for (const n of ['keep', 'edit', 'gone', 'merge', 'clash']) ids[n] = strip(await other.create('account', { name: `Offline ${n}`, address1_city: 'Bratislava' }));
  }, 120_000);
  afterAll(async () => h?.close());

  it('queued creates, updates and deletes arrive; a lookup to a record created offline gets its server id', async () => {
    const edit = (await one(mine, 'account', ids.edit!))!;
    const gone = (await one(mine, 'account', ids.gone!))!;
    const raw: QueuedChange[] = [
      { kind: 'create', entity: 'account', clientId: 'client-acc-1', fields: { name: 'Created offline' } },
      { kind: 'create', entity: 'contact', clientId: 'client-con-1', fields: { lastname: 'Novak', parentcustomerid: { id: 'client-acc-1', name: 'account' } } },
      { kind: 'update', entity: 'account', id: ids.edit!, versionnumber: edit.versionnumber!, fields: { telephone1: '+421 900 000 000' }, base: { telephone1: null } },
      { kind: 'update', entity: 'account', id: ids.edit!, versionnumber: edit.versionnumber!, fields: { address1_city: 'Kosice' }, base: { address1_city: 'Bratislava' } },
      { kind: 'delete', entity: 'account', id: ids.gone!, versionnumber: gone.versionnumber! },
    ];
    const queue = coalesce(raw);
    expect(queue).toHaveLength(4); // the two updates merged
    const out = await runSync({ queue, idMap: {} }, transport(mine));
    expect(out.complete).toBe(true);
    const accountId = out.state.idMap['client-acc-1']!;
    const contactId = out.state.idMap['client-con-1']!;
    expect((await one(mine, 'account', accountId))!.name).toBe('Created offline');
    expect((await one(mine, 'contact', contactId))!.parentcustomerid).toMatchObject({ id: accountId });
    expect(await one(mine, 'account', ids.edit!)).toMatchObject({ telephone1: '+421 900 000 000', address1_city: 'Kosice' });
    expect(await one(mine, 'account', ids.gone!)).toBeUndefined();
  });

  it('a record changed meanwhile by another session: other fields merge, the same field waits with both versions', async () => {
    const merge = (await one(mine, 'account', ids.merge!))!;
    const clash = (await one(mine, 'account', ids.clash!))!;
    // The other session writes first.
    for (const [id, v, f] of [[ids.merge!, merge.versionnumber, { website: 'https://other.example' }], [ids.clash!, clash.versionnumber, { address1_city: 'Wien' }]] as const) {
      const r = await other.post('update', { operation: 'update', name: 'account', object: { id, versionnumber: v, ...f } });
      expect(r.status).toBe(200);
    }
    const queue = coalesce([
      { kind: 'update', entity: 'account', id: ids.merge!, versionnumber: merge.versionnumber!, fields: { address1_city: 'Zilina' }, base: { address1_city: 'Bratislava' } },
      { kind: 'update', entity: 'account', id: ids.clash!, versionnumber: clash.versionnumber!, fields: { address1_city: 'Nitra' }, base: { address1_city: 'Bratislava' } },
    ]);
    const out = await runSync({ queue, idMap: {} }, transport(mine));
    expect(await one(mine, 'account', ids.merge!)).toMatchObject({ address1_city: 'Zilina', website: 'https://other.example' });
    expect(out.complete).toBe(false);
    expect(out.state.queue).toHaveLength(1);
    const waiting = out.state.queue[0]!;
    expect(waiting.conflict!.message).toBe('This record was modified by Eva Admin');
    expect(waiting.conflict!.server.address1_city).toBe('Wien');
    expect(waiting.kind === 'update' && waiting.fields.address1_city).toBe('Nitra');
    expect((await one(mine, 'account', ids.clash!))!.address1_city).toBe('Wien');
  });

  it('a Sync cut half way resumes: nothing lost, nothing created twice; the pull then brings changes and deletions', async () => {
    const t0 = new Date(Date.now() - 1000).toISOString();
    const raw: QueuedChange[] = Array.from({ length: 7 }, (_, i) => ({ kind: 'create' as const, entity: 'account', clientId: `batch-${i}`, fields: { name: `Resume ${i}` } }));
    const t = transport(mine, 1); // the second batch is lost
    let persisted: SyncState = { queue: coalesce(raw), idMap: {} };
    const first = await runSync(persisted, t, async (s) => void (persisted = s), 3);
    expect(first.complete).toBe(false);
    expect(persisted.queue).toHaveLength(4); // the first batch of 3 acknowledged, the rest still queued
    const second = await runSync(persisted, t, async (s) => void (persisted = s), 3);
    expect(second.complete).toBe(true);
    const names = (await mine.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Resume %' }] } } })).records.map((r) => r.name);
    expect(names.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `Resume ${i}`));

    // Pull: another session changes one record and deletes another after t0.
    const keep = (await one(other, 'account', ids.keep!))!;
    expect((await other.post('update', { operation: 'update', name: 'account', object: { id: ids.keep, versionnumber: keep.versionnumber, name: 'Renamed online' } })).status).toBe(200);
    const victim = second.state.idMap['batch-0']!;
    expect((await other.post('update', { operation: 'delete', name: 'account', object: { id: victim } })).status).toBe(200);
    const req = pullRequests([{ entity: 'account' }], t0);
    const changed = await mine.fetchRecords(req.changed[0]);
    const deleted = await mine.fetchRecords(req.deleted);
    const local = new Map<string, EntityRecord>([[`account\u0000${victim}`, { id: victim, name: 'Resume 0' }]]);
    const after = applyPull(local, { changed: [{ entity: 'account', records: changed.records as EntityRecord[] }], deleted: deletionsOf(deleted.records) }, []);
    expect(after.has(`account\u0000${victim}`)).toBe(false);
    expect(after.get(`account\u0000${ids.keep}`)!.name).toBe('Renamed online');
  });
});
