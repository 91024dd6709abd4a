import type { ChangeFeed, Entity, RecordStore } from '@tessera/core/internal';

/** One organization as the server uses it: its records, its change feed and its metadata. */
export type Tenant = {
  readonly name: string;
  readonly store: RecordStore;
  readonly feed: ChangeFeed;
  /** The organization's entities with their system fields. */
  entities(): readonly Entity[];
};

/**
 * Opens organizations by name. A session reaches exactly the tenant of its organization; the
 * name comes from the session, never from the request.
 */
export interface Tenants {
  open(orgName: string): Promise<Tenant>;
  /** Closes every open organization database. */
  close(): Promise<void>;
}
