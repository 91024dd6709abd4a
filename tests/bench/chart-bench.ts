// Chart benchmark (issue 13 section 5): the chart's aggregate query, the sum of an amount by month
// over 100k records, built by the core (chartRequest) and run through KyselyRecordStore, against the
// same SQL written by hand on raw better-sqlite3 in the same run and on the same database.
// Goals: the store reaches 80% of raw, and one chart query takes under 100 ms.
// Run: node --import tsx tests/bench/chart-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chartData, chartRequest, migrateSchema, systemCaller, systemClock, type Chart, type Entity } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';

const RECORDS = 100_000;

const item: Entity = {
  logicalName: 'item',
  displayName: 'Item',
  displayNamePlural: 'Items',
  properties: [
    { logicalName: 'amount', displayName: 'Amount', type: 'Money' },
    { logicalName: 'due', displayName: 'Due', type: 'DateTime' },
    { logicalName: 'kind', displayName: 'Kind', type: 'Integer', flags: ['OptionSet'], options: [1, 2, 3, 4, 5].map((value) => ({ value, label: `Kind ${value}` })) },
  ],
  audit: false,
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] };

const dir = mkdtempSync(join(tmpdir(), 'tessera-chart-bench-'));
const raw = openSqlite(join(dir, 'bench.sqlite'));
const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, systemClock), [systemuser, item]);
if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);

// 100k items, one every ten minutes from 2024-01-01 (about 23 months), amounts 0 to 999.
const user = randomUUID();
raw.prepare(`INSERT INTO systemuser (id, name, versionnumber) VALUES (?, ?, 1)`).run(user, 'Bench User');
const ins = raw.prepare(`INSERT INTO item (id, name, amount, due, kind, createdon, createdby, createdbyTarget, modifiedon, modifiedby, modifiedbyTarget, statuscode, statecode, versionnumber)
  VALUES (?, ?, ?, ?, ?, ?, ?, 'systemuser', ?, ?, 'systemuser', 1, 0, 1)`);
raw.transaction(() => {
  for (let i = 0; i < RECORDS; i++) {
    const due = new Date(Date.UTC(2024, 0, 1) + i * 600_000).toISOString();
    ins.run(randomUUID(), `item ${i}`, (i * 7) % 1000, due, (i % 5) + 1, due, user, due, user);
  }
})();
raw.pragma('analysis_limit = 1000');
raw.exec('ANALYZE');

const store = new KyselyRecordStore(new SqliteRunner(raw), lookup, systemClock, { newId: () => randomUUID() });
const sys = systemCaller(user);

// The chart: sum of amount by month of due, as the chart mode builds it from the list's query.
const chart: Chart = { type: 'bar', series: [{ aggregateField: 'amount', aggregateMethod: 'sum' }], groups: [{ field: 'due', method: 'month' }] };
const request = chartRequest(chart, { name: 'item', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } });

// The same by hand: the month of the UTC ISO text (its first seven characters), the sum, in month order.
const handSql = raw.prepare(`SELECT substr(due, 1, 7) AS g0, SUM(amount) AS s0 FROM item WHERE statecode = 0
  GROUP BY substr(due, 1, 7) ORDER BY g0 LIMIT ${request.pageSize ?? 1000} + 1`);
const rawChart = () => chartData(chart, handSql.all() as Array<Record<string, unknown>>);
const storeChart = async () => {
  const r = await store.retrieveMultiple(sys, request);
  if (r._tag === 'Left') throw new Error(r.left.message);
  return chartData(chart, r.right.records, r.right.moreRecords);
};

const a = await storeChart();
const b = rawChart();
if (JSON.stringify(a.categories) !== JSON.stringify(b.categories) || JSON.stringify(a.lines) !== JSON.stringify(b.lines)) {
  throw new Error(`store and raw disagree: ${JSON.stringify(a).slice(0, 300)} vs ${JSON.stringify(b).slice(0, 300)}`);
}
if (a.categories.length < 20) throw new Error(`expected about 23 months, got ${a.categories.length}`);

/**
 * The median time of each of two runs, measured alternately one query at a time (each takes tens of
 * milliseconds): load on the machine hits both alike, and the median ignores the odd stall.
 */
const medians = async (x: () => unknown, y: () => unknown, rounds = 25): Promise<[number, number]> => {
  const t: [number[], number[]] = [[], []];
  for (let i = 0; i < rounds + 3; i++) {
    for (const [k, run] of [x, y].entries()) {
      const start = performance.now();
      await run();
      if (i >= 3) t[k].push(performance.now() - start);
    }
  }
  const median = (v: number[]) => [...v].sort((p, q) => p - q)[Math.floor(v.length / 2)];
  return [median(t[0]), median(t[1])];
};

const line = (name: string, value: number, unit: string, goal: string, ok: boolean): void =>
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);

const [rawMs, storeMs] = await medians(rawChart, storeChart);
line('chart sum by month 100k raw better-sqlite3', rawMs, 'ms', 'baseline', true);
line('chart sum by month 100k KyselyRecordStore', storeMs, 'ms', '< 100 ms', storeMs < 100);
line('chart sum by month ratio', rawMs / storeMs, 'x raw', '0.80', rawMs / storeMs >= 0.8);

rmSync(dir, { recursive: true, force: true });
