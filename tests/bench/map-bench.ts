// Map benchmark (issue 14 "Map"): the markers' fetch of a map view over 100k records.
// 100k sites in an organization's SQLite database on disk (schema generator), three in five with
// coordinates around the default centre, a tenth closed (statecode 1).
// 1. Baseline: the list's first page (50, open records, ordered by name, with the count), what the
//    table of the same view runs.
// 2. The markers' fetch as the map model runs it (mapRequest of that list fetch: both coordinates
//    not null, 1000 a page, with the count) through KyselyRecordStore. Goal: under 250 ms, and under
//    5x the list page (twenty times the rows, so the cost is the rows, not a scan per marker).
// Run: node --import tsx tests/bench/map-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MAP_PAGE_SIZE, mapRequest, migrateSchema, systemCaller, systemClock, type Caller, type Entity, type FetchRequest } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const RECORDS = 100_000;
const RUNS = 20;
const GOAL_MS = 250;
const GOAL_RATIO = 5;

const site: Entity = {
  logicalName: 'site',
  displayName: 'Site',
  displayNamePlural: 'Sites',
  properties: [
    { logicalName: 'city', displayName: 'City', type: 'String' },
    { logicalName: 'latitude', displayName: 'Latitude', type: 'Float' },
    { logicalName: 'longitude', displayName: 'Longitude', type: 'Float' },
  ],
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] };

const dir = mkdtempSync(join(tmpdir(), 'tessera-map-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), [systemuser, site]);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);
const entity = lookup('site') as Entity;

const user = randomUUID();
raw.prepare(`INSERT INTO systemuser (id, name, versionnumber) VALUES (?, ?, 1)`).run(user, 'Admin');
const insert = raw.prepare(`INSERT INTO site (id, name, city, latitude, longitude, createdon, createdby, createdbyTarget,
  modifiedon, modifiedby, modifiedbyTarget, statuscode, statecode, versionnumber)
  VALUES (?, ?, ?, ?, ?, ?, ?, 'systemuser', ?, ?, 'systemuser', 1, ?, 1)`);
raw.transaction(() => {
  for (let i = 0; i < RECORDS; i++) {
    const placed = i % 5 < 3;
    const stamp = new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
    const k = (i * 7919) % RECORDS;
    insert.run(randomUUID(), `Site ${String(k).padStart(6, '0')}`, `City ${i % 40}`, placed ? 48 + (k % 1000) / 1000 : null, placed ? 17 + (k % 997) / 997 : null, stamp, user, stamp, user, i % 10 === 0 ? 1 : 0);
  }
})();

const store = new KyselyRecordStore(new SqliteRunner(raw), lookup, systemClock, { newId: () => randomUUID() });
const sys: Caller = systemCaller(user);
// The list's fetch of the view (what currentRequest() gives): open records, the view's columns, by name.
const list: FetchRequest = {
  entity: {
    name: 'site',
    attributes: ['name', 'city'].map((attribute) => ({ attribute })),
    filter: { type: 'and', conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] },
    orders: [{ attribute: 'name' }],
  },
  page: 1,
  pageSize: 50,
  count: true,
};
const markers = mapRequest(list, entity, { lat: 'latitude', lon: 'longitude' });

const fetchOnce = async (request: FetchRequest): Promise<number> => {
  const r = await store.retrieveMultiple(sys, request);
  if (r._tag === 'Left') throw new Error(r.left.message);
  return r.right.records.length;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timeOf = async (request: FetchRequest): Promise<number> => {
  for (let i = 0; i < 3; i++) await fetchOnce(request);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fetchOnce(request);
    times.push(performance.now() - start);
  }
  return median(times);
};
const line = (name: string, value: number, unit: string, goal: string, passed: boolean): void =>
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${passed ? 'ok' : 'short'}`);

if ((await fetchOnce(markers)) !== MAP_PAGE_SIZE) throw new Error('the markers page is not full');
const listMs = await timeOf(list);
const mapMs = await timeOf(markers);
line('map list page baseline (100k sites, 50 open by name, with count)', listMs, 'ms median', 'baseline', true);
line('map markers fetch KyselyRecordStore (100k sites, 1000 with coordinates, with count)', mapMs, 'ms median', `< ${GOAL_MS} ms`, mapMs < GOAL_MS);
line('map markers fetch against the list page', mapMs / listMs, 'x', `< ${GOAL_RATIO}x`, mapMs / listMs < GOAL_RATIO);

raw.close();
rmSync(dir, { recursive: true, force: true });
