/**
 * The organizations of one host (ARCHITECTURE.md "Tenancy and storage"): one database per
 * organization, opened by name. A session reaches exactly the tenant of its organization; the
 * name comes from the session, never from the request. Implementation: KyselyTenantRegistry
 * (adapters-sql), on the data folder's SQLite files or on a SQL Server.
 */
import type { Entity } from '../metadata/entity.js';
import type { ChangeFeed } from './change-feed.js';
import type { RecordStore } from './record-store.js';
import type { TenantSchema } from './schema-store.js';

/** One organization as a host uses it: its records, its change feed and its metadata. */
export type Tenant = {
  readonly name: string;
  readonly store: RecordStore;
  readonly feed: ChangeFeed;
  /** The organization's entities with their system fields (re-read when another process applied new metadata). */
  entities(): readonly Entity[];
  /** Its schema, for migrating it from this host (the metadata editor); absent where the host cannot (tests' in-memory tenants). */
  readonly schema?: TenantSchema;
};

export interface TenantRegistry {
  /** The organization's tenant, opened on first use and kept open; rejects when its database cannot be opened. */
  open(orgName: string): Promise<Tenant>;
  /** Closes every open organization database. */
  close(): Promise<void>;
}
