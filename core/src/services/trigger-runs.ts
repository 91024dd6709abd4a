import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import { batchOf, ExecuteMultipleRequest, FetchRequestBody, WriteItemCodec } from '../api/records.js';
import { decode } from '../decode.js';
import { errorText, type DomainError } from '../errors.js';
import type { Entity, EntityRecord, LookupValue } from '../metadata/entity.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting-depth.js';
import type { Clock } from '../ports/clock.js';
import { SYSTEM_USER_ID, systemCaller, type RecordStore, type WriteItem } from '../ports/record-store.js';
import type { ScriptCallAnswer, ScriptHost, ScriptJson, ScriptLimits, ScriptOutcome, ScriptSandbox } from '../ports/script-sandbox.js';
import { hasRunLog, RUN_STATUS, TRIGGER_ENTITY, TRIGGER_RUN_ENTITY, type TriggerCaller } from '../store/trigger-outbox.js';
import { loadCaller } from './caller.js';

/**
 * The runs of triggers (issue 16 "On the server"): the use case a host calls, per organization,
 * whenever runs may be due. Each run is an inu_asyncaction row that the write of the record
 * queued in its own transaction (store/trigger-outbox.ts); here it is claimed, run in the
 * ScriptSandbox with the trigger owner's permissions, and marked succeeded, queued again with a
 * back-off, or failed after the last attempt.
 *
 * Claiming is one conditional update (the row's versionnumber): of two runners only one gets a
 * row. A row left `running` by a process that died is claimed again once its lease ran out, and
 * a host starting up takes its own abandoned rows at once (`resumeRunning`): a run that did not
 * finish is run again, a run that succeeded never is.
 */
export type TriggerRunConfig = {
  /** Attempts of a run before it ends failed (default 3). */
  maxAttempts: number;
  /** The wait before attempt n+1 is `backoffMs * 2^(n-1)` (default 2000 ms: 2 s, 4 s, ...). */
  backoffMs: number;
  /** A `running` row older than this is abandoned and claimed again (default 60 s; more than a run's time limit). */
  leaseMs: number;
  /** Runs claimed per pass (default 20). */
  batch: number;
  /** Runs of a pass going at once, of different records (default 2: the sandbox's threads). */
  concurrency: number;
  /** The sandbox's limits of one run (default the port's: 5 s, 32 MiB). */
  limits?: Partial<ScriptLimits>;
};

export const DEFAULT_TRIGGER_RUN_CONFIG: TriggerRunConfig = { maxAttempts: 3, backoffMs: 2_000, leaseMs: 60_000, batch: 20, concurrency: 2 };

export type TriggerRunDeps = {
  /** The organization's records. */
  store: RecordStore;
  sandbox: ScriptSandbox;
  clock: Clock;
  /** The organization's entities (the owner's permissions are merged over them). */
  entities: () => readonly Entity[];
  config?: Partial<TriggerRunConfig>;
};

/** What one pass did: runs that succeeded, were queued again, or failed for good. */
export type PassReport = { succeeded: number; retried: number; failed: number };

type RunRow = EntityRecord & { id: string };

const iso = (d: Date): string => d.toISOString();
const idOf = (v: unknown): string | null => (v && typeof v === 'object' && typeof (v as LookupValue).id === 'string' ? (v as LookupValue).id : null);
const num = (v: unknown, d = 0): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

/** The back-off before the next attempt after `attempts` attempts. */
export const retryDelayMs = (config: TriggerRunConfig, attempts: number): number => config.backoffMs * 2 ** Math.max(0, attempts - 1);

/** Rows due now: queued and due, or running past their lease (their process died). */
const dueRuns = async (deps: TriggerRunDeps, config: TriggerRunConfig, now: Date): Promise<Either<DomainError, RunRow[]>> => {
  const answer = await deps.store.retrieveMultiple(systemCaller(), {
    entity: {
      name: TRIGGER_RUN_ENTITY,
      allattrs: true,
      filter: {
        type: 'or',
        filters: [
          { conditions: [{ attribute: 'status', operator: 'eq', value: RUN_STATUS.queued }, { attribute: 'nextattempt', operator: 'le', value: iso(now) }] },
          { conditions: [{ attribute: 'status', operator: 'eq', value: RUN_STATUS.running }, { attribute: 'started', operator: 'le', value: iso(new Date(now.getTime() - config.leaseMs)) }] },
        ],
      },
      orders: [{ attribute: 'nextattempt' }, { attribute: 'createdon' }],
    },
    pageSize: config.batch,
  });
  return isLeft(answer) ? answer : right(answer.right.records as RunRow[]);
};

