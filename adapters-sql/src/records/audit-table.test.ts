import { describe, expect, it } from 'vitest';
import {
  AUDIT_DELETE,
  auditEntity,
  migrateSchema,
  schemaOf,
  systemCaller,
  systemPack,
  withSystemFields,
  type Entity,
} from '@tessera/core/internal';
import { openSqlite, type SqliteDatabase } from '../sqlite/open-sqlite.js';
import { sqliteKysely } from '../sqlite/org-database.js';
import { sqliteDdl } from '../schema/sqlite-ddl.js';
import { KyselySchemaStore } from '../schema/kysely-schema-store.js';
import { readSqliteSchema } from '../schema/sqlite-schema-reader.js';
import { sqliteDialect } from '../dialects/sql-dialect.js';
import { KyselyRecordStore } from './kysely-record-store.js';
import { SqliteRunner } from './sql-runner.js';
import { sqlStepCommand } from './sql-steps.js';

const clock = { now: () => new Date(Date.UTC(2026, 10, 24)) };
let n = 0;
const ids = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
const thing: Entity = { logicalName: 'thing', displayName: 'Thing', displayNamePlural: 'Things', properties: [] };
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] };

const complete = (e: Entity): Entity => {
  const c = withSystemFields(e);
  if (c._tag === 'Left') throw new Error(c.left.message);
  return c.right;
};
const indexedColumns = (e: Entity): string[] => {
  const s = schemaOf([complete(e)]);
  if (s._tag === 'Left') throw new Error(s.left.message);
  return s.right.tables[0].indexes.map((i) => i.columns.join(',')).sort();
};
const migrate = async (raw: SqliteDatabase, entities: Entity[]) => {
  const r = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, clock), entities);
  if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  return r.right;
};
const packAudit = (): Entity => systemPack().entities.find((e) => e.logicalName === 'audit') as Entity;

describe('issue 23 item 6: the audit table is indexed for what reads it, and no more', () => {
  it('audit rows are found by record (objectid: History, Undo Delete), user (createdby) and date (createdon); an append-only table has no name or modifiedby index', () => {
    expect(packAudit().appendOnly).toBe(true);
    expect(indexedColumns(packAudit())).toEqual(['createdby', 'createdon', 'objectid']);
    expect(indexedColumns(auditEntity)).toEqual(['createdby', 'createdon', 'objectid']);
  });

  it('any other table keeps its name and modifiedby indexes, and a Guid column (a record reference) is indexed like a lookup', () => {
    const note: Entity = { ...thing, properties: [{ logicalName: 'objectid', displayName: 'Regarding', type: 'Guid' }] };
    expect(indexedColumns(note)).toEqual(['createdby', 'createdon', 'modifiedby', 'name', 'objectid']);
  });

  it('an existing organization gets the lean audit indexes by a migration from its live tables (tessera schema apply), keeping its rows, without data loss', async () => {
    const raw = openSqlite(':memory:');
    const before: Entity = { ...packAudit() };
    delete before.appendOnly;
    const applied = (await migrate(raw, [systemuser, thing, before])).applied as unknown as { entities: Entity[] };
    // The audit table as the previous rule made it: name and modifiedby indexed, objectid not.
    raw.exec('DROP INDEX IX_audit_objectid');
    const store = new KyselyRecordStore(new SqliteRunner(raw), (name) => applied.entities.find((e) => e.logicalName === name), clock, ids);
    expect((await store.create(systemCaller(), 'thing', { name: 'kept' }))._tag).toBe('Right');
    const live = readSqliteSchema(raw);
    if (live._tag === 'Left') throw new Error(live.left);
    expect(live.right.tables.find((t) => t.name === 'audit')?.indexes.map((i) => i.columns.join(',')).sort()).toEqual(['createdby', 'createdon', 'modifiedby', 'name']);

    const r = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, clock), [systemuser, thing, packAudit()], { from: live.right });
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
    expect(r.right.plan.map((s) => s.kind).sort()).toEqual(['createIndex', 'dropIndex', 'dropIndex']);
    expect(r.right.atRisk).toEqual([]);
    const after = readSqliteSchema(raw);
    if (after._tag === 'Left') throw new Error(after.left);
    expect(after.right.tables.find((t) => t.name === 'audit')?.indexes.map((i) => i.columns.join(',')).sort()).toEqual(['createdby', 'createdon', 'objectid']);
    expect(raw.prepare('SELECT COUNT(*) AS n FROM audit').get()).toEqual({ n: 1 });
  });

  it('Undo Delete finds the last delete of a record through the objectid index, not a scan of the audit table', async () => {
    const raw = openSqlite(':memory:');
    const applied = (await migrate(raw, [systemuser, thing, packAudit()])).applied as unknown as { entities: Entity[] };
    const audit = applied.entities.find((e) => e.logicalName === 'audit') as Entity;
    const q = sqlStepCommand({ kind: 'lastDeleted', audit, logicalname: 'thing', objectid: ids.newId() })
      .command.build(sqliteDialect(raw))
      .compile();
    const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail);
    expect(plan.some((d) => d.includes('IX_audit_objectid'))).toBe(true);
    expect(plan.some((d) => /^SCAN audit\b/.test(d))).toBe(false);
    expect(AUDIT_DELETE).toBe(3);
  });
});
