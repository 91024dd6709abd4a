import type { EntityRecord } from '../metadata/entity.js';
import type { Filter, FetchRequest } from '../query/query.js';
import { AUDIT_DELETE, AUDIT_ENTITY } from '../store/audit.js';
import { pendingKeys, recordKey, type QueuedChange } from './queue.js';

/**
 * Pull (issue 21): after Sync, fresh data since the last sync. Per list the user keeps offline,
 * the records of its view and quick filters with modifiedon after the last sync; and the
 * deletions since then from the audit entity (operation Delete of the kept entities).
 */
export type KeptList = { entity: string; filter?: Filter; attributes?: string[] };

/** The page size of pull requests (the adapter pages until a page comes back short). */
export const PULL_PAGE_SIZE = 5000;

/** The fetch requests of a pull: one per kept list, then the deletions (when there was a sync before). */
export const pullRequests = (lists: readonly KeptList[], lastSync: string | undefined): { changed: FetchRequest[]; deleted?: FetchRequest } => {
  const since = (attribute: string): Filter['conditions'] =>
    lastSync === undefined ? [] : [{ attribute, operator: 'gt', value: lastSync }];
  const changed = lists.map<FetchRequest>((l) => {
    const conditions = since('modifiedon') ?? [];
    const filter: Filter = l.filter ? { type: 'and', conditions, filters: [l.filter] } : { type: 'and', conditions };
    return {
      entity: {
        name: l.entity,
        ...(l.attributes ? { attributes: l.attributes.map((attribute) => ({ attribute })) } : { allattrs: true }),
        filter,
        orders: [{ attribute: 'modifiedon' }],
      },
      pageSize: PULL_PAGE_SIZE,
    };
  });
  // Without a last sync the first pull loads everything: nothing local can have been deleted since.
  if (lastSync === undefined || lists.length === 0) return { changed };
  const entities = [...new Set(lists.map((l) => l.entity))];
  const deleted: FetchRequest = {
    entity: {
      name: AUDIT_ENTITY,
      attributes: [{ attribute: 'logicalname' }, { attribute: 'objectid' }, { attribute: 'createdon' }],
      filter: {
        type: 'and',
        conditions: [
          { attribute: 'operation', operator: 'eq', value: AUDIT_DELETE },
          { attribute: 'createdon', operator: 'gt', value: lastSync },
          { attribute: 'logicalname', operator: 'in', value: entities },
        ],
      },
      orders: [{ attribute: 'createdon' }],
    },
    pageSize: PULL_PAGE_SIZE,
  };
  return { changed, deleted };
};

/** What a pull brought: changed records per entity, deleted (entity, id) pairs. */
export type PullResult = {
  changed: ReadonlyArray<{ entity: string; records: readonly EntityRecord[] }>;
  deleted: ReadonlyArray<{ entity: string; id: string }>;
};

/** The deletions of an audit answer (rows of logicalname, objectid). */
export const deletionsOf = (rows: ReadonlyArray<Record<string, unknown>>): PullResult['deleted'] =>
  rows.flatMap((r) => (typeof r.logicalname === 'string' && typeof r.objectid === 'string' ? [{ entity: r.logicalname, id: r.objectid }] : []));

/**
 * Applies a pull to the local records (pure; keys are recordKey(entity, id)): changed records
 * replace the local copy, deleted ones leave it; except records with a change still queued —
 * local queued changes win until they are synced (the next pull after their Sync brings the
 * server's result).
 */
export const applyPull = (
  local: ReadonlyMap<string, EntityRecord>,
  pull: PullResult,
  queue: readonly QueuedChange[],
): Map<string, EntityRecord> => {
  const pending = pendingKeys(queue);
  const out = new Map(local);
  for (const { entity, records } of pull.changed)
    for (const r of records) {
      const id = r.id;
      if (typeof id !== 'string') continue;
      const key = recordKey(entity, id);
      if (!pending.has(key)) out.set(key, r);
    }
  for (const { entity, id } of pull.deleted) {
    const key = recordKey(entity, id);
    if (!pending.has(key)) out.delete(key);
  }
  return out;
};

/** The last sync time to keep after a pull: the newest modifiedon/createdon seen, else the previous one. */
export const nextLastSync = (previous: string | undefined, pull: PullResult, deletedStamps: readonly string[] = []): string | undefined => {
  let best = previous;
  const see = (v: unknown): void => {
    if (typeof v === 'string' && (best === undefined || v > best)) best = v;
  };
  for (const { records } of pull.changed) for (const r of records) see(r.modifiedon);
  deletedStamps.forEach(see);
  return best;
};
