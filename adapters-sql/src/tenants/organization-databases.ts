import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import tedious from 'tedious';
import {
  migrateSchema,
  type ChangeFeed,
  type Clock,
  type Entity,
  type IdGenerator,
  type RecordStore,
} from '@tessera/core/internal';
import { mssqlOrgDatabaseName, parseOrgName } from '../data-dir.js';
import { mssqlDialect, postgresDialect, tediousConfig, type MssqlConnection } from '../dialects/sql-dialect.js';
import { postgresDdl } from '../schema/postgres-ddl.js';
import { KyselyRecordStore } from '../records/kysely-record-store.js';
import { MssqlRunner, PostgresRunner, SqliteRunner } from '../records/sql-runner.js';
import type { DdlDialect } from '../schema/ddl-dialect.js';
import { KyselySchemaStore } from '../schema/kysely-schema-store.js';
import { mssqlDdl } from '../schema/mssql-ddl.js';
import { createOrganizationDatabase } from '../schema/organization-database.js';
import { sqliteDdl } from '../schema/sqlite-ddl.js';
import { openOrgDatabase, sqliteKysely } from '../sqlite/org-database.js';
import type { SqliteWorkerPool } from '../workers/sqlite-worker-pool.js';
import { WorkerSqliteRunner } from '../workers/worker-sqlite-runner.js';

/** One organization's database as the server holds it open. */
export type OrganizationConnection = {
  db: Kysely<any>;
  ddl: DdlDialect;
  store(lookup: (name: string) => Entity | undefined, feed: ChangeFeed): RecordStore;
};

/** Where organizations' databases are: the embedded data folder or a SQL Server. */
export interface OrganizationDatabases {
  connect(orgName: string): OrganizationConnection;
  /** Creates the database of a new organization with the tables of these entities. */
  create(orgName: string, entities: readonly Entity[]): Promise<void>;
  /** Stops what the databases share (the SQLite worker pool); called when the host closes. */
  close?(): Promise<void>;
}

/** The limits of database work of one host (issue 22 item 1; docs/operations.md). */
export type DatabaseLimits = {
  /** where a fetch's count stops (default DEFAULT_COUNT_CAP, 10,000) */
  countCap?: number;
  /** a read's time budget in ms on the worker pool, after which it fails with ERR_TIMEOUT (default 10 s) */
  readBudgetMs?: number;
};

/** A read's time budget by default (issue 22: 10 s). */
export const DEFAULT_READ_BUDGET_MS = 10_000;

/**
 * DATA/orgs/{name}.sqlite (docs/schema.md). With a worker pool, records are read and written in
 * its workers (off the request thread); without one, on the host's own connection. The host's
 * connection also reads the applied metadata.
 */
export const sqliteDatabases = (
  dataDir: string,
  clock: Clock,
  ids: IdGenerator,
  options: DatabaseLimits & { pool?: SqliteWorkerPool } = {},
): OrganizationDatabases => ({
  connect: (orgName) => {
    const opened = openOrgDatabase(dataDir, orgName);
    if (opened._tag === 'Left') throw new Error(opened.left.message);
    const raw = opened.right;
    const pool = options.pool;
    const runner = () =>
      pool ? new WorkerSqliteRunner(raw, pool, { readBudgetMs: options.readBudgetMs ?? DEFAULT_READ_BUDGET_MS }) : new SqliteRunner(raw);
    return { db: sqliteKysely(raw), ddl: sqliteDdl, store: (lookup, feed) => new KyselyRecordStore(runner(), lookup, clock, ids, feed, options.countCap) };
  },
  close: async () => {
    await options.pool?.close();
  },
  create: async (orgName, entities) => {
    const created = await createOrganizationDatabase(dataDir, orgName, entities, clock);
    if (created._tag === 'Left') throw new Error(`organization ${orgName}: ${'message' in created.left ? created.left.message : created.left._tag}`);
  },
});

/**
 * One database per organization on a SQL Server (`tessera_{name}`, docs/sql-server.md), reached
 * with the server and credentials of the connection string; the catalog stays in the data folder.
 */
