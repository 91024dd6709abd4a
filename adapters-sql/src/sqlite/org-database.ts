import { existsSync } from 'node:fs';
import { Kysely, SqliteDialect } from 'kysely';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { notFound, type InputError, type NotFound } from '@tessera/core/internal';
import { orgDatabasePath, parseOrgName } from '../data-dir.js';
import { openSqlite, type SqliteDatabase } from './open-sqlite.js';

/** A Kysely over an open SQLite database. Destroying the Kysely closes the database. */
export const sqliteKysely = <DB = any>(db: SqliteDatabase): Kysely<DB> => new Kysely<DB>({ dialect: new SqliteDialect({ database: db }) });

export const unknownOrganization = (org: string): NotFound => notFound(`Unknown organization ${org}`);

/** Whether the data folder holds a database for the organization. */
export const orgDatabaseExists = (dataDir: string, org: string): boolean => {
  const name = parseOrgName(org);
  return name._tag === 'Right' && existsSync(orgDatabasePath(dataDir, name.right));
};

/**
 * Opens an existing organization's database. An unknown organization is a value, never a new
 * empty file: reading must not create organizations.
 */
export const openOrgDatabase = (dataDir: string, org: string): Either<InputError | NotFound, SqliteDatabase> => {
  const name = parseOrgName(org);
  if (name._tag === 'Left') return name;
  const path = orgDatabasePath(dataDir, name.right);
  if (!existsSync(path)) return left(unknownOrganization(name.right));
  return right(openSqlite(path, { mustExist: true }));
};
