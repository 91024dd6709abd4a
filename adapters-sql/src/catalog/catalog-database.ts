import { Kysely, SqliteDialect, type Generated } from 'kysely';
import { openSqlite } from '@tessera/adapters-sql';

/**
 * The catalog: the small database beside the organizations' own (ARCHITECTURE.md "Tenancy and
 * storage") holding the organizations, sessions, one-time links, used sign-up puzzles and the
 * users who must change their password. Password hashes stay in each organization's systemuser
 * (a secret field), so an organization's file holds all of it. Tokens are stored only as hashes;
 * times are epoch milliseconds.
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
}

export type CatalogDb = Kysely<CatalogTables>;

const MIGRATION = [
  `CREATE TABLE IF NOT EXISTS organization (name TEXT PRIMARY KEY, status TEXT NOT NULL, created INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS password_change (org_name TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (org_name, user_id))`,
  `CREATE TABLE IF NOT EXISTS session (name TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, org_name TEXT NOT NULL,
     user_id TEXT NOT NULL, user_name TEXT NOT NULL, created INTEGER NOT NULL, modified INTEGER NOT NULL,
     read INTEGER NOT NULL, ip TEXT NOT NULL, agent TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS session_user ON session (org_name, user_id)`,
  `CREATE TABLE IF NOT EXISTS link (token_hash TEXT PRIMARY KEY, org_name TEXT NOT NULL, user_id TEXT NOT NULL,
     purpose TEXT NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS puzzle (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)`,
];

/** Opens (and creates when missing) the catalog file; `:memory:` for a throw-away catalog. */
export const openCatalog = (file: string): CatalogDb => {
  const sqlite = openSqlite(file);
  for (const statement of MIGRATION) sqlite.exec(statement);
  return new Kysely<CatalogTables>({ dialect: new SqliteDialect({ database: sqlite }) });
};
