import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { errorText, inputError, noObject, notFound, permissionDenied, versionConflict, type DomainError } from '../errors.js';
import { primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import { SYSTEM_USER_ENTITY } from '../permissions/access.js';
import { canAccess, inReadScope, readScope } from '../permissions/access.js';
import type { Caller, Operation } from '../permissions/types.js';
import type { Change, ChangeOperation } from '../ports/change-feed.js';
import { isSystemCaller, type ItemResult, type WriteItem } from '../ports/record-store.js';
import type { EntityLookup } from '../query/validate-query.js';
import { AUDIT_CREATE, AUDIT_DELETE, AUDIT_ENTITY, AUDIT_UPDATE, auditChanges, auditCreated, auditRow, isAudited, type AuditEntry } from './audit.js';
import {
  changesOf,
  isoStamp,
  recordId,
  recordToCreate,
  requestedVersion,
  versionFieldOf,
  type StoredRecord,
} from './record-rules.js';
import { referencesReadable } from './readable-references.js';

/**
 * The write use cases of every store, written once. A write is a generator of storage steps
 * (read a row, insert, a conditional update, a conditional delete); each store interprets the
 * steps on its own storage: plain maps, better-sqlite3 synchronously inside one transaction
 * (no await inside), or Kysely on SQL Server. The rules (permissions, system fields, only
 * changed fields, the version check, the audit body) therefore cannot drift between stores.
 */
export type StoreStep =
  /** the stored row, or null */
  | { kind: 'get'; entity: Entity; id: string }
  /** inserts a stored record; answers false when its id (or another unique key) is taken */
  | { kind: 'insert'; entity: Entity; record: StoredRecord }
  /**
   * One statement: writes `changes`, increases the versionnumber, where the id matches and,
   * when `version` is given, the stored versionnumber equals it, and when `where` is given, each
   * of its fields equals its value (a conditional update, e.g. claim a run still 'queued').
   * Answers the rows changed.
   */
  | { kind: 'update'; entity: Entity; id: string; changes: StoredRecord; version: number | undefined; where?: StepWhere }
  /** One statement: deletes where the id (and the version when given) matches; answers rows deleted. */
  | { kind: 'delete'; entity: Entity; id: string; version: number | undefined }
  /** The newest audit row of a delete of `logicalname`/`objectid`, or null. */
  | { kind: 'lastDeleted'; audit: Entity; logicalname: string; objectid: string }
  /**
   * The stored rows whose fields equal `where` (all of them; empty `where`: every row), ordered
   * by `orderBy` ascending (default the primary key), at most `limit`. Answers StoredRecord[].
   * Reads inside the write's transaction, so what a rule reads is what commits with it.
   */
  | { kind: 'select'; entity: Entity; where: StepWhere; orderBy?: string; limit?: number }
  /**
   * One statement: adds `by` to the number field `field` of row `id` (empty counts as 0; the sum
   * rounded to `round` decimals when given) and increases its versionnumber; answers the new
   * value, or null when no row has that id. The row stays locked to other writers until the
   * transaction ends (auto numbers: no duplicates, no gaps; a parent's total: no lost update).
   */
  | { kind: 'increment'; entity: Entity; id: string; field: string; by: number; round?: number }
  /**
   * One statement: adds `by` to the number field `field` (empty counts as 0) of every row whose
   * fields equal `where`, increasing their versionnumber; answers the rows changed, which stay
   * locked to other writers until the transaction ends (a `select` then reads them as written).
   * Auto numbers: an entity without a row costs this one statement, matching nothing.
   */
  | { kind: 'incrementWhere'; entity: Entity; where: StepWhere; field: string; by: number };

/** A step's value to compare: a lookup field compares its id; null matches an empty field. */
export type StepValue = string | number | boolean | null;
/** Fields of the entity and the value each must equal, or one of the values of a list (AND). */
export type StepWhere = Readonly<Record<string, StepValue | readonly StepValue[]>>;

export type Steps<T> = Generator<StoreStep, T, unknown>;

function* get(entity: Entity, id: string): Steps<StoredRecord | null> {
  return (yield { kind: 'get', entity, id }) as StoredRecord | null;
}
function* count(step: StoreStep): Steps<number> {
  return (yield step) as number;
}
function* inserted(entity: Entity, record: StoredRecord): Steps<boolean> {
  return (yield { kind: 'insert', entity, record }) as boolean;
}
/** The rows of `entity` whose fields equal `where` (see the select step). */
export function* selectRows(entity: Entity, where: StepWhere, options: { orderBy?: string; limit?: number } = {}): Steps<StoredRecord[]> {
  return (yield { kind: 'select', entity, where, ...options }) as StoredRecord[];
}
/** Adds `by` to a number field of one row and answers its new value, null when there is no such row. */
export function* incremented(entity: Entity, id: string, field: string, by = 1, round?: number): Steps<number | null> {
  return (yield { kind: 'increment', entity, id, field, by, ...(round === undefined ? {} : { round }) }) as number | null;
}
/** Adds `by` to a number field of the rows whose fields equal `where`; answers how many rows changed. */
export function* incrementedWhere(entity: Entity, where: StepWhere, field: string, by = 1): Steps<number> {
  return (yield { kind: 'incrementWhere', entity, where, field, by }) as number;
}
/** A conditional update of one row's `changes` where its fields equal `where`; answers the rows changed. */
export function* updatedWhere(entity: Entity, id: string, changes: StoredRecord, where: StepWhere): Steps<number> {
  return (yield { kind: 'update', entity, id, changes, version: undefined, where }) as number;
}

/** What a write needs from the host: the metadata and the ports of time and ids. */
export type WriteContext = {
  lookup: EntityLookup;
  now: () => Date;
  newId: () => string;
  /** The rules every write runs inside its transaction (default WRITE_RULES: auto numbers, line-item totals, trigger runs). */
  rules?: readonly WriteRule[];
  /**
   * What rules learned in this transaction, a fresh map for each (see `transaction`): e.g. the
   * auto-number rows of an entity, read once per batch. Absent: every write reads afresh.
   */
  memo?: Map<string, unknown>;
};

/** A row a write stored: the values before (none for a create) and after (none for a delete). */
export type WrittenRecord = {
  entity: Entity;
  id: string;
  operation: 'create' | 'update' | 'delete';
  before: StoredRecord | null;
  after: StoredRecord | null;
};

/**
 * A rule that takes part in every write, as more steps of the same plan, so it commits and rolls
 * back with the write on every store (auto numbers, a parent's total from its line items, the
 * queued run of a trigger). Rules live in `write-rules.ts`; each is pure core code.
 */
export type WriteRule = {
  readonly name: string;
  /** A create's record before its insert: may fill fields the caller left empty, or refuse the write. */
  beforeInsert?: (ctx: WriteContext, caller: Caller, entity: Entity, record: StoredRecord) => Steps<Either<DomainError, StoredRecord>>;
  /**
   * An update's changes before they are written (`current` is the stored row): may add derived
   * fields, each only where it differs from `current` (a line item's amounts), or refuse the write.
   */
  beforeUpdate?: (ctx: WriteContext, caller: Caller, entity: Entity, current: StoredRecord, changes: StoredRecord) => Steps<Either<DomainError, StoredRecord>>;
  /** After the row is written: derived writes or an outbox row; a Left rolls the write back. */
  afterWrite?: (ctx: WriteContext, caller: Caller, written: WrittenRecord) => Steps<Either<DomainError, null>>;
  /**
   * Last steps of a transaction that commits: what the rule kept in `ctx.memo` and still owes the
   * storage (auto numbers taken in a batch advance their row once, by the count taken).
   */
  beforeCommit?: (ctx: WriteContext) => Steps<void>;
};

/**
 * The plan of one transaction: `body` with a fresh memo, then, when `commits` says its answer
 * will commit, every rule's beforeCommit. Every store runs each write and each atomic batch
 * through it, so what rules defer within a transaction is written inside that transaction.
 */
export function* transaction<T>(ctx: WriteContext, body: (tx: WriteContext) => Steps<T>, commits: (answer: T) => boolean): Steps<T> {
  const tx: WriteContext = { ...ctx, memo: new Map() };
  const answer = yield* body(tx);
  if (!commits(answer)) return answer;
  for (const rule of ctx.rules ?? []) if (rule.beforeCommit) yield* rule.beforeCommit(tx);
  return answer;
}

function* rulesBeforeInsert(ctx: WriteContext, caller: Caller, entity: Entity, record: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  let r = record;
  for (const rule of ctx.rules ?? []) {
    if (!rule.beforeInsert) continue;
    const next = yield* rule.beforeInsert(ctx, caller, entity, r);
    if (isLeft(next)) return next;
    r = next.right;
  }
  return right(r);
}

function* rulesBeforeUpdate(ctx: WriteContext, caller: Caller, entity: Entity, current: StoredRecord, changes: StoredRecord): Steps<Either<DomainError, StoredRecord>> {
  let c = changes;
  for (const rule of ctx.rules ?? []) {
    if (!rule.beforeUpdate) continue;
    const next = yield* rule.beforeUpdate(ctx, caller, entity, current, c);
    if (isLeft(next)) return next;
    c = next.right;
  }
  return right(c);
}

function* rulesAfterWrite(ctx: WriteContext, caller: Caller, written: WrittenRecord): Steps<Either<DomainError, null>> {
  for (const rule of ctx.rules ?? []) {
    if (!rule.afterWrite) continue;
    const done = yield* rule.afterWrite(ctx, caller, written);
    if (isLeft(done)) return done;
  }
  return right(null);
}

/** A committed write: its answer, and the change to publish after commit. */
export type WriteOutcome = Either<DomainError, { id: string; change: Change | null }>;

const allowed = (caller: Caller, op: Operation, entity: string, record: StoredRecord): boolean =>
  isSystemCaller(caller) || canAccess(caller, op, entity, record);

const decide = (caller: Caller, op: Operation, e: Entity, record: StoredRecord): Either<DomainError, null> =>
  allowed(caller, op, e.logicalName, record)
    ? right(null)
    : left(permissionDenied(`No ${op} permission on ${e.logicalName}`));

const entityOf = (ctx: WriteContext, name: string): Either<DomainError, Entity> => {
  const e = ctx.lookup(name);
  return e ? right(e) : left(noObject(name));
};

const change = (ctx: WriteContext, entity: string, id: string, operation: ChangeOperation, at: Date = ctx.now()): Change => ({
  entity,
  id,
  operation,
  stamp: isoStamp(at),
});

/**
 * The audit row of a write, inserted as one more step of the same plan, so it commits and rolls
 * back with the write on every store (issue 23 item 6). Nothing when the entity is not audited
 * or the organization's metadata has no audit entity.
 */
function* audited(ctx: WriteContext, caller: Caller, now: Date, entry: AuditEntry): Steps<void> {
  if (!isAudited(entry.entity)) return;
  const audit = ctx.lookup(AUDIT_ENTITY);
  if (audit === undefined) return;
  yield* inserted(audit, auditRow(audit, entry, caller, now, ctx.newId));
}

/**
 * Audit rows are read-only for everyone: only the store's own steps write them. A system caller
 * (a host's retention task) may delete them; no caller may create or change one.
 */
const auditWriteRefused = (caller: Caller, op: 'create' | 'update' | 'delete', entity: string): Either<DomainError, null> =>
  entity === AUDIT_ENTITY && !(op === 'delete' && isSystemCaller(caller))
    ? left(permissionDenied(`No ${op} permission on ${AUDIT_ENTITY}: audit records are read-only`))
    : right(null);

/**
 * The label of the user who last modified a record, for 'This record was modified by {modifier}';
 * none when the caller may not read that user's record (a label discloses nothing the caller may
 * not read: issue 22 item 6; the client then names 'another user').
 */
function* conflict(ctx: WriteContext, caller: Caller, current: StoredRecord | null, e: Entity): Steps<DomainError> {
  if (!current) return notFound(`${e.logicalName} not found`);
  const by = current.modifiedby;
  let modifier: string | undefined;
  const users = ctx.lookup(SYSTEM_USER_ENTITY);
  if (by && typeof by === 'object' && users) {
    const user = yield* get(users, by.id);
    const readable = user !== null && (isSystemCaller(caller) || inReadScope(readScope(caller, SYSTEM_USER_ENTITY), user));
    if (readable && typeof user.name === 'string') modifier = user.name;
  }
  return versionConflict('The record was changed by someone else since it was read', modifier);
}

export function* createRecord(ctx: WriteContext, caller: Caller, entity: string, object: EntityRecord): Steps<WriteOutcome> {
  const e = entityOf(ctx, entity);
  if (isLeft(e)) return e;
  const refused = auditWriteRefused(caller, 'create', entity);
  if (isLeft(refused)) return refused;
  const now = ctx.now();
  const record = recordToCreate(e.right, object, caller, now, ctx.newId);
  if (isLeft(record)) return record;
  const d = decide(caller, 'create', e.right, record.right);
  if (isLeft(d)) return d;
  const refs = yield* referencesReadable(ctx, caller, e.right, object, record.right);
  if (isLeft(refs)) return refs;
  const id = record.right[primaryKeyOf(e.right)] as string;
  const filled = yield* rulesBeforeInsert(ctx, caller, e.right, record.right);
  if (isLeft(filled)) return filled;
  if (!(yield* inserted(e.right, filled.right))) return left(inputError(`A ${entity} with id ${id} (or the same unique fields) already exists`));
  const created = filled.right;
  const ruled = yield* rulesAfterWrite(ctx, caller, { entity: e.right, id, operation: 'create', before: null, after: created });
  if (isLeft(ruled)) return ruled;
  yield* audited(ctx, caller, now, { entity: e.right, id, operation: AUDIT_CREATE, name: created.name, body: auditCreated(e.right, created) });
  // The stamp of the change is the record's own creation time (one clock reading per record).
  return right({ id, change: change(ctx, entity, id, 'create', now) });
}

type Existing = { e: Entity; id: string; version: number | undefined; current: StoredRecord };

/** Where an update and a delete both start: the stored record, which the caller must be allowed to change. */
function* existingForWrite(
  ctx: WriteContext,
  caller: Caller,
  operation: 'update' | 'delete',
  entity: string,
  object: EntityRecord,
): Steps<Either<DomainError, Existing>> {
  const e = entityOf(ctx, entity);
  if (isLeft(e)) return e;
  const refused = auditWriteRefused(caller, operation, entity);
  if (isLeft(refused)) return refused;
  const id = recordId(e.right, object);
  if (isLeft(id)) return id;
  const version = requestedVersion(e.right, object);
  if (isLeft(version)) return version;
  const current = yield* get(e.right, id.right);
  if (!current) return left(notFound(`${entity} not found`));
  const d = decide(caller, operation, e.right, current);
  if (isLeft(d)) return d;
  return right({ e: e.right, id: id.right, version: version.right, current });
}

export function* updateRecord(ctx: WriteContext, caller: Caller, entity: string, object: EntityRecord): Steps<WriteOutcome> {
  const x = yield* existingForWrite(ctx, caller, 'update', entity, object);
  if (isLeft(x)) return x;
  const { e, id, version, current } = x.right;
  const now = ctx.now();
  const changes = changesOf(e, current, object, caller, now);
  if (isLeft(changes)) return changes;
  const refs = yield* referencesReadable(ctx, caller, e, object, changes.right, { ...current, ...changes.right });
  if (isLeft(refs)) return refs;
  const versionField = versionFieldOf(e);
  if (Object.keys(changes.right).length === 0) {
    // Nothing changed: nothing is written, but a stale version is still reported.
    if (version !== undefined && versionField && current[versionField] !== version) {
      return left(yield* conflict(ctx, caller, current, e));
    }
    return right({ id, change: null });
  }
  const ruledChanges = yield* rulesBeforeUpdate(ctx, caller, e, current, changes.right);
  if (isLeft(ruledChanges)) return ruledChanges;
  const written = ruledChanges.right;
  const n = yield* count({ kind: 'update', entity: e, id, changes: written, version });
  if (n === 0) return left(yield* conflict(ctx, caller, yield* get(e, id), e));
  const ruled = yield* rulesAfterWrite(ctx, caller, { entity: e, id, operation: 'update', before: current, after: { ...current, ...written } });
  if (isLeft(ruled)) return ruled;
  // The stored record was read for the version check: the old values cost no further read.
  const name = 'name' in written ? written.name : current.name;
  yield* audited(ctx, caller, now, { entity: e, id, operation: AUDIT_UPDATE, name, body: auditChanges(e, current, written) });
  return right({ id, change: change(ctx, entity, id, 'update') });
}

export function* deleteRecord(ctx: WriteContext, caller: Caller, entity: string, object: EntityRecord): Steps<WriteOutcome> {
  const x = yield* existingForWrite(ctx, caller, 'delete', entity, object);
  if (isLeft(x)) return x;
  const { e, id, version, current } = x.right;
  const n = yield* count({ kind: 'delete', entity: e, id, version });
  if (n === 0) return left(yield* conflict(ctx, caller, yield* get(e, id), e));
  const ruled = yield* rulesAfterWrite(ctx, caller, { entity: e, id, operation: 'delete', before: current, after: null });
  if (isLeft(ruled)) return ruled;
  // The full body, so that undo-delete brings back every field with the original id.
  yield* audited(ctx, caller, ctx.now(), { entity: e, id, operation: AUDIT_DELETE, name: current.name, body: current });
  return right({ id, change: change(ctx, entity, id, 'delete') });
}

/** Undo-delete: the last deleted body of the record, inserted again with its original id. */
export function* restoreRecord(ctx: WriteContext, caller: Caller, entity: string, id: string): Steps<WriteOutcome> {
  const e = entityOf(ctx, entity);
  if (isLeft(e)) return e;
  const audit = ctx.lookup(AUDIT_ENTITY);
  if (!audit) return left(noObject(AUDIT_ENTITY));
  const key = id.toLowerCase();
  const row = (yield { kind: 'lastDeleted', audit, logicalname: entity, objectid: key }) as StoredRecord | null;
  if (!row || typeof row.body !== 'string') return left(notFound(`No deleted ${entity} with id ${id}`));
  if (yield* get(e.right, key)) return left(inputError(`A ${entity} with id ${id} already exists`));
  const body = JSON.parse(row.body) as StoredRecord;
  // Only fields the entity still has come back; the versionnumber starts again.
  const record: StoredRecord = {};
  for (const p of e.right.properties) if (body[p.logicalName] !== undefined) record[p.logicalName] = body[p.logicalName];
  const versionField = versionFieldOf(e.right);
  if (versionField !== undefined) record[versionField] = 1;
  record[primaryKeyOf(e.right)] = key;
  const d = decide(caller, 'create', e.right, record);
  if (isLeft(d)) return d;
  if (!(yield* inserted(e.right, record))) return left(inputError(`A ${entity} with id ${id} already exists`));
  // A restore is a create again for the rules that follow writes (a line's total back on its
  // parent); it takes no new auto number, so beforeInsert does not run.
  const ruled = yield* rulesAfterWrite(ctx, caller, { entity: e.right, id: key, operation: 'create', before: null, after: record });
  if (isLeft(ruled)) return ruled;
  // A restore is a create again: its row lists what came back.
  yield* audited(ctx, caller, ctx.now(), { entity: e.right, id: key, operation: AUDIT_CREATE, name: record.name, body: auditCreated(e.right, record) });
  return right({ id: key, change: change(ctx, entity, key, 'restore') });
}

export function* writeItem(ctx: WriteContext, caller: Caller, item: WriteItem): Steps<WriteOutcome> {
  switch (item.operation) {
    case 'create':
      return yield* createRecord(ctx, caller, item.name, item.object);
    case 'update':
      return yield* updateRecord(ctx, caller, item.name, item.object);
    case 'delete':
      return yield* deleteRecord(ctx, caller, item.name, item.object);
    default:
      return left(inputError(`Unknown operation: ${String((item as { operation: unknown }).operation)}`));
  }
}

/** The answer of an item that an atomic batch rolled back because item `failed` failed. */
export const rolledBack = (failed: number, error: DomainError): ItemResult => ({
  error: `${error.code}: Rolled back: item ${failed} failed: ${error.message}`,
});

export const itemResult = (o: WriteOutcome): ItemResult => (isLeft(o) ? { error: errorText(o.left) } : { id: o.right.id });
