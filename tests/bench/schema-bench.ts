// Schema generator benchmark (issue 4): create the schema of 200 entities of 30 fields in an
// organization's SQLite database on disk, then apply a change that touches every table (a string
// lengthened, a field dropped, a field added: SQLite rebuilds each table, with its 20 rows). Goal:
// each under 2 seconds. Each time is the median of 3 runs; the baseline is the same DDL run raw on
// better-sqlite3 in one transaction, without planning, checks or recording.
// Run: node --import tsx tests/bench/schema-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffSchema, emptySchema, migrateSchema, schemaOfMetadata, systemClock, type Entity, type Property, type PropertyType } from '@tessera/core/internal';
import {
  compilePlan,
  createOrganizationDatabase,
  KyselySchemaStore,
  openOrgDatabase,
  openSqlite,
  sqliteDdl,
  sqliteKysely,
} from '@tessera/adapters-sql';

const ENTITIES = 200;
const FIELDS = 30;
const ROWS = 20;
const RUNS = 3;
const GOAL_MS = 2000;
const TYPES: PropertyType[] = ['String', 'Integer', 'Decimal', 'Float', 'Money', 'DateTime', 'Guid', 'Lookup', 'Boolean', 'String'];

const field = (e: number, f: number): Property => {
  const type = TYPES[f % TYPES.length];
  return {
    logicalName: `field${f}`,
    displayName: `Field ${f}`,
    type,
    ...(type === 'String' ? { max: 100 } : {}),
    ...(type === 'Lookup' ? { targets: [`entity${(e + 1) % ENTITIES}`] } : {}),
  };
};
const entity = (e: number, properties: Property[]): Entity => ({
  logicalName: `entity${e}`,
  displayName: `Entity ${e}`,
  displayNamePlural: `Entities ${e}`,
  properties,
});

const v1 = Array.from({ length: ENTITIES }, (_, e) => entity(e, Array.from({ length: FIELDS }, (_, f) => field(e, f))));
// Every table changes: field0 (a String of 100) grows to 400, field1 is dropped, a field is added.
const v2 = v1.map((e, i) =>
  entity(i, [{ ...e.properties[0], max: 400 }, ...e.properties.slice(2), { logicalName: 'extra', displayName: 'Extra', type: 'String', max: 50 }]),
);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const report = (name: string, ms: number) =>
  process.stdout.write(`bench ${name}: ${Math.round(ms)} ms (goal < ${GOAL_MS} ms) ${ms < GOAL_MS ? 'ok' : 'short'}\n`);

/** One run through Tessera: createOrganizationDatabase, rows in every table, then migrateSchema. */
const tesseraRun = async (data: string, org: string): Promise<{ create: number; migrate: number; steps: number }> => {
  let t = performance.now();
  const created = await createOrganizationDatabase(data, org, v1);
  const create = performance.now() - t;
  if (created._tag === 'Left') throw new Error(JSON.stringify(created.left));
  const db = openOrgDatabase(data, org);
  if (db._tag === 'Left') throw new Error(db.left.message);
  for (let e = 0; e < ENTITIES; e++) {
    const insert = db.right.prepare(`INSERT INTO entity${e} (name, field0, field1) VALUES (?, ?, ?)`);
    db.right.transaction(() => {
      for (let r = 0; r < ROWS; r++) insert.run(`row ${r}`, `value ${r}`, r);
    })();
  }
  const k = sqliteKysely(db.right);
  t = performance.now();
  // field1 holds values: dropping it is allowed here, as an administrator would after the refusal.
  const migrated = await migrateSchema(new KyselySchemaStore(k, sqliteDdl, systemClock), v2, { allowDataLoss: true });
  const migrate = performance.now() - t;
  await k.destroy();
  if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left).slice(0, 500));
  return { create, migrate, steps: migrated.right.plan.length };
};

/** The same DDL, compiled once, run raw in one transaction. */
const rawRun = (path: string): { create: number; migrate: number } => {
  const s1 = schemaOfMetadata(v1);
  const s2 = schemaOfMetadata(v2);
  if (s1._tag === 'Left' || s2._tag === 'Left') throw new Error('invalid bench metadata');
  const c1 = compilePlan(sqliteDdl, emptySchema, diffSchema(emptySchema, s1.right));
  const c2 = compilePlan(sqliteDdl, s1.right, diffSchema(s1.right, s2.right));
  if (c1._tag === 'Left' || c2._tag === 'Left') throw new Error('plan does not compile');
  const db = openSqlite(path);
  const run = (steps: typeof c1.right) => {
    const t = performance.now();
    db.transaction(() => {
      for (const step of steps) for (const statement of step.statements) db.exec(statement);
    })();
    return performance.now() - t;
  };
  const create = run(c1.right);
  for (let e = 0; e < ENTITIES; e++) {
    const insert = db.prepare(`INSERT INTO entity${e} (name, field0, field1) VALUES (?, ?, ?)`);
    db.transaction(() => {
      for (let r = 0; r < ROWS; r++) insert.run(`row ${r}`, `value ${r}`, r);
    })();
  }
  const migrate = run(c2.right);
  db.close();
  return { create, migrate };
};

const data = mkdtempSync(join(tmpdir(), 'tessera-schema-bench-'));
try {
  const runs = [];
  const raws = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await tesseraRun(data, `bench${i}`));
    raws.push(rawRun(join(data, `raw${i}.sqlite`)));
  }
  const create = median(runs.map((r) => r.create));
  const migrate = median(runs.map((r) => r.migrate));
  const rawCreate = median(raws.map((r) => r.create));
  const rawMigrate = median(raws.map((r) => r.migrate));
  report(`schema create ${ENTITIES} entities x ${FIELDS} fields (sqlite, on disk)`, create);
  report(`schema migrate touching all ${ENTITIES} tables, ${runs[0].steps} steps (sqlite, ${ENTITIES * ROWS} rows)`, migrate);
  process.stdout.write(
    `# baseline, the same DDL raw in one transaction: create ${Math.round(rawCreate)} ms, migrate ${Math.round(rawMigrate)} ms; ` +
      `Tessera ${(create / rawCreate).toFixed(1)} x and ${(migrate / rawMigrate).toFixed(1)} x (planning, checks, counts, recording)\n`,
  );
} finally {
  rmSync(data, { recursive: true, force: true });
}
