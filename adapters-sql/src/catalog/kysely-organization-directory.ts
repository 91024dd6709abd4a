import { isLeft } from 'fp-ts/lib/Either.js';
import {
  normalizeEmail,
  PASSWORD_HASH_FIELD,
  systemCaller,
  USER_ENTITY,
  type DirectoryUser,
  type Entity,
  type EntityRecord,
  type OrganizationDirectory,
  type OrganizationStatus,
  type TenantRegistry,
} from '@tessera/core/internal';
import type { OrganizationDatabases } from '../tenants/organization-databases.js';
import type { CatalogDb } from './catalog-database.js';

/** statecode 1 is Inactive (spec 000 section 3): an inactive user cannot sign in. */
const STATE_INACTIVE = 1;
const USER_FIELDS = ['id', 'name', 'emailaddress', 'statecode', PASSWORD_HASH_FIELD];

/**
 * The OrganizationDirectory port: organizations in the catalog, users in each organization's
 * own systemuser rows (read as the system, since sign-in has no user yet).
 */
export class KyselyOrganizationDirectory implements OrganizationDirectory {
  constructor(
    private readonly db: CatalogDb,
    /** Where a new organization's database is created. */
    private readonly databases: Pick<OrganizationDatabases, 'create'>,
    /** The organizations whose database exists (their users are systemuser records). */
    private readonly tenants: Pick<TenantRegistry, 'open'>,
  ) {}

  private async openStore(orgName: string) {
    return (await this.tenants.open(orgName)).store;
  }

  async status(orgName: string): Promise<OrganizationStatus | null> {
    const row = await this.db.selectFrom('organization').select('status').where('name', '=', orgName).executeTakeFirst();
    return row ? (row.status as OrganizationStatus) : null;
  }

  async list(): Promise<string[]> {
    const rows = await this.db.selectFrom('organization').select('name').where('status', '=', 'ready').orderBy('name').execute();
    return rows.map((r) => r.name);
  }

  async reserve(orgName: string, now: Date): Promise<boolean> {
    // A name whose creation failed may be tried again; any other existing name is taken.
    const r = await this.db
      .insertInto('organization')
      .values({ name: orgName, status: 'creating', created: now.getTime() })
      .onConflict((c) => c.column('name').doUpdateSet({ status: 'creating', created: now.getTime() }).where('organization.status', '=', 'failed'))
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  provision(orgName: string, entities: readonly Entity[]): Promise<void> {
    return this.databases.create(orgName, entities);
  }

  async setStatus(orgName: string, status: OrganizationStatus): Promise<void> {
    await this.db.updateTable('organization').set({ status }).where('name', '=', orgName).execute();
  }

  private async findUser(orgName: string, attribute: string, operator: 'eq' | 'like', value: string): Promise<EntityRecord[]> {
    const store = await this.openStore(orgName);
    const found = await store.retrieveMultiple(systemCaller(), {
      entity: {
        name: USER_ENTITY,
        attributes: USER_FIELDS.map((a) => ({ attribute: a })),
        filter: { conditions: [{ attribute, operator, value }] },
      },
      pageSize: 50,
    });
    if (isLeft(found)) throw new Error(`systemuser lookup failed: ${found.left.message}`);
    return found.right.records as EntityRecord[];
  }

  private async toUser(orgName: string, r: EntityRecord): Promise<DirectoryUser> {
    const id = String(r.id);
    const change = await this.db.selectFrom('password_change').select('user_id').where('org_name', '=', orgName).where('user_id', '=', id).executeTakeFirst();
    const hash = r[PASSWORD_HASH_FIELD];
    return {
      id,
      name: String(r.name ?? ''),
      email: String(r.emailaddress ?? ''),
      active: Number(r.statecode ?? 0) !== STATE_INACTIVE,
      passwordHash: typeof hash === 'string' && hash.length > 0 ? hash : null,
      mustChangePassword: change !== undefined,
    };
  }

  async findUserByEmail(orgName: string, email: string): Promise<DirectoryUser | null> {
    const wanted = normalizeEmail(email);
    if (!wanted) return null;
    // LIKE finds the address whatever its stored case; the exact comparison then drops wildcard matches.
    const rows = await this.findUser(orgName, 'emailaddress', 'like', wanted);
    const row = rows.find((r) => normalizeEmail(String(r.emailaddress ?? '')) === wanted);
    return row ? this.toUser(orgName, row) : null;
  }

  async findUserById(orgName: string, userId: string): Promise<DirectoryUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
    const rows = await this.findUser(orgName, 'id', 'eq', userId);
    return rows[0] ? this.toUser(orgName, rows[0]) : null;
  }

  async setPassword(orgName: string, userId: string, passwordHash: string, mustChange: boolean): Promise<void> {
    const store = await this.openStore(orgName);
    const r = await store.update(systemCaller(), USER_ENTITY, { id: userId, [PASSWORD_HASH_FIELD]: passwordHash });
    if (isLeft(r)) throw new Error(`password not stored: ${r.left.message}`);
    if (mustChange)
      await this.db.insertInto('password_change').values({ org_name: orgName, user_id: userId }).onConflict((c) => c.doNothing()).execute();
    else await this.db.deleteFrom('password_change').where('org_name', '=', orgName).where('user_id', '=', userId).execute();
  }
}
