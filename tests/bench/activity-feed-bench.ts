// Activity feed benchmark (issue 18): what the read rule "an activity's read follows its regarding
// record" (core/src/store/regarding-scope.ts) costs, in an organization's SQLite database on disk
// with the built-in packs' schema. 500 accounts (a fifth owned by the reader), 40,000 activities about
// them. The reader reads every activity (organization level) and only their own accounts, so every
// query of theirs carries the rule's join; the baseline is the same query by a caller the rule does
// not apply to (organization level on accounts too: the rule adds nothing), in the same run.
// 1. The feed of one record (feedRequest: objectname and objectid pinned, newest first, 20 with the
//    attachment's link). Goal: 80% of the baseline.
// 2. A list of all activities (page 1 of 50 with count, newest first): one join per partly read
//    entity. Goal: 25% of the baseline (the count must look at the regarding row of every activity).
// Run: node --import tsx tests/bench/activity-feed-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { builtInPacks, feedRequest, migrateSchema, packMask, systemCaller, systemClock, type Caller, type Entity, type FetchRequest, type WriteItem } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const ACCOUNTS = 500;
const ACTIVITIES = 40_000;
const SECONDS = 2;

const dir = mkdtempSync(join(tmpdir(), 'tessera-activity-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const entities = builtInPacks().flatMap((p) => p.entities);
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), entities);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);
const store = new KyselyRecordStore(new SqliteRunner(raw), lookup, systemClock, { newId: () => randomUUID() });

const reader = randomUUID();
const other = randomUUID();
const sys = systemCaller(reader);
const caller = (accountRead: 1 | 3): Caller => ({
  userId: reader,
  teams: [],
  permissions: {
    permissions: {
      account: packMask({ create: 1, read: accountRead, update: 1, delete: 1 }),
      activity: packMask({ create: 1, read: 3, update: 1, delete: 1 }),
      document: packMask({ create: 1, read: 3, update: 1, delete: 1 }),
      contact: packMask({ create: 1, read: 1, update: 1, delete: 1 }),
      opportunity: packMask({ create: 1, read: 1, update: 1, delete: 1 }),
    },
    apps: [],
    owners: [],
    needsTeams: false,
  },
});
const partial = caller(1);
const whole = caller(3);

const run = async (items: WriteItem[]): Promise<void> => {
  for (let i = 0; i < items.length; i += 1000) {
    const r = await store.executeMultiple(sys, items.slice(i, i + 1000), { atomic: true });
    if (r._tag === 'Left') throw new Error(r.left.message);
    const failed = r.right.find((x) => 'error' in x);
    if (failed) throw new Error(JSON.stringify(failed));
  }
};
const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({ id: randomUUID(), mine: i % 5 === 0 }));
await run(accounts.map((a, i) => ({ operation: 'create', name: 'account', object: { id: a.id, name: `Account ${i}`, ownerid: a.mine ? reader : other } })));
await run(
  Array.from({ length: ACTIVITIES }, (_, i) => ({
    operation: 'create' as const,
    name: 'activity',
    object: { type: 1, body: `Comment ${i} about the account`, ownerid: i % 2 ? reader : other, objectname: 'account', objectid: accounts[i % ACCOUNTS].id },
  })),
);
raw.pragma('analysis_limit = 1000');
raw.exec('ANALYZE');

/** Queries per second of two runs measured in alternating slices, so that load on the machine hits both alike. */
const rates = async (a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> => {
  for (let i = 0; i < 5; i++) await Promise.all([a(), b()]);
  const n = [0, 0];
  const ms = [0, 0];
  for (let round = 0; round < SECONDS * 4; round++) {
    for (const [k, fn] of [a, b].entries()) {
      const start = performance.now();
      while (performance.now() - start < 125) {
        await fn();
        n[k]++;
      }
      ms[k] += performance.now() - start;
    }
  }
  return [(n[0] * 1000) / ms[0], (n[1] * 1000) / ms[1]];
};
const fetchAs = (c: Caller, request: FetchRequest) => async () => {
  const r = await store.retrieveMultiple(c, request);
  if (r._tag === 'Left') throw new Error(r.left.message);
  return r.right;
};
const line = (name: string, value: number, unit: string, goal: string, ok: boolean): void =>
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);

// The rule must hold: the partial reader sees the activities of their own accounts only.
const mine = accounts.find((a) => a.mine)!;
const theirs = accounts.find((a) => !a.mine)!;
const all: FetchRequest = { entity: { name: 'activity', attributes: [{ attribute: 'body' }, { attribute: 'createdon' }], orders: [{ attribute: 'createdon', descending: true }] }, page: 1, pageSize: 50, count: true };
const seen = await fetchAs(partial, all)();
if (seen.count !== ACTIVITIES / 5) throw new Error(`the partial reader counts ${seen.count} activities, not ${ACTIVITIES / 5}`);
if ((await fetchAs(partial, feedRequest('account', theirs.id))()).records.length !== 0) throw new Error('the feed of an unreadable account is not empty');

const [feedBase, feedRuled] = await rates(fetchAs(whole, feedRequest('account', mine.id)), fetchAs(partial, feedRequest('account', mine.id)));
line('activity feed of one record, no rule join', feedBase, 'queries/s', 'baseline', true);
line('activity feed of one record, read rule', feedRuled, 'queries/s', '>= 80% of baseline', feedRuled >= 0.8 * feedBase);
const [allBase, allRuled] = await rates(fetchAs(whole, all), fetchAs(partial, all));
line('all activities page with count, no rule join', allBase, 'queries/s', 'baseline', true);
line('all activities page with count, read rule', allRuled, 'queries/s', '>= 25% of baseline', allRuled >= 0.25 * allBase);

raw.close();
rmSync(dir, { recursive: true, force: true });
