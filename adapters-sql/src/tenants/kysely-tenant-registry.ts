import type { Kysely } from 'kysely';
import { InMemoryChangeFeed, type AppliedMetadata, type Clock, type Entity, type Tenant, type TenantRegistry, type TenantSchema } from '@tessera/core/internal';
import { compilePlan } from '../schema/ddl-dialect.js';
import { KyselySchemaStore } from '../schema/kysely-schema-store.js';
import type { OrganizationDatabases } from './organization-databases.js';

/** How often an open organization checks whether its metadata was changed (by `tessera schema apply`). */
export const METADATA_RECHECK_MS = 5_000;

type Open = { tenant: Tenant; db: Kysely<any>; schema: KyselySchemaStore; version: number; checked: number; byName: Map<string, Entity> };

/**
 * The TenantRegistry port: the organizations of one host, opened on first use and kept open.
 * Their entities come from the metadata recorded in each database, re-read when another process
 * applied new metadata (checked at most every METADATA_RECHECK_MS of the clock).
 */
export class KyselyTenantRegistry implements TenantRegistry {
  private readonly opened = new Map<string, Promise<Open>>();

  constructor(
    readonly databases: OrganizationDatabases,
    private readonly clock: Clock,
  ) {}

  async open(orgName: string): Promise<Tenant> {
    let entry = this.opened.get(orgName);
    if (!entry) {
      entry = this.load(orgName);
      this.opened.set(orgName, entry);
      entry.catch(() => this.opened.delete(orgName));
    }
    const o = await entry;
    if (this.clock.now().getTime() - o.checked > METADATA_RECHECK_MS) await this.recheck(o);
    return o.tenant;
  }

  private async load(orgName: string): Promise<Open> {
    const c = this.databases.connect(orgName);
    const byName = new Map<string, Entity>();
    const feed = new InMemoryChangeFeed();
    const store = c.store((name) => byName.get(name), feed);
    const schema = new KyselySchemaStore(c.db, c.ddl, this.clock);
    // The metadata editor migrates through the tenant: what it applies is the tenant's metadata at once.
    const tenantSchema: TenantSchema = {
      dialect: c.ddl.name,
      readApplied: () => schema.readApplied(),
      dataAtRisk: (plan) => schema.dataAtRisk(plan),
      statements: (from, plan) => compilePlan(c.ddl, from, plan),
      apply: async (change, progress) => {
        const r = await schema.apply(change, progress);
        if (r._tag === 'Right') this.take(o, r.right);
        return r;
      },
    };
    const o: Open = {
      db: c.db,
      schema,
      version: -1,
      checked: 0,
      byName,
      tenant: { name: orgName, store, feed, entities: () => [...byName.values()], schema: tenantSchema },
    };
    await this.recheck(o);
    return o;
  }

  private async recheck(o: Open): Promise<void> {
    o.checked = this.clock.now().getTime();
    const applied = await o.schema.readApplied();
    if ((applied?.version ?? 0) === o.version) return;
    this.take(o, applied);
  }

  /** The tenant's entities become those of this applied metadata. */
  private take(o: Open, applied: AppliedMetadata | null): void {
    o.byName.clear();
    for (const e of applied?.entities ?? []) o.byName.set(e.logicalName, e);
    o.version = applied?.version ?? 0;
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    for (const p of all) {
      const o = await p.catch(() => null);
      if (o) await o.db.destroy();
    }
    await this.databases.close?.();
  }
}
