import { Container, ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import { systemClock, token, Tokens, type Schema, type SchemaStore } from '@tessera/core/internal';
import {
  KyselySchemaStore,
  mssqlDdl,
  mssqlDialect,
  mssqlOrgDatabaseName,
  openOrgDatabase,
  parseMssqlConnectionString,
  parseOrgName,
  readSqliteSchema,
  sqliteDdl,
  sqliteKysely,
  type DdlDialect,
  type DdlDialectName,
} from '@tessera/adapters-sql';
import { constant, provide, resolve } from '../di.js';
import { CliFailure, EXIT } from '../program.js';

/** Where the organization's database is: `--data DIR` (SQLite), or `--db mssql --connection STRING`. */
export type DatabaseOptions = { data: string; db: DdlDialectName; connection?: string; org: string };

/** An opened organization database, as the schema commands use it. */
export type SchemaDatabase = {
  readonly org: string;
  readonly ddl: DdlDialect;
  readonly store: SchemaStore;
  /** The schema the tables really have (SQLite reads its catalogue); null where it cannot be read. */
  liveSchema(): Schema | null;
  close(): Promise<void>;
};

const OrganizationDb = token<Kysely<any>>('cli.SchemaCommandDb');

/** The composition root of one schema command: the clock, the database and its SchemaStore. */
const storeOf = (db: Kysely<any>, ddl: DdlDialect): SchemaStore => {
  const c = new Container({ defaultScope: 'Singleton' });
  c.loadSync(
    new ContainerModule(({ bind }) => {
      constant(bind, Tokens.Clock, systemClock);
      constant(bind, OrganizationDb, db);
      provide(bind, Tokens.SchemaStore, [OrganizationDb, Tokens.Clock], (k, clock) => new KyselySchemaStore(k, ddl, clock));
    }),
  );
  return resolve(c, Tokens.SchemaStore);
};

export const openSchemaDatabase = (o: DatabaseOptions): SchemaDatabase => {
  const org = parseOrgName(o.org);
  if (org._tag === 'Left') throw new CliFailure(org.left.message, EXIT.usage);
  if (o.db !== 'mssql' && o.connection) throw new CliFailure('--connection is only for --db mssql', EXIT.usage);
  if (o.db === 'mssql') {
    if (!o.connection) throw new CliFailure('--db mssql needs --connection "Server=host;User Id=...;Password=..."', EXIT.usage);
    // The connection string names the server; the organization's database is tessera_{org} on it (docs/schema.md).
    const k = mssqlDialect({ ...parseMssqlConnectionString(o.connection), database: mssqlOrgDatabaseName(org.right) }).db;
    return { org: org.right, ddl: mssqlDdl, store: storeOf(k, mssqlDdl), liveSchema: () => null, close: () => k.destroy() };
  }
  const sqlite = openOrgDatabase(o.data, org.right);
  if (sqlite._tag === 'Left')
    throw new CliFailure(`${sqlite.left.message} in ${o.data}: check --org and --data (organizations are DATA/orgs/{name}.sqlite)`);
  const k = sqliteKysely(sqlite.right);
  return {
    org: org.right,
    ddl: sqliteDdl,
    store: storeOf(k, sqliteDdl),
    liveSchema: () => {
      const s = readSqliteSchema(sqlite.right);
      if (s._tag === 'Left') throw new CliFailure(`cannot read the tables of ${org.right}: ${s.left}`);
      return s.right;
    },
    close: () => k.destroy(),
  };
};
