import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { Caller, DomainError, Entity, EntityRecord, FetchRequest, FetchResult } from '../core.js';
import { errorText, InMemoryRecordStore, packMask } from '../core.js';
import { ServerError, type ApiClient, type ExecuteItem, type ExecuteResult } from '../api/client.js';

/** The status of each error code (API.md), as the server answers it. */
const STATUS: Record<DomainError['code'], number> = { ERR_INPUT: 400, ERR_PERMISSION: 403, ERR_NOT_FOUND: 404, ERR_8001: 409 };

/** A caller with organization level on every operation of the given entities. */
export const fullCaller = (userId: string, entities: readonly string[]): Caller => ({
  userId,
  teams: [],
  permissions: {
    permissions: Object.fromEntries(entities.map((e) => [e, packMask({ create: 3, read: 3, update: 3, delete: 3 })])),
    apps: [],
    owners: [],
    needsTeams: false,
  },
});

/**
 * The data calls of the API client (fetch, update, executeMultiple) answered by the core's
 * InMemoryRecordStore, with the server's version check and its error texts (`CODE: message` in a
 * ServerError): the screen models run against the same write and query rules as the server,
 * without a DOM or a socket. `calls` records what was sent, to assert "only changed fields".
 */
export class StoreClient implements Pick<ApiClient, 'fetch' | 'update' | 'executeMultiple'> {
  readonly store: InMemoryRecordStore;
  readonly calls: Array<{ operation: string; name: string; object: EntityRecord }> = [];
  /** every executemultiple sent, with its atomic flag */
  readonly batches: Array<{ items: ExecuteItem[]; atomic: boolean }> = [];
  fetches = 0;
  private n = 0;

  constructor(
    entities: readonly Entity[],
    readonly caller: Caller,
  ) {
    const byName = new Map(entities.map((e) => [e.logicalName, e]));
    let tick = Date.parse('2026-11-24T10:00:00Z');
    this.store = new InMemoryRecordStore((name) => byName.get(name), { now: () => new Date((tick += 1000)) }, {
      newId: () => `00000000-0000-4000-8000-${String(++this.n).padStart(12, '0')}`,
    });
  }

  private answer<T>(r: Either<DomainError, T>): T {
    if (isLeft(r)) throw new ServerError(STATUS[r.left.code], '', errorText(r.left));
    return r.right;
  }

  async fetch(request: FetchRequest): Promise<FetchResult> {
    this.fetches++;
    return this.answer(await this.store.retrieveMultiple(this.caller, request));
  }

  async update(operation: 'create' | 'update' | 'delete', name: string, object: EntityRecord): Promise<string> {
    this.calls.push({ operation, name, object });
    return this.answer(await this.store[operation](this.caller, name, object));
  }

  async executeMultiple(items: ExecuteItem[], options: { atomic?: boolean } = {}): Promise<ExecuteResult[]> {
    this.batches.push({ items, atomic: options.atomic === true });
    if (options.atomic) return this.answer(await this.store.executeMultiple(this.caller, items, { atomic: true }));
    const out: ExecuteResult[] = [];
    for (const i of items) {
      const r = await this.store[i.operation](this.caller, i.name, i.object);
      out.push(isLeft(r) ? { error: errorText(r.left) } : { id: r.right });
    }
    return out;
  }

  /** Another user's edit, straight into the store: a newer version on the server. */
  async otherUserEdits(name: string, object: EntityRecord): Promise<void> {
    this.answer(await this.store.update(this.caller, name, object));
  }

  /** The stored record, as the server would answer it. */
  async stored(name: string, id: string): Promise<EntityRecord | undefined> {
    const r = this.answer(await this.store.retrieveMultiple(this.caller, { entity: { name, allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } }));
    return r.records[0] as EntityRecord | undefined;
  }
}
