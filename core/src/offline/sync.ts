import type { Either } from 'fp-ts/lib/Either.js';
import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import type { ItemResult, WriteItem } from '../ports/record-store.js';
import { MAX_BATCH_SIZE } from '../query/validate-query.js';
import { translate } from '../i18n/index.js';
import { mergeOnConflict, modifierOf } from '../records/merge.js';
import { VERSION_FIELD } from '../records/values.js';
import { recordIdOf, recordKey, referencedIds, type QueueEntry } from './queue.js';

/**
 * Sync (issue 21): the queue goes to the server in order as /api/executemultiple batches (not
 * atomic: one refused item must not undo the others, and each item's answer is acknowledged on
 * its own). What the server acknowledged leaves the queue; everything else stays, so a Sync that
 * fails half way resumes where it stopped and sends nothing twice. Client ids of records created
 * offline map to the server's ids as their creates are acknowledged; later items (and lookups
 * pointing at a client id) are rewritten with the mapping when they are sent.
 */
export type SyncState = {
  queue: readonly QueueEntry[];
  /** client id -> server id of records created offline and acknowledged */
  idMap: Readonly<Record<string, string>>;
};

export const emptySyncState: SyncState = { queue: [], idMap: {} };

const mapId = (idMap: SyncState['idMap'], id: string): string => idMap[id] ?? id;

const rewriteLookups = (fields: EntityRecord, idMap: SyncState['idMap']): EntityRecord =>
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => {
      if (typeof v === 'object' && v !== null && typeof v.id === 'string' && idMap[v.id] !== undefined) return [k, { ...v, id: idMap[v.id]! }];
      return [k, v];
    }),
  );

const withVersion = (o: EntityRecord, v: FieldValue | undefined): EntityRecord => (v === undefined ? o : { ...o, [VERSION_FIELD]: v });

/** The executemultiple item of a queued change, with client ids replaced by server ids. */
export const toWriteItem = (e: QueueEntry, idMap: SyncState['idMap']): WriteItem => {
  switch (e.kind) {
    case 'create':
      return { operation: 'create', name: e.entity, object: rewriteLookups(e.fields, idMap) };
    case 'update':
      return { operation: 'update', name: e.entity, object: withVersion({ ...rewriteLookups(e.fields, idMap), id: mapId(idMap, e.id) }, e.versionnumber) };
    case 'delete':
      return { operation: 'delete', name: e.entity, object: withVersion({ id: mapId(idMap, e.id) }, e.versionnumber) };
  }
};

/** The next batch: the entries sent, and their items (same order). */
export type Batch = { entries: QueueEntry[]; items: WriteItem[] };

/**
 * The next batch to send, at most `max` items, in queue order. Skipped (they stay queued): entries
 * waiting for the user (conflict), later entries of such a record, entries of `skip` (already tried
 * in this Sync), later entries of a record whose entry refused before is in the batch, and entries that need a client id whose create has not been acknowledged. A batch
 * ends before an entry that needs the id of a create in the same batch: the server's id is only
 * known from that batch's answer.
 */
export const nextBatch = (state: SyncState, max: number = MAX_BATCH_SIZE, skip: ReadonlySet<QueueEntry> = new Set()): Batch => {
  const held = new Set<string>();
  const createdHere = new Set<string>();
  const pendingCreates = new Set(state.queue.flatMap((e) => (e.kind === 'create' ? [e.clientId] : [])));
  const entries: QueueEntry[] = [];
  for (const e of state.queue) {
    if (entries.length >= max) break;
    const key = recordKey(e.entity, recordIdOf(e));
    if (e.conflict || skip.has(e) || held.has(key)) {
      held.add(key);
      continue;
    }
    const needs = [...(e.kind === 'create' ? [] : [e.id]), ...(e.kind === 'delete' ? [] : referencedIds(e.fields))].filter(
      (id) => pendingCreates.has(id) && state.idMap[id] === undefined,
    );
    if (needs.some((id) => createdHere.has(id))) break;
    if (needs.length > 0) {
      held.add(key);
      continue;
    }
    entries.push(e);
    if (e.kind === 'create') createdHere.add(e.clientId);
    // An entry refused before goes again, but the record's later entries wait for its answer (order per record).
    if (e.error !== undefined) held.add(key);
  }
  return { entries, items: entries.map((e) => toWriteItem(e, state.idMap)) };
};