/** Takes a row for this runner: one conditional update; false when another runner was first. */
const claim = async (deps: TriggerRunDeps, row: RunRow, now: Date): Promise<{ version: string } | null> => {
  const version = String(row.versionnumber);
  const taken = await deps.store.update(systemCaller(), TRIGGER_RUN_ENTITY, {
    id: row.id,
    versionnumber: version,
    status: RUN_STATUS.running,
    started: iso(now),
    attempts: num(row.attempts) + 1,
  });
  return isLeft(taken) ? null : { version: String(Number(version) + 1) };
};

/** The script's API with the owner's permissions: decoded like the HTTP bodies, answered like them. */
const hostFor = (store: RecordStore, caller: TriggerCaller): ScriptHost => {
  const refuse = (arg: unknown): ScriptCallAnswer | null =>
    nestsDeeperThan(arg, MAX_NESTING_DEPTH) ? { error: `ERR_INPUT: nested deeper than ${MAX_NESTING_DEPTH}` } : null;
  const write = async (item: WriteItem): Promise<Either<DomainError, string>> =>
    item.operation === 'create' ? store.create(caller, item.name, item.object) : item.operation === 'update' ? store.update(caller, item.name, item.object) : store.delete(caller, item.name, item.object);
  return {
    fetch: async (arg) => {
      const bad = refuse(arg);
      if (bad) return bad;
      const q = decode(FetchRequestBody, arg);
      if (isLeft(q)) return { error: errorText(q.left) };
      const r = await store.retrieveMultiple(caller, q.right);
      return isLeft(r) ? { error: errorText(r.left) } : { value: r.right as unknown as ScriptJson };
    },
    update: async (arg) => {
      const bad = refuse(arg);
      if (bad) return bad;
      const item = decode(WriteItemCodec, arg);
      if (isLeft(item)) return { error: errorText(item.left) };
      const r = await write(item.right);
      return isLeft(r) ? { error: errorText(r.left) } : { value: { id: r.right } };
    },
    executeMultiple: async (arg) => {
      const bad = refuse(arg);
      if (bad) return bad;
      const body = decode(ExecuteMultipleRequest, arg);
      if (isLeft(body)) return { error: errorText(body.left) };
      const { items, atomic } = batchOf(body.right);
      const r = await store.executeMultiple(caller, items, { atomic });
      return isLeft(r) ? { error: errorText(r.left) } : { value: r.right as unknown as ScriptJson };
    },
  };
};

/** A run that cannot start (its trigger is gone or inactive): failed at once, no retry helps. */
const cannotRun = (message: string): ScriptOutcome => ({ _tag: 'ScriptFailed', reason: 'sandbox', message });

/** Runs one claimed row's script; the outcome, and whether another attempt could help. */
/** The triggers a pass read, by id: the runs of one trigger read it once per pass. */
type TriggerCache = Map<string, ReturnType<RecordStore['retrieveById']>>;

const execute = async (deps: TriggerRunDeps, config: TriggerRunConfig, row: RunRow, triggers: TriggerCache): Promise<{ outcome: ScriptOutcome; final: boolean }> => {
  const sys = systemCaller();
  const triggerId = idOf(row.handlerid);
  let read = triggerId === null ? undefined : triggers.get(triggerId);
  if (triggerId !== null && read === undefined) triggers.set(triggerId, (read = deps.store.retrieveById(sys, TRIGGER_ENTITY, triggerId)));
  const trigger = read === undefined ? null : await read;
  if (trigger === null || isLeft(trigger)) return { outcome: cannotRun('Its trigger was deleted'), final: true };
  const t = trigger.right;
  const label = `trigger ${JSON.stringify(typeof t.name === 'string' ? t.name : String(triggerId))}`;
  if (num(t.statecode) === 1) return { outcome: cannotRun(`Script ${label}: the trigger is inactive`), final: true };
  const ownerId = idOf(t.ownerid) ?? idOf(t.createdby);
  if (ownerId === null) return { outcome: cannotRun(`Script ${label}: the trigger has no owner`), final: true };
  // A trigger a pack or the host installed is the system's: it acts as the system.
  const owner = ownerId === SYSTEM_USER_ID ? right(systemCaller()) : await loadCaller(deps.store, ownerId, deps.entities().map((e) => e.logicalName));
  if (isLeft(owner)) return { outcome: cannotRun(`Script ${label}: its owner's permissions: ${errorText(owner.left)}`), final: false };
  const caller: TriggerCaller = { ...owner.right, triggerDepth: num(row.depth, 1) };
  const entity = String(row.objectname ?? '');
  const recordId = String(row.objectid ?? '');
  // The record as it is now, as the owner may read it (none after a delete or when not readable).
  const current = row.operation === 'delete' ? null : await deps.store.retrieveById(caller, entity, recordId);
  const record = current === null || isLeft(current) ? null : (current.right as unknown as ScriptJson);
  const input: ScriptJson = {
    entity,
    id: recordId,
    operation: String(row.operation ?? ''),
    record,
    trigger: { id: String(triggerId), name: typeof t.name === 'string' ? t.name : '' },
    attempt: num(row.attempts) + 1,
  };
  const outcome = await deps.sandbox.run({ name: label, source: typeof t.action === 'string' ? t.action : '', input, host: hostFor(deps.store, caller), limits: config.limits });
  // A syntax error fails the same way on every attempt.
  return { outcome, final: outcome._tag === 'ScriptFailed' && outcome.reason === 'syntax' };
};

