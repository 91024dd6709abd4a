import type { EntityRecord } from '../metadata/entity.js';
import type { LocalPassword } from './local-password.js';
import type { QueueEntry } from './queue.js';

/**
 * The OfflineStore port (issue 21 "Offline data"): what the desktop app keeps across restarts.
 * The web client implements it on IndexedDB; InMemoryOfflineStore serves tests and the reference.
 * The contract suite tests/src/contract/offline-store.test.ts runs against every implementation.
 * Values go in and come out as copies (no shared references with the caller).
 */
export interface OfflineStore {
  /** The records kept of an entity (any order). */
  records(entity: string): Promise<EntityRecord[]>;
  /** Adds or replaces records by id. */
  putRecords(entity: string, records: readonly EntityRecord[]): Promise<void>;
  /** Removes records by id (missing ids are fine). */
  deleteRecords(entity: string, ids: readonly string[]): Promise<void>;
  /** The entities with records kept. */
  entities(): Promise<string[]>;
  /** The change queue, in order. */
  queue(): Promise<QueueEntry[]>;
  /** Replaces the queue (after an edit or an acknowledged batch), as one write. */
  setQueue(queue: readonly QueueEntry[]): Promise<void>;
  /** client id -> server id of the acknowledged creates not yet re-keyed. */
  idMap(): Promise<Record<string, string>>;
  setIdMap(map: Readonly<Record<string, string>>): Promise<void>;
  /** The cached getusercontext answer (undefined: none, see goOffline). */
  userContext(): Promise<unknown>;
  setUserContext(context: unknown): Promise<void>;
  /** The last sync time (a server timestamp, ISO) or undefined before the first. */
  lastSync(): Promise<string | undefined>;
  setLastSync(at: string): Promise<void>;
  localPassword(): Promise<LocalPassword | undefined>;
  setLocalPassword(p: LocalPassword | undefined): Promise<void>;
  /** Forgets everything (sign-out of another user). */
  clear(): Promise<void>;
}

const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** The in-memory OfflineStore. */
export class InMemoryOfflineStore implements OfflineStore {
  private byEntity = new Map<string, Map<string, EntityRecord>>();
  private q: QueueEntry[] = [];
  private ids: Record<string, string> = {};
  private context: unknown = undefined;
  private last: string | undefined = undefined;
  private password: LocalPassword | undefined = undefined;

  async records(entity: string): Promise<EntityRecord[]> {
    return [...(this.byEntity.get(entity)?.values() ?? [])].map(copy);
  }
  async putRecords(entity: string, records: readonly EntityRecord[]): Promise<void> {
    const m = this.byEntity.get(entity) ?? new Map<string, EntityRecord>();
    for (const r of records) if (typeof r.id === 'string') m.set(r.id, copy(r));
    this.byEntity.set(entity, m);
  }
  async deleteRecords(entity: string, ids: readonly string[]): Promise<void> {
    const m = this.byEntity.get(entity);
    if (m) for (const id of ids) m.delete(id);
  }
  async entities(): Promise<string[]> {
    return [...this.byEntity.entries()].filter(([, m]) => m.size > 0).map(([e]) => e);
  }
  async queue(): Promise<QueueEntry[]> {
    return copy(this.q);
  }
  async setQueue(queue: readonly QueueEntry[]): Promise<void> {
    this.q = copy([...queue]);
  }
  async idMap(): Promise<Record<string, string>> {
    return { ...this.ids };
  }
  async setIdMap(map: Readonly<Record<string, string>>): Promise<void> {
    this.ids = { ...map };
  }
  async userContext(): Promise<unknown> {
    return copy(this.context);
  }
  async setUserContext(context: unknown): Promise<void> {
    this.context = copy(context);
  }
  async lastSync(): Promise<string | undefined> {
    return this.last;
  }
  async setLastSync(at: string): Promise<void> {
    this.last = at;
  }
  async localPassword(): Promise<LocalPassword | undefined> {
    return copy(this.password);
  }
  async setLocalPassword(p: LocalPassword | undefined): Promise<void> {
    this.password = copy(p);
  }
  async clear(): Promise<void> {
    this.byEntity = new Map();
    this.q = [];
    this.ids = {};
    this.context = undefined;
    this.last = undefined;
    this.password = undefined;
  }
}
