// Schema generator benchmark (issue 4): create the schema of 200 entities of 30 fields in an
// organization's SQLite database on disk, then apply a change that touches every table (a column
// added, a string lengthened (SQLite rebuilds the table), an empty column dropped). Goal: each
// under 2 seconds. Run: node --import tsx tests/bench/schema-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateSchema, systemClock, type Entity, type Property, type PropertyType } from '@tessera/core';
import { createOrganizationDatabase, KyselySchemaStore, openOrgDatabase, sqliteDdl, sqliteKysely } from '@tessera/adapters-sql';

const ENTITIES = 200;
const FIELDS = 30;
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
const v2 = v1.map((e) =>
  entity(Number(e.logicalName.slice('entity'.length)), [
    { ...e.properties[0], max: 400 },
    ...e.properties.slice(2),
    { logicalName: 'extra', displayName: 'Extra', type: 'String', max: 50 },
  ]),
);

const report = (name: string, ms: number) =>
  process.stdout.write(`bench ${name}: ${Math.round(ms)} ms (goal < ${GOAL_MS} ms) ${ms < GOAL_MS ? 'ok' : 'short'}\n`);

const data = mkdtempSync(join(tmpdir(), 'tessera-schema-bench-'));
try {
  let t = performance.now();
  const created = await createOrganizationDatabase(data, 'bench', v1);
  const createMs = performance.now() - t;
  if (created._tag === 'Left') throw new Error(JSON.stringify(created.left));

  const db = openOrgDatabase(data, 'bench');
  if (db._tag === 'Left') throw new Error(db.left.message);
  // Rows in every table, so that the rebuild copies data as it would in production.
  for (let e = 0; e < ENTITIES; e++) {
    const insert = db.right.prepare(`INSERT INTO entity${e} (name, field0) VALUES (?, ?)`);
    db.right.transaction(() => {
      for (let r = 0; r < 20; r++) insert.run(`row ${r}`, `value ${r}`);
    })();
  }
  const k = sqliteKysely(db.right);
  t = performance.now();
  const migrated = await migrateSchema(new KyselySchemaStore(k, sqliteDdl, systemClock), v2);
  const migrateMs = performance.now() - t;
  await k.destroy();
  if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left).slice(0, 500));

  report(`schema create ${ENTITIES} entities x ${FIELDS} fields (sqlite, on disk)`, createMs);
  report(`schema migrate touching all ${ENTITIES} tables, ${migrated.right.plan.length} steps (sqlite, ${ENTITIES * 20} rows)`, migrateMs);
} finally {
  rmSync(data, { recursive: true, force: true });
}
