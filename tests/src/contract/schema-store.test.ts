import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeDataAtRisk, migrateSchema, type Clock, type SchemaStore } from '@tessera/core/internal';
import { describeApplyFailure, KyselySchemaStore, openSqlite, postgresDdl, postgresDialect, sqliteDdl, sqliteKysely } from '@tessera/adapters-sql';
import { entity, prop, schema } from '../fixtures/metadata-builders.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../fixtures/postgres-server.js';

/**
 * The SchemaStore contract (spec 000 section 3; issue 25: "migrations with the same plan and
 * data-loss guard") on every engine that runs here for real: SQLite and PostgreSQL. Each engine
 * answers the same applied metadata, refusals and counts of rows at risk; a failed apply changes nothing.
 */
const clock: Clock = { now: () => new Date('2026-01-02T03:04:05.000Z') };

/** One organization database of an engine under test: the store and raw SQL beside it. */
type Db = {
  store: SchemaStore;
  exec(text: string): Promise<void>;
  rows(text: string): Promise<Record<string, unknown>[]>;
  /** every table with its columns and declared types, as the engine's own catalogue says */
  catalogue(): Promise<unknown>;
  close(): Promise<void>;
};

type Engine = { name: string; open(): Promise<Db> };

const kyselyDb = (db: Kysely<any>, store: SchemaStore, catalogue: () => Promise<unknown>, close: () => Promise<void>): Db => ({
  store,
  exec: async (text) => void (await sql.raw(text).execute(db)),
  rows: async (text) => (await sql.raw<Record<string, unknown>>(text).execute(db)).rows,
  catalogue,
  close,
});

const sqliteEngine: Engine = {
  name: 'SQLite',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-schema-'));
    const raw = openSqlite(join(dir, 'org.sqlite'));
    const db = sqliteKysely(raw);
    return kyselyDb(
      db,
      new KyselySchemaStore(db, sqliteDdl, clock),
      async () => raw.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`).all(),
      async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    );
  },
};

let server: PostgresServer | undefined;
let admin: pg.Client | undefined;
let databases = 0;
const postgresEngine: Engine = {
  name: 'PostgreSQL',
  open: async () => {
    if (!server || !admin) throw new Error('the PostgreSQL server is not started');
    const name = `schema_${++databases}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    const d = postgresDialect({ connectionString: server.url(name), poolMax: 2 });
    const a = admin;
    return kyselyDb(
      d.db,
      new KyselySchemaStore(d.db, postgresDdl, clock),
      async () =>
        (
          await sql.raw(
            `SELECT c.table_name, c.column_name, c.data_type, c.character_maximum_length, c.numeric_precision, c.numeric_scale, c.is_nullable
             FROM information_schema.columns c WHERE c.table_schema = 'public' ORDER BY c.table_name, c.column_name`,
          ).execute(d.db)
        ).rows,
      async () => {
        await d.db.destroy();
        await a.query(`DROP DATABASE ${name}`);
      },
    );
  },
};

const MISSING = postgresMissing();
if (MISSING) console.warn(MISSING);
const ENGINES: Engine[] = [sqliteEngine, ...(MISSING ? [] : [postgresEngine])];

beforeAll(async () => {
  if (MISSING) return;
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
}, 60_000);
afterAll(async () => {
  await admin?.end();
  server?.stop();
});

const A1 = 'a0000000-0000-4000-8000-000000000001';
const A2 = 'a0000000-0000-4000-8000-000000000002';
const A3 = 'a0000000-0000-4000-8000-000000000003';
const C1 = 'c0000000-0000-4000-8000-000000000001';
const C2 = 'c0000000-0000-4000-8000-000000000002';

const v1 = [
  entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String'), prop('score', 'Integer')]),
  entity('contact', [prop('email', 'String', { max: 100 })]),
];