const ERROR_MAX = 4000;

/** Writes the end of an attempt on the claimed row (its version is the claim's). */
const finishRun = async (deps: TriggerRunDeps, config: TriggerRunConfig, row: RunRow, version: string, result: { outcome: ScriptOutcome; final: boolean }): Promise<keyof PassReport> => {
  const now = deps.clock.now();
  const attempts = num(row.attempts) + 1;
  const sys = systemCaller();
  const base = { id: row.id, versionnumber: version };
  if (result.outcome._tag === 'ScriptCompleted') {
    await deps.store.update(sys, TRIGGER_RUN_ENTITY, { ...base, status: RUN_STATUS.succeeded, finished: iso(now), error: null });
    return 'succeeded';
  }
  const error = result.outcome.message.slice(0, ERROR_MAX);
  if (result.final || attempts >= config.maxAttempts) {
    await deps.store.update(sys, TRIGGER_RUN_ENTITY, { ...base, status: RUN_STATUS.failed, finished: iso(now), error });
    return 'failed';
  }
  const next = new Date(now.getTime() + retryDelayMs(config, attempts));
  await deps.store.update(sys, TRIGGER_RUN_ENTITY, { ...base, status: RUN_STATUS.queued, nextattempt: iso(next), error });
  return 'retried';
};

/**
 * One pass over an organization's due runs: claims each, runs it, records the end; `concurrency`
 * records at a time (the sandbox's threads are shared by every organization of the host, which
 * queue there); answers what it did.
 */
export const runDueTriggers = async (deps: TriggerRunDeps): Promise<Either<DomainError, PassReport>> => {
  const config: TriggerRunConfig = { ...DEFAULT_TRIGGER_RUN_CONFIG, ...deps.config };
  if (!hasRunLog(deps.entities())) return right({ succeeded: 0, retried: 0, failed: 0 });
  const due = await dueRuns(deps, config, deps.clock.now());
  if (isLeft(due)) return due;
  const report: PassReport = { succeeded: 0, retried: 0, failed: 0 };
  // The runs of one record stay in order (its create's run before its update's); records run side by side.
  const byRecord = new Map<string, RunRow[]>();
  for (const row of due.right) {
    const key = String(row.objectid);
    byRecord.set(key, [...(byRecord.get(key) ?? []), row]);
  }
  const queues = [...byRecord.values()];
  const triggers: TriggerCache = new Map();
  const lane = async (): Promise<void> => {
    for (let rows = queues.shift(); rows !== undefined; rows = queues.shift()) {
      for (const row of rows) {
        const claimed = await claim(deps, row, deps.clock.now());
        if (!claimed) continue;
        const result = await execute(deps, config, row, triggers);
        report[await finishRun(deps, config, row, claimed.version, result)]++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, config.concurrency) }, lane));
  return right(report);
};

/**
 * At a host's start: its rows still `running` were abandoned by the process before it (killed,
 * crashed); they are queued again now rather than after their lease. Only for a host that is
 * the one runner of its organizations (the default server); answers how many.
 */
export const resumeRunning = async (deps: Pick<TriggerRunDeps, 'store' | 'clock' | 'entities'>): Promise<Either<DomainError, number>> => {
  if (!hasRunLog(deps.entities())) return right(0);
  const sys = systemCaller();
  const running = await deps.store.retrieveMultiple(sys, {
    entity: { name: TRIGGER_RUN_ENTITY, attributes: [{ attribute: 'id' }, { attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'status', operator: 'eq', value: RUN_STATUS.running }] } },
    pageSize: 5000,
  });
  if (isLeft(running)) return running;
  let n = 0;
  for (const r of running.right.records) {
    const done = await deps.store.update(sys, TRIGGER_RUN_ENTITY, { id: String(r.id), versionnumber: String(r.versionnumber), status: RUN_STATUS.queued, nextattempt: iso(deps.clock.now()) });
    if (!isLeft(done)) n++;
  }
  return right(n);
};
