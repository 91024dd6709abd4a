// Offline Sync benchmark (issue 21 "Speed"): a sync of 500 queued changes under 5 s on this machine.
// The queue as an offline session leaves it: 200 creates of accounts, 100 contacts created offline
// pointing at some of them (lookups to client ids), 150 updates of existing accounts (with their
// versionnumbers), 50 deletes. runSync (core/src/offline/sync.ts) sends it through
// /api/executemultiple of a real server (SQLite on disk) with the batching and id mapping it uses in
// the app, persisting the state after each batch as the app does. Also: coalescing and applyPull of
// 10,000 kept records (pure, per run).
// Run: node --import tsx tests/bench/offline-sync-bench.ts (or npm run bench).
import { right } from 'fp-ts/lib/Either.js';
import {
  applyPull,
  coalesce,
  recordKey,
  runSync,
  type EntityRecord,
  type ItemResult,
  type QueuedChange,
  type SyncState,
  type WriteItem,
} from '@tessera/core/internal';
import { benchLine, startBenchServer } from './http-bench-kit.js';

const EXISTING = 200;
const server = await startBenchServer({
  fill: async (write) => {
    await write(Array.from({ length: EXISTING }, (_, i) => ({ operation: 'create', name: 'account', object: { name: `Existing ${i}`, address1_city: 'Bratislava' } })));
  },
});
const post = async (path: string, body: unknown): Promise<unknown> => {
  const r = await fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-accessptoken': server.token },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`${path} ${r.status}: ${await r.text()}`);
  return r.json();
};
try {
  const existing = ((await post('fetch', { entity: { name: 'account', attributes: [{ attribute: 'id' }, { attribute: 'versionnumber' }] }, pageSize: 5000 })) as { records: EntityRecord[] }).records;
  const raw: QueuedChange[] = [];
  for (let i = 0; i < 200; i++) raw.push({ kind: 'create', entity: 'account', clientId: `acc-${i}`, fields: { name: `Offline ${i}`, address1_city: 'Zilina' } });
  for (let i = 0; i < 100; i++) raw.push({ kind: 'create', entity: 'contact', clientId: `con-${i}`, fields: { lastname: `Novak ${i}`, parentcustomerid: { id: `acc-${i}`, name: 'account' } } });
  for (let i = 0; i < 150; i++) {
    const r = existing[i]!;
    raw.push({ kind: 'update', entity: 'account', id: r.id as string, versionnumber: r.versionnumber!, fields: { address1_city: 'Kosice' }, base: { address1_city: 'Bratislava' } });
  }
  for (let i = 150; i < 200; i++) raw.push({ kind: 'delete', entity: 'account', id: existing[i]!.id as string, versionnumber: existing[i]!.versionnumber! });
  const queue = coalesce(raw);
  let persisted: SyncState = { queue, idMap: {} };
  const started = performance.now();
  const out = await runSync(
    persisted,
    {
      executeMultiple: async (items: readonly WriteItem[]) => right<unknown, ItemResult[]>((await post('executemultiple', items)) as ItemResult[]),
      retrieve: async () => undefined,
    },
    async (s) => {
      persisted = structuredClone(s); // what an IndexedDB write costs at least: a copy of the state
    },
  );
  const ms = performance.now() - started;
  if (!out.complete || out.state.queue.length > 0) throw new Error(`sync incomplete: ${out.state.queue.length} left`);
  benchLine('offline sync of 500 queued changes (executemultiple, real server)', Math.round(ms), 'ms', '< 5000 ms', ms < 5000);

  // Pure parts at the offline size: 10,000 kept records.
  const local = new Map<string, EntityRecord>();
  for (let i = 0; i < 10_000; i++) local.set(recordKey('account', `id-${i}`), { id: `id-${i}`, name: `Kept ${i}`, versionnumber: 1 });
  const changed = Array.from({ length: 2000 }, (_, i) => ({ id: `id-${i * 5}`, name: `Changed ${i}`, versionnumber: 2 }));
  const t0 = performance.now();
  const pulled = applyPull(local, { changed: [{ entity: 'account', records: changed }], deleted: [{ entity: 'account', id: 'id-1' }] }, raw);
  const pullMs = performance.now() - t0;
  if (pulled.size !== 9_999) throw new Error('applyPull size');
  benchLine('applyPull of 2000 changes onto 10,000 kept records', pullMs.toFixed(1), 'ms', '< 100 ms', pullMs < 100);
  const t1 = performance.now();
  const many: QueuedChange[] = Array.from({ length: 5000 }, (_, i) => ({ kind: 'update', entity: 'account', id: `id-${i % 500}`, versionnumber: 1, fields: { name: `n${i}` }, base: { name: 'x' } }));
  const c = coalesce(many);
  const coalesceMs = performance.now() - t1;
  benchLine(`coalesce of 5000 edits of 500 records (to ${c.length} entries)`, coalesceMs.toFixed(1), 'ms', '< 500 ms', coalesceMs < 500);
} finally {
  await server.close();
}
