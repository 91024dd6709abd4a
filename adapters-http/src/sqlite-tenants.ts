import type { Kysely } from 'kysely';
import { InMemoryChangeFeed, systemClock, type ChangeFeed, type Clock, type Entity, type RecordStore } from '@tessera/core';
import { KyselySchemaStore, openOrgDatabase, sqliteDdl, sqliteKysely, type SqliteDatabase } from '@tessera/adapters-sql';
import type { Tenant, Tenants } from './tenants.js';

/** Builds an organization's RecordStore over its database (the composition root picks the class). */
export type StoreFactory = (
  raw: SqliteDatabase,
  db: Kysely<any>,
  lookup: (name: string) => Entity | undefined,
  feed: ChangeFeed,
) => RecordStore;

/** How often an open organization checks whether its metadata was changed (by `tessera schema apply`). */
const METADATA_RECHECK_MS = 5_000;

type Open = { tenant: Tenant; db: Kysely<any>; schema: KyselySchemaStore; version: number; checked: number; byName: Map<string, Entity> };

/**
 * The organizations of an embedded data folder: DATA/orgs/{name}.sqlite each, opened on first
 * use and kept open. The entities come from the metadata recorded in each database.
 */
export class SqliteTenants implements Tenants {
  private readonly open_ = new Map<string, Promise<Open>>();

  constructor(
    private readonly dataDir: string,
    private readonly makeStore: StoreFactory,
    private readonly clock: Clock = systemClock,
  ) {}

  async open(orgName: string): Promise<Tenant> {
    let entry = this.open_.get(orgName);
    if (!entry) {
      entry = this.load(orgName);
      this.open_.set(orgName, entry);
      entry.catch(() => this.open_.delete(orgName));
    }
    const o = await entry;
    if (Date.now() - o.checked > METADATA_RECHECK_MS) await this.recheck(o);
    return o.tenant;
  }

  private async load(orgName: string): Promise<Open> {
    const opened = openOrgDatabase(this.dataDir, orgName);
    if (opened._tag === 'Left') throw new Error(opened.left.message);
    const db = sqliteKysely(opened.right);
    const schema = new KyselySchemaStore(db, sqliteDdl, this.clock);
    const byName = new Map<string, Entity>();
    const feed = new InMemoryChangeFeed();
    const store = this.makeStore(opened.right, db, (name) => byName.get(name), feed);
    const o: Open = {
      db,
      schema,
      version: -1,
      checked: 0,
      byName,
      tenant: { name: orgName, store, feed, entities: () => [...byName.values()] },
    };
    await this.recheck(o);
    return o;
  }

  private async recheck(o: Open): Promise<void> {
    o.checked = Date.now();
    const applied = await o.schema.readApplied();
    const version = applied?.version ?? 0;
    if (version === o.version) return;
    o.byName.clear();
    for (const e of applied?.entities ?? []) o.byName.set(e.logicalName, e);
    o.version = version;
  }

  async close(): Promise<void> {
    const all = [...this.open_.values()];
    this.open_.clear();
    for (const p of all) {
      const o = await p.catch(() => null);
      if (o) await o.db.destroy();
    }
  }
}
