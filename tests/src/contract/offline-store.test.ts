import { describe, expect, it } from 'vitest';
import { InMemoryOfflineStore, type OfflineStore, type QueueEntry } from '@tessera/core/internal';

/**
 * The OfflineStore port's contract (core/src/offline/offline-store.ts, issue 21 "Offline data"),
 * one body for every implementation. The IndexedDB adapter of the web client joins `fixtures`
 * (with fake-indexeddb or in the browser) when it lands; a fresh store per test.
 */
const fixtures: Array<[string, () => Promise<OfflineStore>]> = [['InMemoryOfflineStore', async () => new InMemoryOfflineStore()]];

const queue: QueueEntry[] = [
  { kind: 'create', entity: 'account', clientId: 'c1', fields: { name: 'New', parentid: { id: 's1', name: 'account', label: 'Acme' } } },
  { kind: 'update', entity: 'account', id: 's1', versionnumber: 4, fields: { name: 'x' }, base: { name: 'y' } },
  { kind: 'delete', entity: 'contact', id: 's9', versionnumber: 2, error: 'ERR_PERMISSION: no' },
];

describe.each(fixtures)('OfflineStore contract: %s', (_name, make) => {
  it('keeps records by entity; put replaces by id; delete removes (missing ids are fine)', async () => {
    const s = await make();
    expect(await s.records('account')).toEqual([]);
    await s.putRecords('account', [{ id: 'a', name: 'A', versionnumber: 1 }, { id: 'b', name: 'B' }]);
    await s.putRecords('contact', [{ id: 'a', name: 'contact A' }]);
    await s.putRecords('account', [{ id: 'a', name: 'A2', versionnumber: 2 }]);
    const accounts = (await s.records('account')).sort((x, y) => String(x.id).localeCompare(String(y.id)));
    expect(accounts).toEqual([{ id: 'a', name: 'A2', versionnumber: 2 }, { id: 'b', name: 'B' }]);
    await s.deleteRecords('account', ['b', 'missing']);
    expect(await s.records('account')).toEqual([{ id: 'a', name: 'A2', versionnumber: 2 }]);
    expect((await s.entities()).sort()).toEqual(['account', 'contact']);
  });

  it('keeps the queue in order with every kind of entry, errors and conflicts included', async () => {
    const s = await make();
    expect(await s.queue()).toEqual([]);
    const withConflict: QueueEntry[] = [...queue, { ...queue[1]!, conflict: { message: 'This record was modified by Eva', modifier: 'Eva', fields: ['name'], server: { id: 's1', name: 'z' } } }];
    await s.setQueue(withConflict);
    expect(await s.queue()).toEqual(withConflict);
    await s.setQueue(queue.slice(1));
    expect(await s.queue()).toEqual(queue.slice(1));
  });

  it('hands out copies: changing what came out or went in does not change the store', async () => {
    const s = await make();
    const r = { id: 'a', name: 'A' };
    await s.putRecords('account', [r]);
    r.name = 'changed';
    const out = await s.records('account');
    out[0]!.name = 'changed too';
    expect(await s.records('account')).toEqual([{ id: 'a', name: 'A' }]);
    const q = [...queue];
    await s.setQueue(q);
    q.pop();
    expect(await s.queue()).toHaveLength(3);
  });

  it('keeps the id map, the cached user context, the last sync time and the local password; clear forgets all', async () => {
    const s = await make();
    expect(await s.userContext()).toBeUndefined();
    expect(await s.lastSync()).toBeUndefined();
    expect(await s.localPassword()).toBeUndefined();
    await s.setIdMap({ c1: 'srv-1' });
    await s.setUserContext({ user: { id: 'u1' }, orgName: 'Demo' });
    await s.setLastSync('2026-11-25T05:00:00.000Z');
    const p = { organization: 'o', email: 'e@x', params: { algorithm: 'PBKDF2' as const, hash: 'SHA-256' as const, iterations: 100000, saltBytes: 32, keyBytes: 32 }, salt: '00', hash: '11' };
    await s.setLocalPassword(p);
    await s.setQueue(queue);
    await s.putRecords('account', [{ id: 'a' }]);
    expect(await s.idMap()).toEqual({ c1: 'srv-1' });
    expect(await s.userContext()).toEqual({ user: { id: 'u1' }, orgName: 'Demo' });
    expect(await s.lastSync()).toBe('2026-11-25T05:00:00.000Z');
    expect(await s.localPassword()).toEqual(p);
    await s.clear();
    expect(await s.idMap()).toEqual({});
    expect(await s.userContext()).toBeUndefined();
    expect(await s.lastSync()).toBeUndefined();
    expect(await s.localPassword()).toBeUndefined();
    expect(await s.queue()).toEqual([]);
    expect(await s.entities()).toEqual([]);
  });
});
