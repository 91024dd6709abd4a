import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entity } from '@tessera/core/internal';
import { catalogDatabasePath, mssqlOrgDatabaseName, orgDatabasePath, parseOrgName } from './data-dir.js';
import { createOrganizationDatabase } from './schema/organization-database.js';
import { KyselySchemaStore } from './schema/kysely-schema-store.js';
import { sqliteDdl } from './schema/sqlite-ddl.js';
import { openSqlite } from './sqlite/open-sqlite.js';
import { openOrgDatabase, orgDatabaseExists, sqliteKysely } from './sqlite/org-database.js';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tessera-data-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const account: Entity = { logicalName: 'account', displayName: 'Account', displayNamePlural: 'Accounts', properties: [] };

describe('the data folder: catalog.sqlite and orgs/{name}.sqlite (docs/schema.md)', () => {
  it('places the catalog and one database per organization', () => {
    expect(catalogDatabasePath('/srv/data')).toBe(join('/srv/data', 'catalog.sqlite'));
    expect(orgDatabasePath('/srv/data', 'acme-2')).toBe(join('/srv/data', 'orgs', 'acme-2.sqlite'));
    expect(mssqlOrgDatabaseName('acme-2')).toBe('tessera_acme-2');
  });

  it('takes organization names in any case and keeps them in lower case', () => {
    expect(parseOrgName(' Acme ')).toEqual({ _tag: 'Right', right: 'acme' });
    expect(orgDatabasePath('/d', 'ACME')).toBe(join('/d', 'orgs', 'acme.sqlite'));
  });

  it('accepts only letters, digits and dashes, 1 to 63, no dash at either end: no path can be reached', () => {
    for (const ok of ['a', 'acme', 'acme-corp', '1and1', 'x'.repeat(63)]) expect(parseOrgName(ok)._tag).toBe('Right');
    for (const bad of ['', '-acme', 'acme-', '../etc', 'a/b', 'a\\b', '.', '..', 'acme.sqlite', 'a b', 'ačme', 'x'.repeat(64), 'a_b'])
      expect(parseOrgName(bad)).toMatchObject({ _tag: 'Left', left: { code: 'ERR_INPUT' } });
    expect(() => orgDatabasePath('/d', '../../etc/passwd')).toThrow(RangeError);
  });

  it('refuses the device names Windows cannot use as files', () => {
    for (const bad of ['con', 'NUL', 'com1', 'lpt9', 'aux', 'prn'])
      expect(parseOrgName(bad)).toEqual({ _tag: 'Left', left: expect.objectContaining({ message: `Invalid organization name "${bad}": the name is reserved` }) });
  });
});

describe('openSqlite: how every SQLite file is opened', () => {
  it('uses the WAL journal, a busy timeout and foreign keys, creating the folder', () => {
    const path = join(dataDir(), 'deep', 'x.sqlite');
    const db = openSqlite(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    } finally {
      db.close();
    }
    expect(existsSync(path)).toBe(true);
  });
});

describe('organization databases', () => {
  it('createOrganizationDatabase creates orgs/{name}.sqlite with the metadata applied as version 1', async () => {
    const data = dataDir();
    const r = await createOrganizationDatabase(data, 'Acme', [account], { now: () => new Date('2026-03-01T00:00:00Z') });
    expect(r).toMatchObject({ _tag: 'Right', right: { version: 1, appliedOn: '2026-03-01T00:00:00.000Z' } });
    expect(existsSync(join(data, 'orgs', 'acme.sqlite'))).toBe(true);
    const db = openOrgDatabase(data, 'acme');
    if (db._tag === 'Left') throw new Error(db.left.message);
    const k = sqliteKysely(db.right);
    try {
      expect(db.right.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all()).toEqual([
        { name: 'account' },
        { name: 'tessera_metadata' },
      ]);
      expect((await new KyselySchemaStore(k, sqliteDdl, { now: () => new Date() }).readApplied())?.version).toBe(1);
    } finally {
      await k.destroy();
    }
  });

  it('refuses to create an organization that exists', async () => {
    const data = dataDir();
    await createOrganizationDatabase(data, 'acme', [account]);
    expect(await createOrganizationDatabase(data, 'ACME', [account])).toMatchObject({
      _tag: 'Left',
      left: { message: 'Organization acme exists already' },
    });
  });

  it('leaves no file behind when the metadata cannot be applied', async () => {
    const data = dataDir();
    const r = await createOrganizationDatabase(data, 'acme', [{ ...account, logicalName: 'bad name' }]);
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InputError' } });
    expect(orgDatabaseExists(data, 'acme')).toBe(false);
    expect(readdirSync(join(data, 'orgs'))).toEqual([]);
  });

  it('opening an unknown organization is a value, and creates no file', () => {
    const data = dataDir();
    expect(openOrgDatabase(data, 'nobody')).toMatchObject({ _tag: 'Left', left: { message: 'Unknown organization nobody' } });
    expect(existsSync(join(data, 'orgs', 'nobody.sqlite'))).toBe(false);
  });
});