describe.each(ENGINES)('SchemaStore contract on $name (spec 000 section 3, issue 25)', (engine) => {
  let db: Db;
  afterEach(async () => {
    await db?.close();
  });
  const open = async (): Promise<Db> => (db = await engine.open());
  const recorded = async () =>
    (await db.rows(`SELECT version, appliedon FROM tessera_metadata ORDER BY version`)).map((r) => ({
      version: Number(r.version),
      appliedon: r.appliedon instanceof Date ? r.appliedon.toISOString() : r.appliedon,
    }));

  it('has no applied metadata in a new database', async () => {
    await open();
    expect(await db.store.readApplied()).toBeNull();
  });

  it('records each apply as a new version with the time of the clock and the complete entities', async () => {
    await open();
    expect((await migrateSchema(db.store, v1))._tag).toBe('Right');
    const applied = await db.store.readApplied();
    expect(applied).toMatchObject({ version: 1, appliedOn: '2026-01-02T03:04:05.000Z' });
    expect(applied?.entities.map((e) => e.logicalName)).toEqual(['account', 'contact']);
    expect(applied?.entities[0].properties.map((p) => p.logicalName)).toContain('versionnumber');
    await migrateSchema(db.store, [...v1, entity('lead', [])]);
    expect(await recorded()).toEqual([
      { version: 1, appliedon: '2026-01-02T03:04:05.000Z' },
      { version: 2, appliedon: '2026-01-02T03:04:05.000Z' },
    ]);
    const again = await migrateSchema(db.store, [...v1, entity('lead', [])]);
    expect(again).toMatchObject({ _tag: 'Right', right: { plan: [], applied: null } });
    expect(await recorded()).toHaveLength(2);
  });

  it('a failure at any step leaves the tables, the rows and the recorded metadata exactly as they were', async () => {
    await open();
    await migrateSchema(db.store, v1);
    await db.exec(`INSERT INTO account (id, name, notes) VALUES ('${A1}', 'Acme', 'kept')`);
    // A table made by hand: the plan's "create table lead" fails on it after other steps already ran.
    await db.exec(`CREATE TABLE lead (x TEXT)`);
    const before = await db.catalogue();
    const target = [
      entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String'), prop('rating', 'Integer')]),
      entity('contact', [prop('email', 'String', { max: 100 })]),
      entity('campaign', []),
      entity('lead', []),
    ];
    const r = await migrateSchema(db.store, target);
    if (r._tag === 'Left' && r.left._tag === 'StepFailed') {
      expect(r.left.step).toMatchObject({ kind: 'createTable', table: { name: 'lead' } });
      expect(describeApplyFailure(r.left)).toMatch(/^step \d+ \(create table lead \(\d+ columns\)\) failed: .*"lead" already exists; nothing was changed$/);
    } else throw new Error(`expected StepFailed, got ${JSON.stringify(r)}`);
    expect(await db.catalogue()).toEqual(before);
    expect(await db.rows(`SELECT name, notes, score FROM account`)).toEqual([{ name: 'Acme', notes: 'kept', score: null }]);
    expect(await recorded()).toHaveLength(1);
  });

  it('refuses to apply a plan made against a version that is no longer the applied one', async () => {
    await open();
    await migrateSchema(db.store, v1);
    const r = await db.store.apply({ from: schema(v1), plan: [], entities: v1, expectedVersion: 0 });
    expect(r).toEqual({ _tag: 'Left', left: { _tag: 'MetadataMoved', expected: 0, found: 1 } });
    expect(await recorded()).toHaveLength(1);
  });

  it('counts the rows a lossy step would drop or cut, and refuses it (the data-loss guard)', async () => {
    await open();
    await migrateSchema(db.store, v1);
    await db.exec(`INSERT INTO account (id, score) VALUES ('${A1}', 5), ('${A2}', NULL), ('${A3}', 7)`);
    await db.exec(`INSERT INTO contact (id, email) VALUES ('${C1}', 'abcdefghij@x.org'), ('${C2}', 'a@x.org')`);
    const target = [entity('account', [prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('notes', 'String')]), entity('contact', [prop('email', 'String', { max: 10 })])];
    const r = await migrateSchema(db.store, target);
    if (r._tag === 'Left' && r.left._tag === 'DataLossRefused')
      expect(r.left.atRisk.map(describeDataAtRisk)).toEqual(['column account.score has values in 2 rows', 'column contact.email has 1 row longer than 10']);
    else throw new Error(`expected DataLossRefused, got ${JSON.stringify(r)}`);
    expect(await recorded()).toHaveLength(1);
    // Allowed, the long value keeps its start and the dropped column is gone.
    expect(await migrateSchema(db.store, target, { allowDataLoss: true })).toMatchObject({ _tag: 'Right', right: { applied: { version: 2 } } });
    expect(await db.rows(`SELECT email FROM contact ORDER BY email`)).toEqual([{ email: 'a@x.org' }, { email: 'abcdefghij' }]);
    expect((await db.rows(`SELECT * FROM account`)).every((row) => !('score' in row))).toBe(true);
  });

  it('counts the rows of a table that would be dropped, and drops an empty one without asking', async () => {
    await open();
    await migrateSchema(db.store, v1);
    await db.exec(`INSERT INTO contact (id) VALUES ('${C1}'), ('${C2}')`);
    expect((await migrateSchema(db.store, [v1[1]]))._tag).toBe('Right');
    const dropContact = await migrateSchema(db.store, []);
    expect(dropContact._tag === 'Left' && dropContact.left._tag === 'DataLossRefused' ? dropContact.left.atRisk.map(describeDataAtRisk) : null).toEqual([
      'table contact holds 2 rows',
    ]);
  });

  it('a dry run plans and measures but changes nothing', async () => {
    await open();
    await migrateSchema(db.store, v1);
    const before = await db.catalogue();
    const r = await migrateSchema(db.store, [...v1, entity('lead', [])], { dryRun: true });
    expect(r).toMatchObject({ _tag: 'Right', right: { applied: null } });
    expect(r._tag === 'Right' ? r.right.plan.length : 0).toBeGreaterThan(0);
    expect(await db.catalogue()).toEqual(before);
    expect(await recorded()).toHaveLength(1);
  });

  it('lengthens a string column and makes it unbounded without loss', async () => {
    await open();
    await migrateSchema(db.store, v1);
    await db.exec(`INSERT INTO contact (id, email) VALUES ('${C1}', 'abcdefghij@x.org')`);
    const longer = [v1[0], entity('contact', [prop('email', 'String', { max: 200 })])];
    expect(await migrateSchema(db.store, longer)).toMatchObject({ _tag: 'Right', right: { applied: { version: 2 } } });
    const unbounded = [v1[0], entity('contact', [prop('email', 'String', { flags: ['MultiLine'] })])];
    expect((await migrateSchema(db.store, unbounded))._tag).toBe('Right');
    expect(await db.rows(`SELECT email FROM contact`)).toEqual([{ email: 'abcdefghij@x.org' }]);
  });
});

