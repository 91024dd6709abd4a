import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CATALOG_MIGRATIONS, openCatalog } from './catalog-database.js';

/**
 * The catalog's tables are versioned by Kysely's Migrator (issue 12 point 1): a fresh data folder
 * gets every version; a folder made before the catalog was versioned (the same tables, no record of
 * versions) opens with its data; opening again applies nothing.
 */
const TABLES = ['attempt', 'link', 'organization', 'password_change', 'puzzle', 'session'];

/** The catalog as the code before versioning created it, with a session and an organization in it. */
const UNVERSIONED_CATALOG = [
  `CREATE TABLE IF NOT EXISTS organization (name TEXT PRIMARY KEY, status TEXT NOT NULL, created INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS password_change (org_name TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (org_name, user_id))`,
  `CREATE TABLE IF NOT EXISTS session (name TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, org_name TEXT NOT NULL,
     user_id TEXT NOT NULL, user_name TEXT NOT NULL, created INTEGER NOT NULL, modified INTEGER NOT NULL,
     read INTEGER NOT NULL, ip TEXT NOT NULL, agent TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS session_user ON session (org_name, user_id)`,
  `CREATE TABLE IF NOT EXISTS link (token_hash TEXT PRIMARY KEY, org_name TEXT NOT NULL, user_id TEXT NOT NULL,
     purpose TEXT NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS puzzle (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)`,
  `INSERT INTO organization VALUES ('acme', 'ready', 1)`,
  `INSERT INTO session VALUES ('s1', 'hash1', 'acme', 'u1', 'User', 1, 1, 1, '10.0.0.1', 'agent')`,
];

const tablesOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('the catalog is versioned with Kysely Migrator', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a fresh data folder gets every version, recorded, and its tables', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-catalog-'));
    const file = join(dir, 'catalog.sqlite');
    const db = await openCatalog(file);
    const applied = await db.selectFrom('kysely_migration' as any).select('name').execute();
    await db.destroy();
    expect(applied.map((r) => (r as { name: string }).name)).toEqual(Object.keys(CATALOG_MIGRATIONS));
    expect(tablesOf(file)).toEqual(expect.arrayContaining(TABLES));
  });

  it('a catalog made before versioning opens with its organizations and sessions, and is recorded at the latest version', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-catalog-'));
    const file = join(dir, 'catalog.sqlite');
    const old = new Database(file);
    for (const statement of UNVERSIONED_CATALOG) old.exec(statement);
    old.close();
    const db = await openCatalog(file);
    try {
      expect(await db.selectFrom('organization').selectAll().execute()).toEqual([{ name: 'acme', status: 'ready', created: 1 }]);
      expect((await db.selectFrom('session').select(['name', 'org_name']).execute())).toEqual([{ name: 's1', org_name: 'acme' }]);
      const applied = await db.selectFrom('kysely_migration' as any).select('name').execute();
      expect(applied).toHaveLength(Object.keys(CATALOG_MIGRATIONS).length);
    } finally {
      await db.destroy();
    }
  });

  it('opening a catalog again applies nothing and keeps its data', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-catalog-'));
    const file = join(dir, 'catalog.sqlite');
    const first = await openCatalog(file);
    await first.insertInto('puzzle').values({ id: 'p1', expires: 5 }).execute();
    await first.destroy();
    const again = await openCatalog(file);
    try {
      expect(await again.selectFrom('puzzle').selectAll().execute()).toEqual([{ id: 'p1', expires: 5 }]);
      expect(await again.selectFrom('kysely_migration' as any).select('name').execute()).toHaveLength(Object.keys(CATALOG_MIGRATIONS).length);
    } finally {
      await again.destroy();
    }
  });
});
