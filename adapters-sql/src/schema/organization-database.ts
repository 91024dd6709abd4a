import { rmSync } from 'node:fs';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  inputError,
  migrateSchema,
  systemClock,
  type AppliedMetadata,
  type Clock,
  type Entity,
  type InputError,
  type MigrationFailure,
} from '@tessera/core/internal';
import { orgDatabasePath, parseOrgName } from '../data-dir.js';
import { openSqlite } from '../sqlite/open-sqlite.js';
import { orgDatabaseExists, sqliteKysely } from '../sqlite/org-database.js';
import { KyselySchemaStore } from './kysely-schema-store.js';
import { sqliteDdl } from './sqlite-ddl.js';

const removeDatabaseFiles = (path: string): void => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
};

/**
 * Creates an organization's database in the data folder and applies its first metadata
 * (version 1). The organization must not exist yet. If anything fails, no file is left behind.
 * Registering the organization in the catalog is the caller's part (`tessera org create`).
 */
export const createOrganizationDatabase = async (
  dataDir: string,
  org: string,
  entities: readonly Entity[],
  clock: Clock = systemClock,
): Promise<Either<InputError | MigrationFailure, AppliedMetadata>> => {
  const name = parseOrgName(org);
  if (name._tag === 'Left') return name;
  if (orgDatabaseExists(dataDir, name.right)) return left(inputError(`Organization ${name.right} exists already`));
  const path = orgDatabasePath(dataDir, name.right);
  const db = sqliteKysely(openSqlite(path));
  let result: Awaited<ReturnType<typeof migrateSchema>>;
  try {
    result = await migrateSchema(new KyselySchemaStore(db, sqliteDdl, clock), entities);
  } catch (e) {
    await db.destroy();
    removeDatabaseFiles(path);
    throw e;
  }
  await db.destroy();
  if (result._tag === 'Left') {
    removeDatabaseFiles(path);
    return result;
  }
  return right(result.right.applied as AppliedMetadata);
};