describe.skipIf(MISSING !== null)('PostgreSQL column types (issue 25: the schema generator for PostgreSQL)', () => {
  it('each field type has the PostgreSQL type of the issue; a lookup has its Target column', async () => {
    const db = await postgresEngine.open();
    try {
      const typed = entity('typed', [
        prop('amount', 'Money'),
        prop('ratio', 'Decimal'),
        prop('score', 'Float'),
        prop('count', 'Integer'),
        prop('flag', 'Boolean'),
        prop('stamp', 'DateTime'),
        prop('code', 'String', { max: 20 }),
        prop('body', 'String', { flags: ['MultiLine'] }),
        prop('ownerid', 'Lookup', { targets: ['systemuser', 'team'] }),
      ]);
      expect((await migrateSchema(db.store, [typed]))._tag).toBe('Right');
      const cols = (await db.catalogue()) as Array<Record<string, unknown>>;
      const of = (name: string) => cols.find((c) => c.table_name === 'typed' && c.column_name === name);
      expect(of('id')).toMatchObject({ data_type: 'uuid', is_nullable: 'NO' });
      expect(of('amount')).toMatchObject({ data_type: 'numeric', numeric_precision: 19, numeric_scale: 4 });
      expect(of('ratio')).toMatchObject({ data_type: 'numeric', numeric_precision: 23, numeric_scale: 10 });
      expect(of('score')).toMatchObject({ data_type: 'double precision' });
      expect(of('count')).toMatchObject({ data_type: 'integer' });
      expect(of('flag')).toMatchObject({ data_type: 'boolean' });
      expect(of('stamp')).toMatchObject({ data_type: 'timestamp with time zone' });
      expect(of('code')).toMatchObject({ data_type: 'character varying', character_maximum_length: 20 });
      expect(of('body')).toMatchObject({ data_type: 'text' });
      expect(of('ownerid')).toMatchObject({ data_type: 'uuid' });
      expect(of('owneridTarget')).toMatchObject({ data_type: 'character varying' });
      expect(of('versionnumber')).toMatchObject({ data_type: 'bigint', is_nullable: 'NO' });
    } finally {
      await db.close();
    }
  });
});