/** What one batch's answer did: the new state, and the entries refused with ERR_8001 (to merge). */
export type Acknowledged = { state: SyncState; versionConflicts: QueueEntry[] };

/**
 * Takes a batch's per-item answers: acknowledged items leave the queue (a create's id joins the
 * map); a delete of a record already gone counts as done; ERR_8001 goes to the merge; any other
 * error stays on its entry (shown in the Sync status, retried by the next Sync).
 */
export const acknowledge = (state: SyncState, batch: Batch, results: readonly ItemResult[]): Acknowledged => {
  const done = new Set<QueueEntry>();
  const errors = new Map<QueueEntry, string>();
  const conflicts: QueueEntry[] = [];
  const idMap: Record<string, string> = { ...state.idMap };
  batch.entries.forEach((e, i) => {
    const r = results[i];
    if (r === undefined) return; // no answer: not acknowledged
    if ('id' in r) {
      done.add(e);
      if (e.kind === 'create') idMap[e.clientId] = r.id;
    } else if (e.kind === 'delete' && r.error.startsWith('ERR_NOT_FOUND')) done.add(e);
    else if (r.error.startsWith('ERR_8001') && e.kind !== 'create') conflicts.push(e);
    else errors.set(e, r.error);
  });
  const queue = state.queue
    .filter((e) => !done.has(e))
    .map((e) => (errors.has(e) ? { ...e, error: errors.get(e)! } : e));
  // The conflict entries are the same objects in the new queue (unless they carried an error).
  return { state: { queue, idMap }, versionConflicts: conflicts.map((c) => queue.find((q) => q === c) ?? c) };
};

const pick = (r: EntityRecord, fields: readonly string[]): EntityRecord => Object.fromEntries(fields.map((f) => [f, r[f] ?? null]));

/**
 * A version conflict through the core merge (records/merge.ts, the form's merge): an update whose
 * fields the server did not change meanwhile is rebased on the server's version (automatic; what
 * still differs is sent again); otherwise the entry waits with 'This record was modified by
 * {modifier}' and both versions for the user. A delete of a changed record always asks the user.
 * Returns undefined when nothing is left to send (the server already has the local values).
 * A later entry of a record whose earlier entry this Sync already sent meets its own change as
 * the newer version: the merge settles it the same way (the base is what the first edit saw).
 */
export const resolveVersionConflict = (entry: QueueEntry, server: EntityRecord, idMap: SyncState['idMap'] = {}): QueueEntry | undefined => {
  if (entry.kind === 'create') return entry;
  const { error: _e, conflict: _c, ...change } = entry;
  if (change.kind === 'delete') {
    const modifier = modifierOf(server);
    return { ...change, conflict: { message: translate('en', 'MsgModifiedBy', { modifier }), modifier, fields: [], server } };
  }
  // Lookups to records created offline compare by their server ids (the server only knows those).
  const m = mergeOnConflict(rewriteLookups(change.base, idMap), rewriteLookups(change.fields, idMap), server);
  if (m._tag === 'Left') {
    return { ...change, conflict: { message: m.left.message, modifier: m.left.modifier ?? '', fields: m.left.fields, server } };
  }
  const fields = Object.fromEntries(Object.entries(m.right.changes).filter(([f]) => f !== VERSION_FIELD && f !== 'id'));
  if (Object.keys(fields).length === 0) return undefined;
  return { ...change, fields, base: pick(server, Object.keys(fields)), versionnumber: server[VERSION_FIELD] };
};

/** The user's choice on a conflict entry: keep mine (sent again over the server's version) or take the server's (dropped). */
export const chooseVersion = (entry: QueueEntry, choice: 'mine' | 'server'): QueueEntry | undefined => {
  if (!entry.conflict || choice === 'server') return choice === 'server' ? undefined : entry;
  const { conflict, error: _e, ...change } = entry;
  if (change.kind === 'create') return change;
  const versionnumber = conflict.server[VERSION_FIELD];
  if (change.kind === 'delete') return { ...change, versionnumber };
  return { ...change, versionnumber, base: pick(conflict.server, Object.keys(change.fields)) };
};

