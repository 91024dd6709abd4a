import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll } from 'vitest';
import {
  auditEntity,
  InMemoryChangeFeed,
  InMemoryRecordStore,
  migrateSchema,
  packMask,
  type Level,
  withSystemFields,
  type Caller,
  type Clock,
  type Entity,
  type EntityLookup,
  type IdGenerator,
  type RecordStore,
  type WriteRule,
} from '@tessera/core/internal';
import {
  KyselyRecordStore,
  KyselySchemaStore,
  mssqlCompiler,
  openSqlite,
  postgresDdl,
  postgresDialect,
  PostgresRunner,
  sqliteDdl,
  sqliteKysely,
  SqliteRunner,
  SqliteWorkerPool,
  WorkerSqliteRunner,
  type SqlRunner,
} from '@tessera/adapters-sql';
import { postgresMissing, startPostgres, type PostgresServer } from '../fixtures/postgres-server.js';

/** The metadata of the record-store contract: accounts with contacts, owners and teams. */
const declared: Entity[] = [
  { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [
    { logicalName: 'emailaddress', displayName: 'Email', type: 'String', max: 200 },
    { logicalName: 'passwordhash', displayName: 'Password hash', type: 'String', max: 200, secret: true },
  ] },
  { logicalName: 'team', displayName: 'Team', displayNamePlural: 'Teams', properties: [] },
  {
    logicalName: 'account',
    displayName: 'Account',
    displayNamePlural: 'Accounts',
    // 'contains' through the full-text index on SQLite (issue 24): the property test then checks it answers as LIKE
    fullText: ['name', 'description'],
    properties: [
      { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
      { logicalName: 'employees', displayName: 'Employees', type: 'Integer' },
      { logicalName: 'rating', displayName: 'Rating', type: 'Float' },
      { logicalName: 'industry', displayName: 'Industry', type: 'Integer', flags: ['OptionSet'] },
      { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
      { logicalName: 'founded', displayName: 'Founded', type: 'DateTime' },
      { logicalName: 'renewal', displayName: 'Renewal', type: 'DateTime', flags: ['DateOnly'] },
      { logicalName: 'description', displayName: 'Description', type: 'String', flags: ['MultiLine'] },
      { logicalName: 'primarycontactid', displayName: 'Primary contact', type: 'Lookup', targets: ['contact'] },
      { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser', 'team'] },
      { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
    ],
  },
  {
    logicalName: 'contact',
    displayName: 'Contact',
    displayNamePlural: 'Contacts',
    fullText: ['name'],
    properties: [
      { logicalName: 'emailaddress', displayName: 'Email', type: 'String', max: 200 },
      { logicalName: 'parentcustomerid', displayName: 'Account', type: 'Lookup', targets: ['account'] },
      { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
      { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
    ],
  },
  // An entity whose metadata turns audit off (issue 23 item 6).
  { logicalName: 'memo', displayName: 'Memo', displayNamePlural: 'Memos', audit: false, properties: [] },
];

export const ENTITIES: Entity[] = [
  ...declared.map((e) => {
    const r = withSystemFields(e);
    if (r._tag === 'Left') throw new Error(r.left.message);
    return r.right;
  }),
  auditEntity,
];

export const lookup: EntityLookup = (name) => ENTITIES.find((e) => e.logicalName === name);

/** A clock that moves one millisecond each time it is read: every write gets its own stamp. */
export const steppingClock = (start = Date.UTC(2026, 0, 5, 9, 0, 0)): Clock => {
  let t = start;
  return { now: () => new Date(t++) };
};

/** Sequential UUIDs: deterministic ids in tests. */
export const sequentialIds = (prefix = 'a'): IdGenerator => {
  let n = 0;
  return { newId: () => `${prefix.repeat(8)}-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}` };
};

export const userId = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A user whose roles give `levels` per entity: [create, read, update, delete] levels 0..3. */
export const userCaller = (n: number, levels: Record<string, [number, number, number, number]>, teams: string[] = []): Caller => ({
  userId: userId(n),
  teams,
  permissions: {
    permissions: Object.fromEntries(
      Object.entries(levels).map(([e, [c, r, u, d]]) => [e, packMask({ create: c as Level, read: r as Level, update: u as Level, delete: d as Level })]),
    ),
    apps: [],
    owners: [],
    needsTeams: teams.length > 0,
  },
});

export type StoreUnderTest = {
  store: RecordStore;
  feed: InMemoryChangeFeed;
  /** SQL compiled for SQL Server alongside each SQLite statement (empty for the in-memory store) */
  mssql: CompiledQuery[];
  close(): void;
};

/** `rules`: the write rules the store runs (default the product's WRITE_RULES). */
export type StoreFactory = { name: string; make: (rules?: readonly WriteRule[]) => Promise<StoreUnderTest> };

/** One worker pool for every store of a test file, as a host has one per data folder. */
let pool: SqliteWorkerPool | undefined;
const workerPool = (): SqliteWorkerPool => (pool ??= new SqliteWorkerPool({ size: 2 }));

const sqliteStore = async (path: string, cleanup: () => void, onWorkers = false, rules?: readonly WriteRule[]): Promise<StoreUnderTest> => {
  const raw = openSqlite(path);
  const applied = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, steppingClock()), ENTITIES);
  if (applied._tag === 'Left') throw new Error(JSON.stringify(applied.left));
  const mssql: CompiledQuery[] = [];
  const feed = new InMemoryChangeFeed();
  const shadow = { dialect: mssqlCompiler(), sink: (q: CompiledQuery) => mssql.push(q) };
  const runner: SqlRunner = onWorkers ? new WorkerSqliteRunner(raw, workerPool(), { shadow }) : new SqliteRunner(raw, shadow);
  return {
    store: new KyselyRecordStore(runner, lookup, steppingClock(), sequentialIds(), feed, undefined, rules),
    feed,
    mssql,
    close: () => {
      if (onWorkers) void workerPool().forget(raw.name);
      raw.close();
      cleanup();
    },
  };
};

/**
 * PostgreSQL for real (issue 25): one server per test file, started on first use and stopped after
 * the file. Organizations live one schema each in one database (docs/postgres.md), so each store
 * gets its own schema, migrated there, and the stores share one pool as a host's organizations do:
 * the runner names the schema in each transaction. The schema is dropped when the store closes.
 */
type PostgresHost = { server: PostgresServer; admin: pg.Client; shared: ReturnType<typeof postgresDialect> };
let postgres: Promise<PostgresHost> | undefined;
let schemas = 0;
const DATABASE = 'tessera_contract';

const postgresHost = (): Promise<PostgresHost> =>
  (postgres ??= (async () => {
    const server = await startPostgres();
    const admin = new pg.Client({ connectionString: server.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    await admin.end();
    const owner = new pg.Client({ connectionString: server.url(DATABASE) });
    await owner.connect();
    return { server, admin: owner, shared: postgresDialect({ connectionString: server.url(DATABASE), poolMax: 8 }) };
  })());

afterAll(async () => {
  if (!postgres) return;
  const { server, admin, shared } = await postgres;
  postgres = undefined;
  await shared.db.destroy();
  await admin.end();
  server.stop();
});

const postgresStore = async (rules?: readonly WriteRule[]): Promise<StoreUnderTest> => {
  const { server, admin, shared } = await postgresHost();
  const schema = `org_${++schemas}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const own = postgresDialect({ connectionString: server.url(DATABASE), poolMax: 1, schema });
  try {
    const applied = await migrateSchema(new KyselySchemaStore(own.db, postgresDdl, steppingClock()), ENTITIES);
    if (applied._tag === 'Left') throw new Error(JSON.stringify(applied.left));
  } finally {
    await own.db.destroy();
  }
  const feed = new InMemoryChangeFeed();
  const mssql: CompiledQuery[] = [];
  const shadow = { dialect: mssqlCompiler(), sink: (q: CompiledQuery) => mssql.push(q) };
  return {
    store: new KyselyRecordStore(new PostgresRunner(shared, shadow, schema), lookup, steppingClock(), sequentialIds(), feed, undefined, rules),
    feed,
    mssql,
    close: () => {
      void admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
    },
  };
};

const POSTGRES_MISSING = postgresMissing();
if (POSTGRES_MISSING) console.warn(POSTGRES_MISSING);

/** The store on PostgreSQL, when the server binaries are installed (else the suites skip it, saying why). */
export const POSTGRES_STORE: StoreFactory | null = POSTGRES_MISSING ? null : { name: 'KyselyRecordStore on PostgreSQL', make: postgresStore };

/** Every implementation of the RecordStore port the contract runs against. */
export const STORES: StoreFactory[] = [
  {
    name: 'InMemoryRecordStore',
    make: async (rules) => {
      const feed = new InMemoryChangeFeed();
      return { store: new InMemoryRecordStore(lookup, steppingClock(), sequentialIds(), feed, rules), feed, mssql: [], close: () => {} };
    },
  },
  { name: 'KyselyRecordStore on SQLite in memory', make: (rules) => sqliteStore(':memory:', () => {}, false, rules) },
  {
    name: 'KyselyRecordStore on SQLite on disk',
    make: (rules) => {
      const dir = mkdtempSync(join(tmpdir(), 'tessera-records-'));
      return sqliteStore(join(dir, 'org.sqlite'), () => rmSync(dir, { recursive: true, force: true }), false, rules);
    },
  },
  {
    // issue 22 item 1: reads and transactions in worker threads
    name: 'KyselyRecordStore on the SQLite worker pool',
    make: (rules) => {
      const dir = mkdtempSync(join(tmpdir(), 'tessera-records-'));
      return sqliteStore(join(dir, 'org.sqlite'), () => rmSync(dir, { recursive: true, force: true }), true, rules);
    },
  },
  ...(POSTGRES_STORE ? [POSTGRES_STORE] : []),
];
