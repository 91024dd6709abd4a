import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, permissionDenied, type DomainError } from '../errors.js';
import { primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import { isSystemCaller, systemCaller, type WriteOperation } from '../ports/record-store.js';
import { filterHolds } from '../query/evaluate-query.js';
import type { PlanFilter } from '../query/plan.js';
import { Filter } from '../query/query.js';
import { validateQuery, type EntityLookup } from '../query/validate-query.js';
import { ROOT_TABLE } from '../query/plan.js';
import { AUDIT_ENTITY } from './audit.js';
import { recordToCreate, type StoredRecord, type StoredValue } from './record-rules.js';
import { selectRows, type Steps, type WriteContext, type WriteRule, type WrittenRecord } from './record-writes.js';

/**
 * Triggers (issue 16 "On the server", Customize > Data > Triggers): an inu_changehandler row names
 * an entity (`objectname`), the operations it reacts to (`operation`: create, update, delete,
 * several separated by `;` or `,`), a `condition` (a fetch filter, JSON, on the written record)
 * and its `action` (a script). A write of a matching record inserts a queued inu_asyncaction row
 * inside the write's own transaction (an outbox): the run exists exactly when the write commits,
 * and the runner (services/trigger-runs.ts) runs the script after commit, asynchronously.
 */
export const TRIGGER_ENTITY = 'inu_changehandler';
export const TRIGGER_RUN_ENTITY = 'inu_asyncaction';

/** The statuses of a run (inu_asyncaction.status). */
export const RUN_STATUS = { queued: 1, running: 2, succeeded: 3, failed: 4 } as const;

/**
 * How deep trigger runs may cause trigger runs: a run's own writes queue runs one level deeper,
 * and writes at this depth queue none (a trigger that updates its own entity cannot loop forever).
 */
export const MAX_TRIGGER_DEPTH = 3;

/**
 * Whether the organization's metadata has the run log of this version (an organization made
 * before triggers ran has an inu_asyncaction without these fields: it has no runs to do).
 */
const RUN_FIELDS = ['status', 'attempts', 'nextattempt', 'started', 'finished', 'error', 'depth'];
const runLogs = new WeakMap<Entity, boolean>();
export const hasRunLog = (entities: readonly Entity[]): boolean => {
  const log = entities.find((e) => e.logicalName === TRIGGER_RUN_ENTITY);
  if (log === undefined) return false;
  let known = runLogs.get(log);
  if (known === undefined) runLogs.set(log, (known = RUN_FIELDS.every((f) => log.properties.some((p) => p.logicalName === f))));
  return known;
};

/** The caller of a trigger run's writes: the trigger's owner, marked with the run's depth. */
export type TriggerCaller = Caller & { readonly triggerDepth: number };

export const triggerDepthOf = (caller: Caller): number => {
  const d = (caller as Partial<TriggerCaller>).triggerDepth;
  return typeof d === 'number' && d >= 0 ? d : 0;
};

const OPERATIONS: readonly WriteOperation[] = ['create', 'update', 'delete'];

/** `create`, `create;update`, `update, delete`: the operations a trigger reacts to, or what is wrong. */
export const parseOperations = (text: unknown): Either<string, ReadonlySet<WriteOperation>> => {
  if (typeof text !== 'string' || text.trim() === '') return left('one or more of create, update, delete');
  const out = new Set<WriteOperation>();
  for (const part of text.split(/[;,\s]+/)) {
    if (part === '') continue;
    const op = part.toLowerCase() as WriteOperation;
    if (!OPERATIONS.includes(op)) return left(`"${part}" is not create, update or delete`);
    out.add(op);
  }
  return right(out);
};

const conditions = new WeakMap<Entity, Map<string, Either<string, PlanFilter | null>>>();

/**
 * A trigger's condition as a validated filter of its entity (null: every record), remembered per
 * entity and text (parsed once, not on every write). Empty text: no condition.
 */
export const parseCondition = (entity: Entity, text: unknown, lookup: EntityLookup): Either<string, PlanFilter | null> => {
  if (text === null || text === undefined || (typeof text === 'string' && text.trim() === '')) return right(null);
  if (typeof text !== 'string') return left('the condition is not text');
  let perEntity = conditions.get(entity);
  if (!perEntity) conditions.set(entity, (perEntity = new Map()));
  const known = perEntity.get(text);
  if (known) return known;
  const parsed = parseConditionText(entity, text, lookup);
  if (perEntity.size > 500) perEntity.clear();
  perEntity.set(text, parsed);
  return parsed;
};

const parseConditionText = (entity: Entity, text: string, lookup: EntityLookup): Either<string, PlanFilter | null> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return left('the condition is not JSON (a fetch filter: { "conditions": [...] })');
  }
  const decoded = Filter.decode(json);
  if (isLeft(decoded)) return left('the condition is not a fetch filter ({ "type", "conditions", "filters" })');
  const pk = primaryKeyOf(entity);
  const plan = validateQuery({ entity: { name: entity.logicalName, attributes: [{ attribute: pk }], filter: decoded.right } }, lookup);
  if (isLeft(plan)) return left(plan.left.message);
  return right(plan.right.filter);
};

