// Calendar benchmark (issue 14 "Tests and speed"): the calendar month fetch over 100k events.
// 100k appointments spread over four years (2023 to 2026, 30 minutes to 4 hours long, a tenth closed:
// statecode 1), in an organization's SQLite database on disk, created by the schema generator, with
// the (end, start) index the view-index rule adds for a calendar view (core/src/schema/view-indexes.ts).
// 1. The month fetch as the calendar model runs it (calendarRequest of the list's fetch: open records,
//    the window first of month -10 / +40 days, ordered by start, 500 a page, the owner's label) through
//    KyselyRecordStore, for a month in the middle of the data (the index's worst case: half the rows
//    end after the window starts), and for the month of the last events. Goal: under 50 ms.
// 2. The same fetch without the view index (before it is created), for comparison; no goal.
// Run: node --import tsx tests/bench/calendar-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  CALENDAR_PAGE_SIZE,
  calendarRequest,
  diffSchema,
  migrateSchema,
  schemaOfMetadata,
  systemCaller,
  systemClock,
  viewIndexes,
  withViewIndexes,
  type Caller,
  type Entity,
  type FetchRequest,
} from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const RECORDS = 100_000;
const RUNS = 30;
const GOAL_MS = 50;
const FROM = Date.UTC(2023, 0, 1);
const TO = Date.UTC(2027, 0, 1);

const appointment: Entity = {
  logicalName: 'appointment',
  displayName: 'Appointment',
  displayNamePlural: 'Appointments',
  properties: [
    { logicalName: 'scheduledstart', displayName: 'Start', type: 'DateTime' },
    { logicalName: 'scheduledend', displayName: 'End', type: 'DateTime' },
    { logicalName: 'status', displayName: 'Status', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Open' }, { value: 2, label: 'Done' }] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
  ],
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] };
const team: Entity = { logicalName: 'team', displayName: 'Team', displayNamePlural: 'Teams', properties: [] };
const view = { objectname: 'appointment', body: { viewMode: 'calendar' as const, calendarStartField: 'scheduledstart', calendarEndField: 'scheduledend', calendarGroupField: 'ownerid' } };

const dir = mkdtempSync(join(tmpdir(), 'tessera-calendar-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), [systemuser, team, appointment]);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);
const entity = lookup('appointment') as Entity;

const users = Array.from({ length: 8 }, () => randomUUID());
const insUser = raw.prepare(`INSERT INTO systemuser (id, name, versionnumber) VALUES (?, ?, 1)`);
users.forEach((u, i) => insUser.run(u, `Technician ${i}`));
const insert = raw.prepare(`INSERT INTO appointment (id, name, scheduledstart, scheduledend, status, ownerid, owneridTarget, createdon, createdby, createdbyTarget,
  modifiedon, modifiedby, modifiedbyTarget, statuscode, statecode, versionnumber)
  VALUES (?, ?, ?, ?, ?, ?, 'systemuser', ?, ?, 'systemuser', ?, ?, 'systemuser', 1, ?, 1)`);
raw.transaction(() => {
  for (let i = 0; i < RECORDS; i++) {
    // Spread evenly over the four years, on quarter hours, in an order unrelated to the insert order.
    const k = (i * 7919) % RECORDS;
    const start = Math.floor((FROM + ((TO - FROM) * k) / RECORDS) / 900_000) * 900_000;
    const end = start + (2 + (i % 15)) * 900_000;
    const stamp = new Date(FROM + i * 1000).toISOString();
    insert.run(randomUUID(), `Visit ${i}`, new Date(start).toISOString(), new Date(end).toISOString(), 1 + (i % 2), users[i % users.length], stamp, users[0], stamp, users[0], i % 10 === 0 ? 1 : 0);
  }
})();

const store = new KyselyRecordStore(new SqliteRunner(raw), lookup, systemClock, { newId: () => randomUUID() });
const sys: Caller = systemCaller(users[0]);
// The list's fetch of the calendar view (what currentRequest() gives): open records, the view's columns.
const list: FetchRequest = {
  entity: {
    name: 'appointment',
    attributes: ['name', 'scheduledstart', 'scheduledend', 'status'].map((attribute) => ({ attribute })),
    filter: { type: 'and', conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] },
  },
  page: 1,
  pageSize: 50,
};
const TZ = 'Europe/Bratislava';
const monthFetch = (shown: Date) => calendarRequest(list, entity, { start: 'scheduledstart', end: 'scheduledend', group: 'ownerid' }, sys, shown, TZ);
const middle = monthFetch(new Date(Date.UTC(2025, 0, 15)));
const last = monthFetch(new Date(Date.UTC(2026, 11, 15)));

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

// A full page: the window of a month holds more than 500 events (about 3,400 here).
if ((await fetchOnce(middle)) !== CALENDAR_PAGE_SIZE) throw new Error('the month page is not full');
const withoutIndex = await timeOf(middle);

// The view-index rule: the schema of the metadata plus the calendar view's index, applied as a migration step.
const before = schemaOfMetadata(applied);
if (before._tag === 'Left') throw new Error(before.left.message);
const plan = diffSchema(before.right, withViewIndexes(before.right, viewIndexes([view])));
if (plan.length !== 1 || plan[0].kind !== 'createIndex') throw new Error(`unexpected plan: ${JSON.stringify(plan)}`);
for (const sql of sqliteDdl.step(plan[0], before.right)) raw.exec(sql);
raw.pragma('analysis_limit = 1000');
raw.exec('ANALYZE');
const usesIndex = (raw.prepare(`EXPLAIN QUERY PLAN SELECT id FROM appointment WHERE scheduledend >= ? AND scheduledstart <= ? AND statecode = 0 ORDER BY scheduledstart`).all('2025-01-01', '2025-02-01') as Array<{ detail: string }>)
  .map((r) => r.detail)
  .join('; ');

const middleMs = await timeOf(middle);
const lastMs = await timeOf(last);
line('calendar month fetch without the view index (100k events, 500 of the window, middle month)', withoutIndex, 'ms median', 'baseline', true);
line('calendar month fetch KyselyRecordStore (100k events, middle month, (end, start) index)', middleMs, 'ms median', `< ${GOAL_MS} ms`, middleMs < GOAL_MS);
line('calendar month fetch KyselyRecordStore (100k events, month of the latest events)', lastMs, 'ms median', `< ${GOAL_MS} ms`, lastMs < GOAL_MS);
console.log(`calendar query plan: ${usesIndex}`);

raw.close();
rmSync(dir, { recursive: true, force: true });