/** Replaces one entry of the queue (undefined removes it). */
export const replaceEntry = (state: SyncState, entry: QueueEntry, next: QueueEntry | undefined): SyncState => ({
  ...state,
  queue: state.queue.flatMap((e) => (e === entry ? (next ? [next] : []) : [e])),
});

/** Automatic merges of one record within one Sync before it waits with an error (see runSync). */
export const MAX_MERGES = 3;

/**
 * The local records after a Sync: records created offline take their server ids and lookups that
 * point at client ids are rewritten (keys are recordKey(entity, id)). The adapter applies this to its
 * kept records, then clears the id map once no queued entry uses a client id any more.
 */
export const rekeyRecords = (records: ReadonlyMap<string, EntityRecord>, idMap: SyncState['idMap']): Map<string, EntityRecord> => {
  const out = new Map<string, EntityRecord>();
  for (const [key, r] of records) {
    const id = typeof r.id === 'string' ? r.id : undefined;
    const serverId = id === undefined ? undefined : idMap[id];
    const entity = key.slice(0, key.indexOf('\u0000'));
    const next = rewriteLookups(serverId ? { ...r, id: serverId } : r, idMap);
    out.set(serverId ? recordKey(entity, serverId) : key, next);
  }
  return out;
};

/** The I/O a Sync needs, given by the host (the web client's API client, a test's server). */
export type SyncTransport = {
  /** POST /api/executemultiple (not atomic); Left (or a throw) when the batch got no answer. */
  executeMultiple(items: readonly WriteItem[]): Promise<Either<unknown, ItemResult[]>>;
  /** The server's current record, for the merge (undefined when gone). */
  retrieve(entity: string, id: string): Promise<EntityRecord | undefined>;
};

export type SyncOutcome = { state: SyncState; complete: boolean; failure?: unknown };

/**
 * Runs a Sync: batches until the queue holds only entries waiting for the user or with errors
 * (each entry tried once per Sync). A batch without an answer stops the Sync with the queue as it
 * was before that batch: the next Sync resumes there. The state after each acknowledged batch is
 * handed to `persist` before the next batch goes out, so a crash loses no acknowledgement.
 */
export const runSync = async (
  initial: SyncState,
  transport: SyncTransport,
  persist: (s: SyncState) => Promise<void> = async () => {},
  max: number = MAX_BATCH_SIZE,
): Promise<SyncOutcome> => {
  let state = initial;
  const tried = new Set<QueueEntry>();
  // A record someone keeps changing could merge forever: after MAX_MERGES in one Sync it waits with the error.
  const merges = new Map<string, number>();
  for (;;) {
    const batch = nextBatch(state, max, tried);
    if (batch.entries.length === 0) return { state, complete: state.queue.length === 0 };
    let answer: Either<unknown, ItemResult[]>;
    try {
      answer = await transport.executeMultiple(batch.items);
    } catch (failure) {
      return { state, complete: false, failure };
    }
    if (answer._tag === 'Left') return { state, complete: false, failure: answer.left };
    const ack = acknowledge(state, batch, answer.right);
    state = ack.state;
    for (const e of state.queue) if (batch.entries.includes(e)) tried.add(e);
    for (const c of ack.versionConflicts) {
      const server = await transport.retrieve(c.entity, mapId(state.idMap, recordIdOf(c)));
      const key = recordKey(c.entity, recordIdOf(c));
      const count = (merges.get(key) ?? 0) + 1;
      merges.set(key, count);
      const next =
        count > MAX_MERGES
          ? { ...c, error: 'ERR_8001: the record kept changing on the server during this Sync' }
          : server
            ? resolveVersionConflict(c, server, state.idMap)
            : { ...c, error: 'ERR_NOT_FOUND: the record is no longer on the server' };
      state = replaceEntry(state, c, next);
      // A merged update (a new entry, not yet tried) goes out again in this Sync; one waiting for the user does not.
      if (next?.error !== undefined) tried.add(next);
    }
    for (const e of state.queue) if (e.error !== undefined) tried.add(e);
    await persist(state);
  }
};
