import {
  Kysely,
  MssqlAdapter,
  MssqlDialect,
  MssqlIntrospector,
  MssqlQueryCompiler,
  PostgresDialect,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import pg from 'pg';
import * as tarn from 'tarn';
import * as tedious from 'tedious';
import type { SqliteDatabase } from '../sqlite/open-sqlite.js';

/**
 * The SQL dialects of the record store, chosen by configuration: the embedded SQLite default
 * (Kysely's SqliteDialect over better-sqlite3), SQL Server (its MssqlDialect over tedious and tarn)
 * and PostgreSQL (its PostgresDialect over `pg`, docs/postgres.md).
 */
export type SqlDialectKind = 'sqlite' | 'mssql' | 'postgres';

/** A dialect and the Kysely that builds (and, for SQL Server, runs) its queries. */
export type SqlDialect = { readonly kind: SqlDialectKind; readonly db: Kysely<any> };

export const sqliteDialect = (database: SqliteDatabase): SqlDialect => ({
  kind: 'sqlite',
  db: new Kysely<any>({ dialect: new SqliteDialect({ database }) }),
});

/** The connection settings of a SQL Server (docs/sql-server.md). */
export type MssqlConnection = {
  server: string;
  port?: number;
  database: string;
  user?: string;
  password?: string;
  /** TLS to the server (Azure SQL needs it); default true */
  encrypt?: boolean;
  trustServerCertificate?: boolean;
  /** connections kept by the pool; default 10 */
  poolMax?: number;
};

/** The tedious settings of a connection: SQL authentication when a user is given. */
export const tediousConfig = (c: MssqlConnection): tedious.ConnectionConfiguration => ({
  server: c.server,
  options: {
    database: c.database,
    port: c.port ?? 1433,
    encrypt: c.encrypt ?? true,
    trustServerCertificate: c.trustServerCertificate ?? false,
  },
  ...(c.user === undefined
    ? {}
    : { authentication: { type: 'default' as const, options: { userName: c.user, password: c.password ?? '' } } }),
});

/** A SQL Server dialect: connections are opened lazily by the pool, on the first query. */
export const mssqlDialect = (c: MssqlConnection): SqlDialect => ({
  kind: 'mssql',
  db: new Kysely<any>({
    dialect: new MssqlDialect({
      tarn: { ...tarn, options: { min: 0, max: c.poolMax ?? 10 } },
      tedious: { ...tedious, connectionFactory: () => new tedious.Connection(tediousConfig(c)) },
    }),
  }),
});

/** The connection settings of a PostgreSQL server (docs/postgres.md). */
export type PostgresConnection = {
  /** a libpq style URL: postgres://user:password@host:port/database */
  connectionString: string;
  /** connections kept by the pool; default 10 */
  poolMax?: number;
  /** the organization's schema (docs/postgres.md): every connection of the pool works in it */
  schema?: string;
};

/** An organization's schema name: plain lower-case, so it needs no quoting anywhere. */
export const isPostgresSchemaName = (name: string): boolean => /^[a-z_][a-z0-9_]{0,62}$/.test(name);

// bigint (COUNT(*), the versionnumber) and numeric (Money, Decimal) arrive as text by default:
// the record store reads them through Number() already (sql-values.ts), so the parsers stay as they are.

/**
 * A PostgreSQL dialect. With `schema`, the pool serves one organization (migrations, tools); without
 * it, one pool serves every organization and PostgresRunner names the schema per transaction. Every connection works in UTC (timestamptz answers and DateOnly values as
 * UTC midnight, as the ISO text of SQLite), whatever the server's default time zone.
 */
export const postgresDialect = (c: PostgresConnection): SqlDialect & { readonly pool: pg.Pool } => {
  if (c.schema !== undefined && !isPostgresSchemaName(c.schema)) throw new Error(`not a plain schema name: ${c.schema}`);
  const options = `-c TimeZone=UTC${c.schema === undefined ? '' : ` -c search_path=${c.schema}`}`;
  const pool = new pg.Pool({ connectionString: c.connectionString, max: c.poolMax ?? 10, options });
  return { kind: 'postgres', pool, db: new Kysely<any>({ dialect: new PostgresDialect({ pool }) }) };
};

/** The driver of a compile-only dialect: it refuses every connection. */
class RefusingDriver implements Driver {
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    throw new Error('mssqlCompiler compiles SQL only: configure a SQL Server connection to run it');
  }
  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * A SQL Server dialect that only compiles: used to check the SQL the engine builds for SQL Server
 * where no server runs (tests), and by commands that print SQL. Running a query fails at once.
 */
export const mssqlCompiler = (): SqlDialect => ({
  kind: 'mssql',
  db: new Kysely<any>({
    dialect: {
      createAdapter: () => new MssqlAdapter(),
      createDriver: () => new RefusingDriver(),
      createIntrospector: (db) => new MssqlIntrospector(db),
      createQueryCompiler: () => new MssqlQueryCompiler(),
    },
  }),
});

/**
 * An ADO.NET style connection string: `Server=host,1433;Database=db;User Id=u;Password=p;Encrypt=true`.
 * Keys are case-insensitive; `Data Source`/`Address` mean Server, `Initial Catalog` means Database.
 */
export const parseMssqlConnectionString = (text: string): MssqlConnection => {
  const parts = new Map<string, string>();
  for (const piece of text.split(';')) {
    const at = piece.indexOf('=');
    if (at > 0) parts.set(piece.slice(0, at).trim().toLowerCase(), piece.slice(at + 1).trim());
  }
  const pick = (...keys: string[]): string | undefined => keys.map((k) => parts.get(k)).find((v) => v !== undefined);
  const bool = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : /^(true|yes|1)$/i.test(v));
  const serverText = (pick('server', 'data source', 'address') ?? 'localhost').replace(/^tcp:/i, '');
  const [server, port] = serverText.split(',');
  const c: MssqlConnection = { server: server.trim(), database: pick('database', 'initial catalog') ?? 'master' };
  if (port !== undefined && port.trim() !== '') c.port = Number(port);
  const user = pick('user id', 'uid', 'user');
  if (user !== undefined) c.user = user;
  const password = pick('password', 'pwd');
  if (password !== undefined) c.password = password;
  const encrypt = bool(pick('encrypt'));
  if (encrypt !== undefined) c.encrypt = encrypt;
  const trust = bool(pick('trustservercertificate'));
  if (trust !== undefined) c.trustServerCertificate = trust;
  const pool = pick('max pool size');
  if (pool !== undefined) c.poolMax = Number(pool);
  return c;
};

/** Which database the records of an organization live in (configuration, docs/sql-server.md). */
export type RecordDatabaseConfig = { kind: 'sqlite'; dataDir: string } | { kind: 'mssql'; connectionString: string };

/** Reads the choice from the environment: TESSERA_MSSQL (a connection string) selects SQL Server. */
export const recordDatabaseConfig = (env: Record<string, string | undefined>, dataDir: string): RecordDatabaseConfig =>
  env.TESSERA_MSSQL ? { kind: 'mssql', connectionString: env.TESSERA_MSSQL } : { kind: 'sqlite', dataDir };