export const mssqlDatabases = (connection: MssqlConnection, clock: Clock, ids: IdGenerator, limits: DatabaseLimits = {}): OrganizationDatabases => ({
  connect: (orgName) => {
    const dialect = mssqlDialect({ ...connection, database: mssqlOrgDatabaseName(orgName) });
    return {
      db: dialect.db,
      ddl: mssqlDdl,
      store: (lookup, feed) => new KyselyRecordStore(new MssqlRunner(dialect), lookup, clock, ids, feed, limits.countCap),
    };
  },
  create: async (orgName, entities) => {
    // One plain connection first: an unreachable server fails now, not after the pool's retries.
    await probe({ ...connection, database: 'master' });
    const master = mssqlDialect({ ...connection, database: 'master' });
    try {
      await sql`CREATE DATABASE ${sql.id(mssqlOrgDatabaseName(orgName))}`.execute(master.db);
    } finally {
      await master.db.destroy();
    }
    const org = mssqlDialect({ ...connection, database: mssqlOrgDatabaseName(orgName) });
    try {
      const r = await migrateSchema(new KyselySchemaStore(org.db, mssqlDdl, clock), entities);
      if (r._tag === 'Left') throw new Error(`organization ${orgName}: ${JSON.stringify(r.left)}`);
    } finally {
      await org.db.destroy();
    }
  },
});

/**
 * The PostgreSQL schema of an organization (docs/postgres.md): `o_` and its name with dashes as
 * underscores (org names have no underscores, so two names never meet). PostgreSQL's identifiers
 * stop at 63 bytes: a longer result keeps 52 characters and a hash of the whole name.
 */
export const postgresOrgSchemaName = (org: string): string => {
  const name = parseOrgName(org);
  if (name._tag === 'Left') throw new RangeError(name.left.message);
  const plain = `o_${name.right.replace(/-/g, '_')}`;
  return plain.length <= 63 ? plain : `${plain.slice(0, 52)}_${createHash('sha256').update(name.right).digest('hex').slice(0, 10)}`;
};

/**
 * One schema per organization in one PostgreSQL database (docs/postgres.md), one pool for every
 * organization's records (the runner names the schema per transaction); each organization's `db`
 * (applied metadata, migrations) is a small pool bound to its schema, opened on connect. The catalog
 * stays in the data folder, as with SQL Server.
 */
export const postgresDatabases = (connectionString: string, clock: Clock, ids: IdGenerator, limits: DatabaseLimits & { poolMax?: number } = {}): OrganizationDatabases => {
  let shared: ReturnType<typeof postgresDialect> | undefined;
  const sharedPool = () => (shared ??= postgresDialect({ connectionString, poolMax: limits.poolMax ?? 10 }));
  return {
    connect: (orgName) => {
      const schema = postgresOrgSchemaName(orgName);
      const own = postgresDialect({ connectionString, poolMax: 2, schema });
      return {
        db: own.db,
        ddl: postgresDdl,
        store: (lookup, feed) => new KyselyRecordStore(new PostgresRunner(sharedPool(), undefined, schema), lookup, clock, ids, feed, limits.countCap),
      };
    },
    create: async (orgName, entities) => {
      const schema = postgresOrgSchemaName(orgName);
      const own = postgresDialect({ connectionString, poolMax: 1, schema });
      try {
        await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(own.db);
        const r = await migrateSchema(new KyselySchemaStore(own.db, postgresDdl, clock), entities);
        if (r._tag === 'Left') throw new Error(`organization ${orgName}: ${JSON.stringify(r.left)}`);
      } finally {
        await own.db.destroy();
      }
    },
    close: async () => {
      await shared?.db.destroy();
      shared = undefined;
    },
  };
};

/** Connects once and disconnects; rejects with the driver's message. */
const probe = (c: MssqlConnection): Promise<void> =>
  new Promise((resolve, reject) => {
    const config = tediousConfig(c);
    const conn = new tedious.Connection({ ...config, options: { ...config.options, connectTimeout: 10_000 } });
    conn.on('connect', (err) => {
      conn.close();
      if (err) reject(err);
      else resolve();
    });
    conn.connect();
  });
