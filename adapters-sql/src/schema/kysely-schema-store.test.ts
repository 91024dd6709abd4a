import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canonicalSchema,
  describeDataAtRisk,
  migrateSchema,
  type Clock,
} from '@tessera/core/internal';
import { openSqlite, type SqliteDatabase } from '../sqlite/open-sqlite.js';
import { sqliteKysely } from '../sqlite/org-database.js';
import { KyselySchemaStore, describeApplyFailure } from './kysely-schema-store.js';
import { sqliteDdl } from './sqlite-ddl.js';
import { readSqliteSchema } from './sqlite-schema-reader.js';
import { entity, prop, schema } from '../../../tests/src/fixtures/metadata-builders.js';

const clockAt = (iso: string): Clock => ({ now: () => new Date(iso) });

let dirs: string[] = [];
let dbs: Kysely<any>[] = [];
afterEach(async () => {
  for (const db of dbs) await db.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  dbs = [];
});

/** An organization database on disk, as the product runs it. */
const onDisk = (clock = clockAt('2026-01-02T03:04:05.000Z')) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-schema-'));
  dirs.push(dir);
  const sqlite = openSqlite(join(dir, 'org.sqlite'));
  const db = sqliteKysely(sqlite);
  dbs.push(db);
  return { sqlite, store: new KyselySchemaStore(db, sqliteDdl, clock) };
};
const readBack = (db: SqliteDatabase) => {
  const s = readSqliteSchema(db);
  if (s._tag === 'Left') throw new Error(s.left);
  return canonicalSchema(s.right);
};
/** Every table and index definition, as SQLite stores it. */
const catalogue = (db: SqliteDatabase) => db.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`).all();
const recorded = (db: SqliteDatabase) => db.prepare(`SELECT version, appliedon FROM tessera_metadata ORDER BY version`).all();

const v1 = [
  entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String'), prop('score', 'Integer')]),
  entity('contact', [prop('email', 'String', { max: 100 })]),
];

describe('SchemaStore on SQLite: applied metadata and transactional apply (spec 000 section 3)', () => {
  it('has no applied metadata in a new database', async () => {
    const { store } = onDisk();
    expect(await store.readApplied()).toBeNull();
  });

  it('records the applied metadata with version 1, the time of the clock and the complete entities', async () => {
    const { store, sqlite } = onDisk();
    const r = await migrateSchema(store, v1);
    expect(r._tag).toBe('Right');
    const applied = await store.readApplied();
    expect(applied?.version).toBe(1);
    expect(applied?.appliedOn).toBe('2026-01-02T03:04:05.000Z');
    expect(applied?.entities.map((e) => e.logicalName)).toEqual(['account', 'contact']);
    expect(applied?.entities[0].properties.map((p) => p.logicalName)).toContain('versionnumber');
    expect(readBack(sqlite)).toEqual(canonicalSchema(schema(v1)));
  });

  it('counts each apply as a new version and keeps the earlier ones', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    await migrateSchema(store, [...v1, entity('lead', [])]);
    expect(recorded(sqlite)).toEqual([
      { version: 1, appliedon: '2026-01-02T03:04:05.000Z' },
      { version: 2, appliedon: '2026-01-02T03:04:05.000Z' },
    ]);
    expect((await store.readApplied())?.version).toBe(2);
  });

  it('records nothing new when the metadata is already applied', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    const again = await migrateSchema(store, v1);
    expect(again).toMatchObject({ _tag: 'Right', right: { plan: [], applied: null } });
    expect(recorded(sqlite)).toHaveLength(1);
  });

  it('a failure at any step leaves the tables and the recorded metadata exactly as they were', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    sqlite.prepare(`INSERT INTO account (id, name, notes) VALUES ('a1', 'Acme', 'kept')`).run();
    // A table made by hand, outside the metadata: the plan's "create table lead" will fail on it,
    // after the steps that add a column, drop a column and create another table already ran.
    sqlite.exec(`CREATE TABLE lead (x TEXT)`);
    const before = catalogue(sqlite);
    const target = [
      entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String'), prop('rating', 'Integer')]),
      entity('contact', [prop('email', 'String', { max: 100 })]),
      entity('campaign', []),
      entity('lead', []),
    ];
    const seen: string[] = [];
    const r = await migrateSchema(store, target, { progress: (n, total, step) => seen.push(`${n}/${total} ${step.kind}`) });
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left' && r.left._tag === 'StepFailed') {
      expect(r.left.step).toMatchObject({ kind: 'createTable', table: { name: 'lead' } });
      expect(describeApplyFailure(r.left)).toMatch(/^step \d+ \(create table lead \(\d+ columns\)\) failed: table "lead" already exists; nothing was changed$/);
      expect(seen.slice(0, r.left.stepNumber).map((s) => s.split(' ')[1])).toEqual(['dropColumn', 'createTable', 'createTable']);
    } else throw new Error(`expected StepFailed, got ${JSON.stringify(r)}`);
    expect(catalogue(sqlite)).toEqual(before);
    expect(sqlite.prepare(`SELECT id, name, notes, score FROM account`).all()).toEqual([{ id: 'a1', name: 'Acme', notes: 'kept', score: null }]);
    expect(recorded(sqlite)).toHaveLength(1);
    expect((await store.readApplied())?.entities.map((e) => e.logicalName)).toEqual(['account', 'contact']);
  });

  it('refuses to apply a plan made against a version that is no longer the applied one', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    const r = await store.apply({ from: schema(v1), plan: [], entities: v1, expectedVersion: 0 });
    expect(r).toEqual({ _tag: 'Left', left: { _tag: 'MetadataMoved', expected: 0, found: 1 } });
    expect(recorded(sqlite)).toHaveLength(1);
  });

  it('counts the rows that hold values a lossy step would drop or cut', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    sqlite.prepare(`INSERT INTO account (id, score) VALUES ('a1', 5), ('a2', NULL), ('a3', 7)`).run();
    sqlite.prepare(`INSERT INTO contact (id, email) VALUES ('c1', 'abcdefghij@x.org'), ('c2', 'a@x.org')`).run();
    const target = [
      entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String')]),
      entity('contact', [prop('email', 'String', { max: 10 })]),
    ];
    const r = await migrateSchema(store, target);
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left' && r.left._tag === 'DataLossRefused')
      expect(r.left.atRisk.map(describeDataAtRisk)).toEqual([
        'column account.score has values in 2 rows',
        'column contact.email has 1 row longer than 10',
      ]);
    else throw new Error(`expected DataLossRefused, got ${JSON.stringify(r)}`);
    expect(recorded(sqlite)).toHaveLength(1);
  });

  it('counts the rows of a table that would be dropped, and drops an empty one without asking', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    sqlite.prepare(`INSERT INTO contact (id) VALUES ('c1'), ('c2')`).run();
    const refused = await migrateSchema(store, [v1[1]]);
    expect(refused._tag === 'Left' && refused.left._tag === 'DataLossRefused' ? refused.left.atRisk.map(describeDataAtRisk) : []).toEqual([]);
    expect(refused._tag).toBe('Right'); // account is empty: dropping it loses nothing
    const dropContact = await migrateSchema(store, []);
    expect(dropContact._tag === 'Left' && dropContact.left._tag === 'DataLossRefused' ? dropContact.left.atRisk.map(describeDataAtRisk) : null).toEqual([
      'table contact holds 2 rows',
    ]);
  });

  it('applies a lossy plan when data loss is allowed', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    sqlite.prepare(`INSERT INTO account (id, score) VALUES ('a1', 5)`).run();
    const target = [entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String')]), v1[1]];
    const r = await migrateSchema(store, target, { allowDataLoss: true });
    expect(r).toMatchObject({ _tag: 'Right', right: { applied: { version: 2 } } });
    expect(readBack(sqlite)).toEqual(canonicalSchema(schema(target)));
    expect(sqlite.prepare(`SELECT id FROM account`).all()).toEqual([{ id: 'a1' }]);
  });

  it('a dry run plans and measures but changes nothing', async () => {
    const { store, sqlite } = onDisk();
    await migrateSchema(store, v1);
    const before = readBack(sqlite);
    const r = await migrateSchema(store, [...v1, entity('lead', [])], { dryRun: true });
    expect(r).toMatchObject({ _tag: 'Right', right: { applied: null } });
    expect(r._tag === 'Right' ? r.right.plan.length : 0).toBeGreaterThan(0);
    expect(readBack(sqlite)).toEqual(before);
    expect(recorded(sqlite)).toHaveLength(1);
  });

  it('refuses metadata that cannot become tables, with the entity and property named', async () => {
    const { store } = onDisk();
    const r = await migrateSchema(store, [entity('account', [prop('bad-name', 'String')])]);
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InputError' } });
    expect(r._tag === 'Left' && 'message' in r.left ? r.left.message : '').toMatch(/^Invalid metadata: entity account: property bad-name:/);
  });
});
