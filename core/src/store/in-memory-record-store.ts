import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type DomainError } from '../errors.js';
import { primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { roundDecimal } from '../money/decimal.js';
import type { Caller } from '../permissions/types.js';
import type { ChangeFeed, Change } from '../ports/change-feed.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { ItemResult, RecordStore, WriteItem } from '../ports/record-store.js';
import { evaluateQuery } from '../query/evaluate-query.js';
import type { FetchRequest, FetchResult } from '../query/query.js';
import { MAX_BATCH_SIZE, type EntityLookup } from '../query/validate-query.js';
import { AUDIT_DELETE } from './audit.js';
import { planFetch, retrieveOne, scopeFor } from './record-reads.js';
import type { StoredRecord } from './record-rules.js';
import {
  createRecord,
  deleteRecord,
  itemResult,
  restoreRecord,
  rolledBack,
  updateRecord,
  writeItem,
  transaction,
  type Steps,
  type StepValue,
  type StepWhere,
  type StoreStep,
  type WriteContext,
  type WriteOutcome,
  type WriteRule,
} from './record-writes.js';
import { WRITE_RULES } from './write-rules.js';

/**
 * The RecordStore over plain maps, for hosts and tests that need no database. Same rules as the
 * SQL stores: writes run the shared steps of record-writes.ts, reads the reference evaluator.
 */
export class InMemoryRecordStore implements RecordStore {
  private readonly tables = new Map<string, Map<string, StoredRecord>>();
  private readonly ctx: WriteContext;

  constructor(
    private readonly lookup: EntityLookup,
    clock: Clock,
    ids: IdGenerator,
    private readonly feed?: ChangeFeed,
    /** the rules run inside each write (tests may pass their own) */
    rules: readonly WriteRule[] = WRITE_RULES,
  ) {
    this.ctx = { lookup, now: () => clock.now(), newId: () => ids.newId(), rules };
  }

  private table(name: string): Map<string, StoredRecord> {
    let t = this.tables.get(name);
    if (!t) this.tables.set(name, (t = new Map()));
    return t;
  }

  /** Runs write steps on the maps; `undo` collects how to take each one back. */
  private run<T>(steps: Steps<T>, undo: Array<() => void>): T {
    let next = steps.next();
    while (!next.done) {
      next = steps.next(this.step(next.value, undo));
    }
    return next.value;
  }

  private step(s: StoreStep, undo: Array<() => void>): unknown {
    switch (s.kind) {
      case 'get': {
        const r = this.table(s.entity.logicalName).get(s.id);
        return r ? { ...r } : null;
      }
      case 'insert': {
        const t = this.table(s.entity.logicalName);
        const id = s.record[primaryKeyOf(s.entity)] as string;
        if (t.has(id)) return false;
        t.set(id, { ...s.record });
        undo.push(() => t.delete(id));
        return true;
      }
      case 'update': {
        const t = this.table(s.entity.logicalName);
        const r = t.get(s.id);
        const vf = versionField(s.entity);
        if (!r || (s.version !== undefined && vf && r[vf] !== s.version)) return 0;
        if (s.where && !matches(s.entity, r, s.where)) return 0;
        const before = { ...r };
        const next = { ...r, ...s.changes };
        if (vf) next[vf] = Number(r[vf] ?? 0) + 1;
        t.set(s.id, next);
        undo.push(() => t.set(s.id, before));
        return 1;
      }
      case 'delete': {
        const t = this.table(s.entity.logicalName);
        const r = t.get(s.id);
        const vf = versionField(s.entity);
        if (!r || (s.version !== undefined && vf && r[vf] !== s.version)) return 0;
        t.delete(s.id);
        undo.push(() => t.set(s.id, r));
        return 1;
      }
      case 'lastDeleted': {
        let found: StoredRecord | null = null;
        for (const r of this.table(s.audit.logicalName).values()) {
          if (r.logicalname !== s.logicalname || r.objectid !== s.objectid || r.operation !== AUDIT_DELETE) continue;
          if (!found || String(r.createdon) >= String(found.createdon)) found = r;
        }
        return found ? { ...found } : null;
      }
      case 'select': {
        const key = s.orderBy ?? primaryKeyOf(s.entity);
        const rows = [...this.table(s.entity.logicalName).values()].filter((r) => matches(s.entity, r, s.where));
        rows.sort((a, b) => compareStored(a[key], b[key]));
        return rows.slice(0, s.limit ?? rows.length).map((r) => ({ ...r }));
      }
      case 'increment': {
        const t = this.table(s.entity.logicalName);
        const r = t.get(s.id);
        if (!r) return null;
        const vf = versionField(s.entity);
        const sum = Number(r[s.field] ?? 0) + s.by;
        const value = s.round === undefined ? sum : roundDecimal(sum, s.round);
        t.set(s.id, { ...r, [s.field]: value, ...(vf ? { [vf]: Number(r[vf] ?? 0) + 1 } : {}) });
        undo.push(() => t.set(s.id, r));
        return value;
      }
      case 'incrementWhere': {
        const t = this.table(s.entity.logicalName);
        const vf = versionField(s.entity);
        let n = 0;
        for (const [id, r] of t) {
          if (!matches(s.entity, r, s.where)) continue;
          t.set(id, { ...r, [s.field]: Number(r[s.field] ?? 0) + s.by, ...(vf ? { [vf]: Number(r[vf] ?? 0) + 1 } : {}) });
          undo.push(() => t.set(id, r));
          n++;
        }
        return n;
      }
    }
  }

  private publish(changes: Array<Change | null>): void {
    for (const c of changes) if (c && this.feed) this.feed.publish(c);
  }

  private write(body: (tx: WriteContext) => Steps<WriteOutcome>): Either<DomainError, string> {
    const undo: Array<() => void> = [];
    const outcome = this.run(transaction(this.ctx, body, (o) => !isLeft(o)), undo);
    if (isLeft(outcome)) {
      for (const u of undo.reverse()) u();
      return outcome;
    }
    this.publish([outcome.right.change]);
    return right(outcome.right.id);
  }

  async retrieveMultiple(caller: Caller, request: FetchRequest): Promise<Either<DomainError, FetchResult>> {
    const plan = planFetch(this.lookup, caller, request);
    if (isLeft(plan)) return plan;
    return right(
      evaluateQuery(plan.right, {
        rows: (entity) => [...this.table(entity).values()] as EntityRecord[],
        scope: (entity) => scopeFor(caller, entity),
      }),
    );
  }

  async retrieveById(caller: Caller, entity: string, id: string): Promise<Either<DomainError, EntityRecord>> {
    return retrieveOne(this.lookup, entity, id, (r) => this.retrieveMultiple(caller, r));
  }

  async create(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => createRecord(tx, caller, entity, object));
  }

  async update(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => updateRecord(tx, caller, entity, object));
  }

  async delete(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => deleteRecord(tx, caller, entity, object));
  }

  async restore(caller: Caller, entity: string, id: string): Promise<Either<DomainError, string>> {
    return this.write((tx) => restoreRecord(tx, caller, entity, id));
  }

  async executeMultiple(
    caller: Caller,
    items: readonly WriteItem[],
    options: { atomic?: boolean } = {},
  ): Promise<Either<DomainError, ItemResult[]>> {
    if (items.length > MAX_BATCH_SIZE) return left(inputError(`Too many items: at most ${MAX_BATCH_SIZE} (limit MAX_BATCH_SIZE)`));
    if (!options.atomic) {
      return right(items.map((item) => {
        const r = this.write((tx) => writeItem(tx, caller, item));
        return isLeft(r) ? itemResult(r) : { id: r.right };
      }));
    }
    const undo: Array<() => void> = [];
    // One transaction's plan, as the SQL store runs it: the first error ends it and undoes it all.
    function* batch(ctx: WriteContext): Steps<WriteOutcome[]> {
      const outcomes: WriteOutcome[] = [];
      for (const item of items) {
        const o = yield* writeItem(ctx, caller, item);
        outcomes.push(o);
        if (isLeft(o)) break;
      }
      return outcomes;
    }
    const outcomes = this.run(transaction(this.ctx, batch, (os) => !os.some(isLeft)), undo);
    const failed = outcomes.findIndex(isLeft);
    if (failed >= 0) {
      for (const u of undo.reverse()) u();
      return right(atomicFailure(items.length, failed, (outcomes[failed] as { left: DomainError }).left));
    }
    this.publish(outcomes.map((o) => (isLeft(o) ? null : o.right.change)));
    return right(outcomes.map(itemResult));
  }

  /** Every stored row of an entity (tests and diagnostics). */
  rows(entity: string): StoredRecord[] {
    return [...this.table(entity).values()].map((r) => ({ ...r }));
  }
}

