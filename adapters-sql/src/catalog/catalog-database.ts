import { Kysely, Migrator, SqliteDialect, type Generated, type Migration, type MigrationProvider } from 'kysely';
import { openSqlite } from '../sqlite/open-sqlite.js';

/**
 * The catalog: the small database beside the organizations' own (ARCHITECTURE.md "Tenancy and
 * storage", docs/schema.md "Data folder") holding the organizations, sessions, one-time links,
 * used sign-up puzzles, the users who must change their password and the tallies of the attempt
 * limits. Password hashes stay in each organization's systemuser (a secret field), so an
 * organization's file holds all of it.
 * Tokens are stored only as hashes; times are epoch milliseconds.
 */
export interface CatalogTables {
  organization: { name: string; status: string; created: number };
  password_change: { org_name: string; user_id: string };
  session: {
    name: string;
    token_hash: string;
    org_name: string;
    user_id: string;
    user_name: string;
    created: number;
    modified: number;
    read: number;
    ip: string;
    agent: string;
  };
  link: { token_hash: string; org_name: string; user_id: string; purpose: string; expires: number; used: Generated<number> };
  puzzle: { id: string; expires: number };
  /** The tallies of the attempt limits (sign-in failures, mailed links, trials, surveys): AttemptLedger. */
  attempt: { key: string; count: number; started: number; last: number };
}

export type CatalogDb = Kysely<CatalogTables>;

/**
 * The catalog's versions, in order, recorded by Kysely's Migrator in `kysely_migration`. A new
 * version is a new entry here (never an edit of an applied one). The first one creates the tables
 * only where missing: a data folder made before the catalog was versioned already has them.
 */
export const CATALOG_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-catalog': {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('organization')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('password_change')
        .ifNotExists()
        .addColumn('org_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('password_change_pk', ['org_name', 'user_id'])
        .execute();
      await db.schema
        .createTable('session')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('org_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .addColumn('modified', 'integer', (c) => c.notNull())
        .addColumn('read', 'integer', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('agent', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('session_user').ifNotExists().on('session').columns(['org_name', 'user_id']).execute();
      await db.schema
        .createTable('link')
        .ifNotExists()
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('org_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('expires', 'integer', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('puzzle')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('expires', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  // Issue 22 items 3, 4, 8: the limits count here, so a restart keeps them and processes share them.
  '0002-attempts': {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('attempt')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('started', 'integer', (c) => c.notNull())
        .addColumn('last', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('attempt_last').on('attempt').column('last').execute();
    },
  },
};

/** The migrations of this build, in code (no folder to find at run time). */
const catalogMigrations: MigrationProvider = { getMigrations: async () => CATALOG_MIGRATIONS };

/** Brings a catalog to the latest version; rejects with the failing migration's error. */
export const migrateCatalog = async (db: CatalogDb): Promise<readonly string[]> => {
  const { error, results } = await new Migrator({ db, provider: catalogMigrations }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(`catalog migration failed: ${String(error)}`);
  return (results ?? []).map((r) => r.migrationName);
};

/** Opens (and creates when missing) the catalog file, at its latest version; `:memory:` for a throw-away catalog. */
export const openCatalog = async (file: string): Promise<CatalogDb> => {
  const db = new Kysely<CatalogTables>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  try {
    await migrateCatalog(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return db;
};
