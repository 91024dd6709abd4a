// What's Next benchmark (issue 17). The demo's entities in an organization's SQLite database on disk:
// 10,000 open leads of one owner, 20,000 activities on half of them, and the rule "open leads with no
// activity for 7 days" (related activity.objectid, relatedmaxage 7, nullrelatedmaxage 7).
// 1. The list (POST /api/whatsnext's use case: every candidate checked, one page answered) against
//    the plain read of the same candidates in the same run. The newest related record per candidate
//    comes from one aggregate per 1,000 candidates. Goal: at most 3x the plain read.
// 2. The aggregate against one query per candidate (what "not N queries" avoids), on 1,000 leads.
//    Goal: at least 10x faster.
// Run: node --import tsx tests/bench/whats-next-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { builtInPacks, migrateSchema, systemCaller, systemClock, whatsNext, type Entity, type FetchRequest } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const LEADS = 10_000;
const ACTIVITIES = 20_000;
const SECONDS = 2;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 10);

const dir = mkdtempSync(join(tmpdir(), 'tessera-whatsnext-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const entities = builtInPacks().flatMap((p) => p.entities);
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), entities);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);

const user = randomUUID();
const iso = (ms: number) => new Date(ms).toISOString();
raw.prepare(`INSERT INTO systemuser (id, name, emailaddress, versionnumber) VALUES (?, 'Bench User', 'bench@x.test', 1)`).run(user);
const insLead = raw.prepare(`INSERT INTO lead (id, name, status, ownerid, owneridTarget, createdon, modifiedon, statuscode, statecode, versionnumber) VALUES (?, ?, ?, ?, 'systemuser', ?, ?, 1, 0, 1)`);
const insActivity = raw.prepare(`INSERT INTO activity (id, name, objectid, objectname, ownerid, owneridTarget, createdon, modifiedon, statuscode, statecode, versionnumber) VALUES (?, 'Call', ?, 'lead', ?, 'systemuser', ?, ?, 1, 0, 1)`);
const leadIds: string[] = [];
raw.transaction(() => {
  for (let i = 0; i < LEADS; i++) {
    const id = randomUUID();
    leadIds.push(id);
    const created = iso(NOW - (30 + (i % 300)) * DAY);
    insLead.run(id, `Lead ${i}`, 1 + (i % 2), user, created, created);
  }
  for (let i = 0; i < ACTIVITIES; i++) {
    const at = iso(NOW - (i % 20) * DAY);
    insActivity.run(randomUUID(), leadIds[(i * 2) % LEADS], user, at, at);
  }
})();
const store = new KyselyRecordStore(new SqliteRunner(raw), lookup, { now: () => new Date(NOW) }, { newId: () => randomUUID() });
const sys = systemCaller(user);
const created = await store.create(systemCaller(), 'inu_nextrule', { name: 'Quiet leads', objectname: 'lead', statusfield: 'status', statusvalues: '1;2', related: 'activity.objectid', relatedmaxage: 7, nullrelatedmaxage: 7 });
if (created._tag === 'Left') throw new Error(created.left.message);

const deps = { store, clock: { now: () => new Date(NOW) }, entities: applied };
const filters = { scheduled: 'today' as const, owner: user, category: null, page: 1, timeZone: 'Europe/Bratislava' };

const perSecond = async (f: () => Promise<unknown>): Promise<number> => {
  await f();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) {
    await f();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
};
const line = (name: string, value: number, unit: string, goal: string, ok: boolean) =>
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);

// 1. The list against the plain read of its candidates.
const check = await whatsNext(deps, sys, filters);
if (check._tag === 'Left') throw new Error(check.left.message);
if (check.right.count === 0) throw new Error('the rule listed nothing');
const candidatePage = (page: number): FetchRequest => ({
  entity: {
    name: 'lead',
    attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'createdon' }],
    filter: { type: 'and', conditions: [{ attribute: 'status', operator: 'in', value: [1, 2] }, { attribute: 'ownerid', operator: 'eq', value: user }] },
    orders: [{ attribute: 'createdon', descending: true }],
  },
  page,
  pageSize: 1000,
});
const plainRead = async () => {
  for (let p = 1; p <= LEADS / 1000; p++) await store.retrieveMultiple(sys, candidatePage(p));
};
const listPerSecond = await perSecond(() => whatsNext(deps, sys, filters));
const plainPerSecond = await perSecond(plainRead);
const listMs = 1000 / listPerSecond;
const plainMs = 1000 / plainPerSecond;
console.log(`# ${LEADS} candidates, ${ACTIVITIES} activities, ${check.right.count} listed: list ${listMs.toFixed(0)} ms, plain read of the candidates ${plainMs.toFixed(0)} ms`);
line('whatsnext list of 10k candidates', listMs, 'ms', '<= 3x the plain read of the candidates', listMs <= 3 * plainMs);

// 2. One aggregate against one query per candidate, on 1,000 leads.
const thousand = leadIds.slice(0, 1000);
const aggregate = () =>
  store.retrieveMultiple(sys, {
    entity: {
      name: 'activity',
      attributes: [{ attribute: 'objectid', groupBy: true, alias: 'ref' }, { attribute: 'createdon', aggregate: 'max', alias: 'newest' }],
      filter: { type: 'and', conditions: [{ attribute: 'objectid', operator: 'in', value: thousand }, { attribute: 'objectname', operator: 'eq', value: 'lead' }] },
    },
    page: 1,
    pageSize: 1000,
  });
const perRecord = async () => {
  for (const id of thousand)
    await store.retrieveMultiple(sys, {
      entity: {
        name: 'activity',
        attributes: [{ attribute: 'createdon' }],
        filter: { type: 'and', conditions: [{ attribute: 'objectid', operator: 'eq', value: id }, { attribute: 'objectname', operator: 'eq', value: 'lead' }] },
        orders: [{ attribute: 'createdon', descending: true }],
      },
      page: 1,
      pageSize: 1,
    });
};
const aggMs = 1000 / (await perSecond(aggregate));
const perRecordMs = 1000 / (await perSecond(perRecord));
line('whatsnext newest related of 1000 candidates (one aggregate vs a query each)', perRecordMs / aggMs, 'x faster', '>= 10x', perRecordMs / aggMs >= 10);
console.log(`# aggregate ${aggMs.toFixed(1)} ms, a query per candidate ${perRecordMs.toFixed(0)} ms`);

raw.close();
rmSync(dir, { recursive: true, force: true });