/** A stored value as a step compares it: a lookup by its id. */
const compared = (v: StoredRecord[string] | undefined): StepValue =>
  v === undefined || v === null ? null : typeof v === 'object' ? v.id : v;
/** Ids are stored lower-case; a rule may hold one in capitals (as SQL Server answers it). */
const wanted = (e: Entity, f: string, v: StepValue): StepValue => {
  const p = e.properties.find((x) => x.logicalName === f);
  const form = p ? FIELD_TYPES[p.type].stored : undefined;
  return typeof v === 'string' && (form === 'id' || form === 'lookup') ? v.toLowerCase() : v;
};
const matches = (e: Entity, r: StoredRecord, where: StepWhere): boolean =>
  Object.entries(where).every(([f, v]) => {
    const have = compared(r[f]);
    return Array.isArray(v) ? v.some((x: StepValue) => have === wanted(e, f, x)) : have === wanted(e, f, v as StepValue);
  });
/** Empty first, then numbers or text in their order (as SQL orders ascending with NULLs first). */
const compareStored = (a: StoredRecord[string] | undefined, b: StoredRecord[string] | undefined): number => {
  const x = compared(a);
  const y = compared(b);
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return x < y ? -1 : 1;
};

const versionField = (e: Entity): string | undefined => e.properties.find((p) => p.type === 'VersionNumber')?.logicalName;

/** The answers of an atomic batch whose item `failed` failed: that item's error, and every other rolled back. */
export const atomicFailure = (size: number, failed: number, error: DomainError): ItemResult[] =>
  Array.from({ length: size }, (_, i) => (i === failed ? itemResult(left(error)) : rolledBack(failed, error)));
