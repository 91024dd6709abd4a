import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  createOrganization,
  systemCaller,
  systemPack,
  USER_ENTITY,
  type Clock,
  type IdGenerator,
  type OrganizationDirectory,
  type PasswordHasher,
  type TenantRegistry,
} from '@tessera/core/internal';
import { KyselyOrganizationDirectory, KyselyTenantRegistry, openCatalog, sqliteDatabases } from '@tessera/adapters-sql';

/**
 * The OrganizationDirectory port's contract (core/src/ports/organization-directory.ts), the same
 * body for every implementation: organizations in the catalog (SQLite in memory or on disk), users
 * in each organization's own database. Sign-in reaches users only through this port.
 */
type Fixture = { directory: OrganizationDirectory; tenants: TenantRegistry; close(): Promise<void> };

const clock: Clock = { now: () => new Date(Date.UTC(2026, 0, 1)) };
let n = 0;
const ids: IdGenerator = { newId: () => `d0000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
/** A cheap stand-in: the directory stores the hash it is given, whatever made it. */
const hasher: PasswordHasher = { hash: async (p) => `plain$${p}`, verify: async (p, s) => s === `plain$${p}` };

const kyselyFixture = (catalogFile: (dir: string) => string) => async (): Promise<Fixture> => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-directory-'));
  const catalog = await openCatalog(catalogFile(dir));
  const databases = sqliteDatabases(dir, clock, ids);
  const tenants = new KyselyTenantRegistry(databases, clock);
  return {
    directory: new KyselyOrganizationDirectory(catalog, databases, tenants),
    tenants,
    close: async () => {
      await tenants.close();
      await catalog.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const IMPLEMENTATIONS: Array<[string, () => Promise<Fixture>]> = [
  ['KyselyOrganizationDirectory, catalog on SQLite in memory', kyselyFixture(() => ':memory:')],
  ['KyselyOrganizationDirectory, catalog on a SQLite file', kyselyFixture((dir) => join(dir, 'catalog.sqlite'))],
];

const ADMIN = { name: 'Ada Admin', email: 'Ada@Acme.test', password: 'admin-password-1' };

describe.each(IMPLEMENTATIONS)('OrganizationDirectory contract: %s', (_name, make) => {
  let f: Fixture;
  const open = async () => (f = await make());
  afterEach(async () => f?.close());

  const create = async (orgName: string) => {
    const r = await createOrganization(
      { directory: f.directory, hasher, clock, openStore: async (org) => (await f.tenants.open(org)).store },
      { orgName, admin: ADMIN, packs: [systemPack()] },
    );
    if (isLeft(r)) throw new Error(r.left.message);
    return r.right;
  };

  it('a name is reserved once; a failed creation frees it; only ready organizations are listed, by name', async () => {
    const { directory } = await open();
    expect(await directory.status('acme')).toBeNull();
    expect(await directory.reserve('acme', clock.now())).toBe(true);
    expect(await directory.status('acme')).toBe('creating');
    expect(await directory.reserve('acme', clock.now())).toBe(false);
    await directory.setStatus('acme', 'failed');
    expect(await directory.reserve('acme', clock.now())).toBe(true);
    await directory.setStatus('acme', 'ready');
    expect(await directory.reserve('acme', clock.now())).toBe(false);
    expect(await directory.reserve('beta', clock.now())).toBe(true);
    expect(await directory.reserve('alpha', clock.now())).toBe(true);
    await directory.setStatus('alpha', 'ready');
    expect(await directory.list()).toEqual(['acme', 'alpha']);
  });

  it("users are found by e-mail whatever its case, and by id; a stranger, a wildcard or a malformed id finds no one", async () => {
    await open();
    const { adminId } = await create('acme');
    const byEmail = await f.directory.findUserByEmail('acme', '  ADA@acme.TEST ');
    expect(byEmail).toEqual({ id: adminId, name: 'Ada Admin', email: 'ada@acme.test', active: true, passwordHash: 'plain$admin-password-1', mustChangePassword: false });
    expect(await f.directory.findUserById('acme', adminId)).toEqual(byEmail);
    expect(await f.directory.findUserByEmail('acme', 'nobody@acme.test')).toBeNull();
    expect(await f.directory.findUserByEmail('acme', '%@acme.test')).toBeNull();
    expect(await f.directory.findUserByEmail('acme', '')).toBeNull();
    expect(await f.directory.findUserById('acme', 'not-an-id')).toBeNull();
  });

  it('a stored password replaces the old one; mustChange forces a change at the next sign-in until the next store', async () => {
    await open();
    const { adminId } = await create('acme');
    await f.directory.setPassword('acme', adminId, 'plain$new-password', true);
    expect(await f.directory.findUserById('acme', adminId)).toMatchObject({ passwordHash: 'plain$new-password', mustChangePassword: true });
    await f.directory.setPassword('acme', adminId, 'plain$newer-password', false);
    expect(await f.directory.findUserById('acme', adminId)).toMatchObject({ passwordHash: 'plain$newer-password', mustChangePassword: false });
  });

  it('an inactive user (statecode 1) is found, as inactive; users of one organization are not found in another', async () => {
    await open();
    const { adminId, store } = await create('acme');
    await create('beta');
    const r = await store.update(systemCaller(), USER_ENTITY, { id: adminId, statecode: 1 });
    expect(isLeft(r)).toBe(false);
    expect(await f.directory.findUserById('acme', adminId)).toMatchObject({ active: false });
    expect(await f.directory.findUserById('beta', adminId)).toBeNull();
  });
});
