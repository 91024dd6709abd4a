import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateSchema, type Clock } from '@tessera/core/internal';
import { KyselySchemaStore } from '../schema/kysely-schema-store.js';
import { sqliteDdl } from '../schema/sqlite-ddl.js';
import { openOrgDatabase, sqliteKysely } from '../sqlite/org-database.js';
import { entity, prop } from '../../../tests/src/fixtures/metadata-builders.js';
import { KyselyTenantRegistry, METADATA_RECHECK_MS } from './kysely-tenant-registry.js';
import { sqliteDatabases } from './organization-databases.js';

/** A clock the test moves. */
class TestClock implements Clock {
  ms = Date.UTC(2026, 0, 1);
  now(): Date {
    return new Date(this.ms);
  }
}

const ids = { newId: () => crypto.randomUUID() };
const ACCOUNT = entity('account', [prop('city', 'String', { max: 100 })]);
const LEAD = entity('lead', [prop('source', 'String', { max: 100 })]);

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the tenant registry (KyselyTenantRegistry over the data folder)', () => {
  it('opens an organization once, and sees metadata another process applied once the recheck time has passed on its clock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-tenants-'));
    const clock = new TestClock();
    const databases = sqliteDatabases(dir, clock, ids);
    await databases.create('acme', [ACCOUNT]);
    const tenants = new KyselyTenantRegistry(databases, clock);
    try {
      const tenant = await tenants.open('acme');
      expect(await tenants.open('acme')).toBe(tenant);
      expect(tenant.entities().map((e) => e.logicalName)).toEqual(['account']);

      // `tessera schema apply` in another process: its own connection to the same file.
      const other = openOrgDatabase(dir, 'acme');
      if (other._tag === 'Left') throw new Error(other.left.message);
      const db = sqliteKysely(other.right);
      const applied = await migrateSchema(new KyselySchemaStore(db, sqliteDdl, clock), [ACCOUNT, LEAD]);
      await db.destroy();
      expect(applied._tag).toBe('Right');

      clock.ms += METADATA_RECHECK_MS - 1;
      expect((await tenants.open('acme')).entities().map((e) => e.logicalName)).toEqual(['account']);
      clock.ms += 2;
      expect((await tenants.open('acme')).entities().map((e) => e.logicalName).sort()).toEqual(['account', 'lead']);
    } finally {
      await tenants.close();
    }
  });

  it('an organization without a database is refused, and can be opened once it exists', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-tenants-'));
    const clock = new TestClock();
    const databases = sqliteDatabases(dir, clock, ids);
    const tenants = new KyselyTenantRegistry(databases, clock);
    try {
      await expect(tenants.open('nosuch')).rejects.toThrow(/Unknown organization nosuch/);
      await databases.create('nosuch', [ACCOUNT]);
      expect((await tenants.open('nosuch')).name).toBe('nosuch');
    } finally {
      await tenants.close();
    }
  });
});