/** Whether a written record meets a trigger's condition (the core's reference evaluator on one row). */
export const conditionMet = (filter: PlanFilter | null, record: StoredRecord): boolean =>
  filterHolds(filter, { [ROOT_TABLE]: record as EntityRecord });

const idOf = (v: StoredValue | undefined): string | null => (v && typeof v === 'object' ? v.id.toLowerCase() : null);

/**
 * A trigger acts with its owner's permissions, so its owner is whoever writes it: a user may not
 * make a trigger that acts as someone else. Its entity, operations and condition must make sense.
 */
const checkTrigger = (ctx: WriteContext, caller: Caller, written: WrittenRecord): Either<DomainError, null> => {
  const t = written.after;
  if (!t) return right(null);
  const bad = (field: string, why: string): Either<DomainError, null> =>
    left(inputError(`Invalid value for ${TRIGGER_ENTITY}.${field}: ${JSON.stringify(t[field] ?? null)?.slice(0, 60)}: ${why}`));
  const target = typeof t.objectname === 'string' ? ctx.lookup(t.objectname) : undefined;
  if (!target) return bad('objectname', 'no such entity');
  if (target.logicalName === TRIGGER_RUN_ENTITY || target.logicalName === TRIGGER_ENTITY || target.logicalName === AUDIT_ENTITY) {
    return bad('objectname', 'triggers cannot watch triggers, their log or the audit');
  }
  const ops = parseOperations(t.operation);
  if (isLeft(ops)) return bad('operation', ops.left);
  const cond = parseCondition(target, t.condition, ctx.lookup);
  if (isLeft(cond)) return bad('condition', cond.left);
  if (!isSystemCaller(caller) && idOf(t.ownerid) !== caller.userId.toLowerCase()) {
    return left(permissionDenied('A trigger acts with its owner\'s permissions: its owner must be you'));
  }
  return right(null);
};

/** A queued run of `trigger` for the written record, as stored. */
const runRow = (ctx: WriteContext, runs: Entity, trigger: StoredRecord, written: WrittenRecord, depth: number, error?: string): Either<DomainError, StoredRecord> => {
  const now = ctx.now();
  const triggerId = String(trigger[primaryKeyOf(ctx.lookup(TRIGGER_ENTITY) as Entity)]);
  const object: EntityRecord = {
    name: typeof trigger.name === 'string' && trigger.name !== '' ? trigger.name : `${written.entity.logicalName} ${written.operation}`,
    handlerid: { id: triggerId, name: TRIGGER_ENTITY },
    objectname: written.entity.logicalName,
    objectid: written.id,
    operation: written.operation,
    status: error === undefined ? RUN_STATUS.queued : RUN_STATUS.failed,
    attempts: 0,
    nextattempt: now.toISOString(),
    depth,
    ...(error === undefined ? {} : { error, finished: now.toISOString() }),
  };
  // Written as the system: the log belongs to no user, and no user's scope decides its fields.
  return recordToCreate(runs, object, systemCaller(), now, ctx.newId);
};

function* queueRuns(ctx: WriteContext, caller: Caller, written: WrittenRecord): Steps<Either<DomainError, null>> {
  const triggers = ctx.lookup(TRIGGER_ENTITY);
  const runs = ctx.lookup(TRIGGER_RUN_ENTITY);
  if (!triggers || !runs || !hasRunLog([runs])) return right(null);
  const depth = triggerDepthOf(caller);
  if (depth >= MAX_TRIGGER_DEPTH) return right(null);
  const candidates = yield* selectRows(triggers, { objectname: written.entity.logicalName });
  const record = written.after ?? written.before;
  if (candidates.length === 0 || !record) return right(null);
  for (const t of candidates) {
    if (t.statecode === 1) continue; // an inactive trigger
    const ops = parseOperations(t.operation);
    if (isLeft(ops) || !ops.right.has(written.operation)) continue;
    const cond = parseCondition(written.entity, t.condition, ctx.lookup);
    // A condition the metadata no longer supports (a field removed) shows as a failed run in the log.
    const error = isLeft(cond) ? `Trigger ${JSON.stringify(t.name ?? '')}: its condition is invalid: ${cond.left}` : undefined;
    if (!isLeft(cond) && !conditionMet(cond.right, record)) continue;
    const row = runRow(ctx, runs, t, written, depth + 1, error);
    if (isLeft(row)) return row;
    yield { kind: 'insert', entity: runs, record: row.right };
  }
  return right(null);
}

/** The write rule of triggers: checks trigger rows, keeps the log the server's, queues runs. */
export const triggerOutboxRule: WriteRule = {
  name: 'trigger runs',
  *afterWrite(ctx, caller, written) {
    const name = written.entity.logicalName;
    if (name === TRIGGER_ENTITY) return checkTrigger(ctx, caller, written);
    if (name === TRIGGER_RUN_ENTITY) {
      // A run row written by a user could run a trigger as its owner: only the server writes them (deleting old ones is fine).
      return written.operation === 'delete' || isSystemCaller(caller) ? right(null) : left(permissionDenied(`No ${written.operation} permission on ${TRIGGER_RUN_ENTITY}: trigger runs are written by the server`));
    }
    if (name === AUDIT_ENTITY) return right(null);
    return yield* queueRuns(ctx, caller, written);
  },
};
