import type { EntityRecord, FieldValue } from '../metadata/entity.js';

/**
 * The offline change queue (issue 21 "Changes made offline"): what the user changed while offline,
 * in the order it happened, kept across restarts by the OfflineStore and sent by Sync.
 * A create carries the client id the app gave the record; an update carries the versionnumber it
 * started from, only the changed fields, and their values before (the base of the ERR_8001 merge);
 * a delete carries the version it saw. Records created offline are addressed by their client id
 * until Sync maps it to the server's id.
 */
export type QueuedCreate = { kind: 'create'; entity: string; clientId: string; fields: EntityRecord };
export type QueuedUpdate = {
  kind: 'update';
  entity: string;
  id: string;
  /** the versionnumber the edit started from; absent for a record created offline (not yet on the server) */
  versionnumber?: FieldValue;
  fields: EntityRecord;
  /** the values of `fields` before the first offline edit: what the merge compares the server against */
  base: EntityRecord;
};
export type QueuedDelete = { kind: 'delete'; entity: string; id: string; versionnumber?: FieldValue };
export type QueuedChange = QueuedCreate | QueuedUpdate | QueuedDelete;

/** A queued change the server refused with a version conflict the merge could not settle: waits for the user. */
export type QueueConflict = {
  /** 'This record was modified by {modifier}' */
  message: string;
  modifier: string;
  fields: string[];
  /** the server's record when the conflict was found: the other side of the side-by-side view */
  server: EntityRecord;
};

/** One entry of the queue: the change, plus what the last Sync said about it. */
export type QueueEntry = QueuedChange & { error?: string; conflict?: QueueConflict };

/** The id a change addresses (a create's client id). */
export const recordIdOf = (c: QueuedChange): string => (c.kind === 'create' ? c.clientId : c.id);
/** The key of a record across entities. */
export const recordKey = (entity: string, id: string): string => `${entity}\u0000${id}`;
const keyOf = (c: QueuedChange): string => recordKey(c.entity, recordIdOf(c));

const isLookup = (v: FieldValue | undefined): v is { id: string; name: string } =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string';

/** The ids that lookups in `fields` point at (to keep a reference after the record it names). */
export const referencedIds = (fields: EntityRecord): string[] =>
  Object.values(fields).flatMap((v) => (isLookup(v) ? [v.id] : []));

/**
 * Adds an edit to the queue, coalescing with earlier changes of the same record so the queue
 * stays short and Sync sends each record once where it can:
 * - an update of a record created offline folds into its create;
 * - a delete of a record created offline removes the create (and the delete: the server never saw it);
 * - two updates merge (the first one's version and base, the later values win);
 * - a delete after updates replaces them, in its own place (with the version the first update started from).
 * A change is only folded into an earlier entry when that does not move a lookup before the
 * create of the record it points at; otherwise it is appended, so order per record is kept and
 * references always follow the record they name.
 */
export const enqueue = (queue: readonly QueueEntry[], change: QueuedChange): QueueEntry[] => {
  const key = keyOf(change);
  let at = -1;
  for (let i = queue.length - 1; i >= 0; i--) if (keyOf(queue[i]!) === key) { at = i; break; }
  const prev = at >= 0 ? queue[at]! : undefined;
  // An entry waiting for the user (conflict) or with an error stays as it is: new edits append.
  if (!prev || prev.conflict || prev.error !== undefined || change.kind === 'create') return [...queue, change];
  const movesReference = (fields: EntityRecord): boolean => {
    const refs = new Set(referencedIds(fields));
    if (refs.size === 0) return false;
    return queue.slice(at + 1).some((e) => e.kind === 'create' && refs.has(e.clientId));
  };
  const replace = (entry: QueueEntry | undefined): QueueEntry[] =>
    entry ? [...queue.slice(0, at), entry, ...queue.slice(at + 1)] : [...queue.slice(0, at), ...queue.slice(at + 1)];

  if (prev.kind === 'create') {
    if (change.kind === 'delete') {
      // Later changes that point at the record keep it (their lookups need the create to be sent).
      const referenced = queue.slice(at + 1).some((e) => e.kind !== 'delete' && referencedIds(e.fields).includes(prev.clientId));
      return referenced ? [...queue, change] : replace(undefined);
    }
    // A lookup to the record itself needs its server id: such an update stays separate.
    if (movesReference(change.fields) || referencedIds(change.fields).includes(prev.clientId)) return [...queue, change];
    return replace({ ...prev, fields: { ...prev.fields, ...change.fields } });
  }
  if (prev.kind === 'update') {
    if (change.kind === 'delete') {
      // The delete goes where it happened (after what may still point at the record); the update is dropped.
      // Every queued update of the record goes (not only the last: an update kept apart for a lookup would
      // otherwise move the server's version before the delete arrives), with the version the first started from.
      const mine = (e: QueueEntry): boolean => e.kind === 'update' && keyOf(e) === key && !e.conflict && e.error === undefined;
      const first = queue.find(mine) as QueuedUpdate;
      const del: QueuedDelete = { kind: 'delete', entity: change.entity, id: change.id };
      const v = first.versionnumber ?? change.versionnumber;
      return [...queue.filter((e) => !mine(e)), v === undefined ? del : { ...del, versionnumber: v }];
    }
    if (movesReference(change.fields)) return [...queue, change];
    // The base keeps the value before the FIRST edit of each field.
    return replace({ ...prev, fields: { ...prev.fields, ...change.fields }, base: { ...change.base, ...prev.base } });
  }
  // After a delete nothing more can happen to the record; keep whatever came (the server refuses it).
  return [...queue, change];
};

/** The queue from a list of raw edits, coalesced (the fold of `enqueue`). */
export const coalesce = (changes: readonly QueuedChange[]): QueueEntry[] => changes.reduce<QueueEntry[]>(enqueue, []);

/** Records by entity and id: the local copy, and the model the coalescing rules are proved on. */
export type RecordSet = ReadonlyMap<string, EntityRecord>;

/**
 * Applies changes to a record set (pure): what the local copy looks like with the queue on top,
 * and the meaning the coalescing must keep (apply(coalesce(q)) = apply(q)).
 */
export const applyQueue = (records: RecordSet, changes: readonly QueuedChange[]): Map<string, EntityRecord> => {
  const out = new Map(records);
  for (const c of changes) {
    const key = keyOf(c);
    if (c.kind === 'create') out.set(key, { ...c.fields, id: c.clientId });
    else if (c.kind === 'update') {
      const r = out.get(key);
      if (r) out.set(key, { ...r, ...c.fields });
    } else out.delete(key);
  }
  return out;
};

/** The records with a change still queued (they win over pulled data until synced). */
export const pendingKeys = (queue: readonly QueuedChange[]): Set<string> => new Set(queue.map(keyOf));
