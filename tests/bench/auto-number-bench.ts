// Auto numbers benchmark (issue 16): 1000 creates of an entity with an auto number (inu_autonumber
// row: the rule reads the configuration in the create's transaction and takes the number with one
// UPDATE ... RETURNING) against 1000 creates of the same entity without one, in the same process
// on the same SQLite file. Goal: with / without >= 0.8 (creates per CPU second of the process).
// Also printed: what reading the configuration in every create costs an entity that has none
// (the product's rules against no rules at all): the price of "a change takes effect at once"
// without a cache; and the same with atomic executeMultiple batches of 1000 (import's path).
// Run: node --import tsx tests/bench/auto-number-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  AUTO_NUMBER_ENTITY,
  auditEntity,
  migrateSchema,
  systemCaller,
  systemClock,
  systemPack,
  withSystemFields,
  type Entity,
  type RecordStore,
  type WriteItem,
} from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const CREATES = 1000;
const ROUNDS = 4;

const declared = (logicalName: string): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties: [
    { logicalName: 'code', displayName: 'Code', type: 'String', max: 20 },
    { logicalName: 'amount', displayName: 'Amount', type: 'Money' },
    { logicalName: 'city', displayName: 'City', type: 'String', max: 100 },
  ],
});
const withFields = (e: Entity): Entity => {
  const r = withSystemFields(e);
  if (r._tag === 'Left') throw new Error(r.left.message);
  return r.right;
};
const system = (name: string): Entity => systemPack().entities.find((e) => e.logicalName === name)!;
const entities = [system('systemuser'), system('team'), system(AUTO_NUMBER_ENTITY), withFields(declared('numbered')), withFields(declared('plain')), auditEntity];

const dir = mkdtempSync(join(tmpdir(), 'tessera-autonumber-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), entities);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);

const ids = { newId: () => randomUUID() };
const runner = new SqliteRunner(raw);
const store = new KyselyRecordStore(runner, lookup, systemClock, ids);
const bare = new KyselyRecordStore(runner, lookup, systemClock, ids, undefined, undefined, []);
const sys = systemCaller();

const made = await store.create(sys, AUTO_NUMBER_ENTITY, { name: 'numbered', objectname: 'numbered', fieldname: 'code', prefix: 'N-', nextnumber: 1, digits: 6 });
if (made._tag === 'Left') throw new Error(made.left.message);

const CHUNK = 100;
/**
 * The process's CPU time in ms (user + system): the SQLite runner is synchronous, so it is the
 * work a create costs, and it does not count the time other processes of a shared machine take.
 */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/**
 * Every timed sample starts with an empty WAL: otherwise SQLite's automatic checkpoint (every 1000
 * pages) lands on whichever sample crosses it, and with a fixed order of samples that was always
 * the same kind (one measured kind paid every checkpoint; the ratio read 0.6 or 0.9 by order alone).
 */
const freshWal = () => raw.pragma('wal_checkpoint(TRUNCATE)');
const creates = async (s: RecordStore, entity: string, n = CHUNK): Promise<number> => {
  freshWal();
  const t = cpuMs();
  for (let i = 0; i < n; i++) {
    const r = await s.create(sys, entity, { name: `Record ${i}`, amount: i, city: 'Bratislava' });
    if (r._tag === 'Left') throw new Error(r.left.message);
  }
  return cpuMs() - t;
};
const batch = async (s: RecordStore, entity: string): Promise<number> => {
  const items: WriteItem[] = Array.from({ length: CREATES }, (_, i) => ({ operation: 'create', name: entity, object: { name: `Batch ${i}`, amount: i } }));
  freshWal();
  const t = cpuMs();
  const r = await s.executeMultiple(sys, items, { atomic: true });
  if (r._tag === 'Left' || r.right.some((x) => 'error' in x)) throw new Error('batch failed');
  return cpuMs() - t;
};

// Warm up (statement caches, JIT). Then 1000 creates of each kind in chunks of 100, interleaved,
// ROUNDS times; the best chunk of each kind counts, x10 (CPU time of this process, and the best
// chunk: the machine is shared, and the ratio compares like with like).
await creates(store, 'numbered', CREATES);
await creates(store, 'plain', CREATES);
await creates(bare, 'plain', CREATES);
const best = { numbered: Infinity, plain: Infinity, bare: Infinity, batchNumbered: Infinity, batchPlain: Infinity };
for (let r = 0; r < ROUNDS; r++) {
  // The order of the kinds turns every time (ABC, CBA, ...), so none is always first or last.
  for (let c = 0; c < CREATES / CHUNK; c++) {
    const kinds = [
      async () => (best.numbered = Math.min(best.numbered, (await creates(store, 'numbered')) * (CREATES / CHUNK))),
      async () => (best.plain = Math.min(best.plain, (await creates(store, 'plain')) * (CREATES / CHUNK))),
      async () => (best.bare = Math.min(best.bare, (await creates(bare, 'plain')) * (CREATES / CHUNK))),
    ];
    for (const k of c % 2 ? kinds.reverse() : kinds) await k();
  }
  for (let b = 0; b < 6; b++) {
    const kinds = [
      async () => (best.batchNumbered = Math.min(best.batchNumbered, await batch(store, 'numbered'))),
      async () => (best.batchPlain = Math.min(best.batchPlain, await batch(store, 'plain'))),
    ];
    for (const k of b % 2 ? kinds.reverse() : kinds) await k();
  }
}

// Every numbered record has its own number, none missing.
const numbers = raw.prepare(`SELECT COUNT(DISTINCT code) AS n, COUNT(*) AS c, MAX(code) AS last FROM numbered`).get() as { n: number; c: number; last: string };
if (numbers.n !== numbers.c) throw new Error(`duplicate numbers: ${numbers.n} distinct of ${numbers.c}`);
if (numbers.last !== `N-${String(numbers.c).padStart(6, '0')}`) throw new Error(`gaps: last ${numbers.last} of ${numbers.c}`);

const line = (name: string, value: number, goal: number, note: string) =>
  console.log(`bench ${name}: ${value.toFixed(2)} ratio (goal ${goal}) ${value >= goal ? 'ok' : 'short'}  # ${note}`);
const perCreate = (ms: number) => `${((ms / CREATES) * 1000).toFixed(0)} us CPU/create`;
line('auto-number creates, with / without', best.plain / best.numbered, 0.8, `${perCreate(best.numbered)} with, ${perCreate(best.plain)} without`);
line('auto-number config read per create, rules / no rules', best.bare / best.plain, 0.8, `${perCreate(best.plain)} with the rules, ${perCreate(best.bare)} without any`);
line('auto-number atomic batch of 1000, with / without', best.batchPlain / best.batchNumbered, 0.8, `${best.batchNumbered.toFixed(0)} ms CPU with, ${best.batchPlain.toFixed(0)} ms CPU without`);

raw.close();
rmSync(dir, { recursive: true, force: true });
