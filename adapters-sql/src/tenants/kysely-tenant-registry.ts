import { sql, type Kysely } from 'kysely';
import tedious from 'tedious';
import {
  InMemoryChangeFeed,
  migrateSchema,
  type ChangeFeed,
  type Clock,
  type Entity,
  type IdGenerator,
  type RecordStore,
} from '@tessera/core/internal';
import {
  createOrganizationDatabase,
  KyselyRecordStore,
  KyselySchemaStore,
  mssqlDdl,
  mssqlDialect,
  mssqlOrgDatabaseName,
  MssqlRunner,
  openOrgDatabase,
  sqliteDdl,
  sqliteKysely,
  SqliteRunner,
  tediousConfig,
  type DdlDialect,
  type MssqlConnection,
} from '@tessera/adapters-sql';
import type { Tenant, Tenants } from './tenants.js';

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
}

/** DATA/orgs/{name}.sqlite (docs/schema.md). */
export const sqliteDatabases = (dataDir: string, clock: Clock, ids: IdGenerator): OrganizationDatabases => ({
  connect: (orgName) => {
    const opened = openOrgDatabase(dataDir, orgName);
    if (opened._tag === 'Left') throw new Error(opened.left.message);
    const raw = opened.right;
    return { db: sqliteKysely(raw), ddl: sqliteDdl, store: (lookup, feed) => new KyselyRecordStore(new SqliteRunner(raw), lookup, clock, ids, feed) };
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
export const mssqlDatabases = (connection: MssqlConnection, clock: Clock, ids: IdGenerator): OrganizationDatabases => ({
  connect: (orgName) => {
    const dialect = mssqlDialect({ ...connection, database: mssqlOrgDatabaseName(orgName) });
    return { db: dialect.db, ddl: mssqlDdl, store: (lookup, feed) => new KyselyRecordStore(new MssqlRunner(dialect), lookup, clock, ids, feed) };
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

/** How often an open organization checks whether its metadata was changed (by `tessera schema apply`). */
const METADATA_RECHECK_MS = 5_000;

type Open = { tenant: Tenant; db: Kysely<any>; schema: KyselySchemaStore; version: number; checked: number; byName: Map<string, Entity> };

/**
 * The organizations of one host, opened on first use and kept open. Their entities come from the
 * metadata recorded in each database, re-read when another process applied new metadata.
 */
export class DatabaseTenants implements Tenants {
  private readonly opened = new Map<string, Promise<Open>>();

  constructor(
    readonly databases: OrganizationDatabases,
    private readonly clock: Clock,
  ) {}

  async open(orgName: string): Promise<Tenant> {
    let entry = this.opened.get(orgName);
    if (!entry) {
      entry = this.load(orgName);
      this.opened.set(orgName, entry);
      entry.catch(() => this.opened.delete(orgName));
    }
    const o = await entry;
    if (Date.now() - o.checked > METADATA_RECHECK_MS) await this.recheck(o);
    return o.tenant;
  }

  private async load(orgName: string): Promise<Open> {
    const c = this.databases.connect(orgName);
    const byName = new Map<string, Entity>();
    const feed = new InMemoryChangeFeed();
    const store = c.store((name) => byName.get(name), feed);
    const o: Open = {
      db: c.db,
      schema: new KyselySchemaStore(c.db, c.ddl, this.clock),
      version: -1,
      checked: 0,
      byName,
      tenant: { name: orgName, store, feed, entities: () => [...byName.values()] },
    };
    await this.recheck(o);
    return o;
  }

  private async recheck(o: Open): Promise<void> {
    o.checked = Date.now();
    const applied = await o.schema.readApplied();
    const version = applied?.version ?? 0;
    if (version === o.version) return;
    o.byName.clear();
    for (const e of applied?.entities ?? []) o.byName.set(e.logicalName, e);
    o.version = version;
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    for (const p of all) {
      const o = await p.catch(() => null);
      if (o) await o.db.destroy();
    }
  }
}
