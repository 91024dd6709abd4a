import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  atomicFailure,
  capCount,
  DEFAULT_COUNT_CAP,
  createRecord,
  deleteRecord,
  inputError,
  itemResult,
  MAX_BATCH_SIZE,
  planFetch,
  restoreRecord,
  retrieveOne,
  scopeFor,
  updateRecord,
  transaction,
  writeItem,
  type Caller,
  type Change,
  type ChangeFeed,
  type Clock,
  type DomainError,
  type EntityLookup,
  type EntityRecord,
  type FetchRequest,
  type FetchResult,
  type IdGenerator,
  type ItemResult,
  type RecordStore,
  type Steps,
  type WriteContext,
  type WriteItem,
  type WriteOutcome,
  type WriteRule,
  WRITE_RULES,
} from '@tessera/core/internal';
import type { SqlDialect } from '../dialects/sql-dialect.js';
import { compileFetch, type CompiledFetch } from './sql-query.js';
import type { SqlRunner } from './sql-runner.js';
import { sqlWork, type SqlCommand } from './sql-steps.js';

/**
 * The RecordStore on SQL through Kysely: SQLite (embedded default) or SQL Server, by its runner.
 * Reads: the validated plan becomes one SELECT and one COUNT. Writes: the shared steps of the core
 * run as SQL in one transaction; changes go to the ChangeFeed after commit.
 */
export class KyselyRecordStore implements RecordStore {
  private readonly ctx: WriteContext;

  constructor(
    private readonly runner: SqlRunner,
    private readonly lookup: EntityLookup,
    clock: Clock,
    ids: IdGenerator,
    private readonly feed?: ChangeFeed,
    /** where counts stop (issue 22): the host's configured cap */
    private readonly countCap: number = DEFAULT_COUNT_CAP,
    /** the rules run inside each write (tests may pass their own) */
    rules: readonly WriteRule[] = WRITE_RULES,
  ) {
    this.ctx = { lookup, now: () => clock.now(), newId: () => ids.newId(), rules };
  }

  async retrieveMultiple(caller: Caller, request: FetchRequest): Promise<Either<DomainError, FetchResult>> {
    const plan = planFetch(this.lookup, caller, request);
    if (isLeft(plan)) return plan;
    const p = plan.right;
    // Built once per dialect: the runner's own, and another only when the runner compiles alongside.
    const built = new Map<SqlDialect, CompiledFetch>();
    const build = (d: SqlDialect): CompiledFetch => {
      let c = built.get(d);
      if (!c) built.set(d, (c = compileFetch(d, p, this.lookup, (e) => scopeFor(caller, e), this.countCap)));
      return c;
    };
    const commands: SqlCommand[] = [{ kind: 'all', build: (d) => build(d).data }];
    if (p.count) commands.push({ kind: 'all', build: (d) => build(d).count as NonNullable<CompiledFetch['count']> });
    const [rows, countRows] = await this.runner.read(commands);
    const compiled = build(this.runner.dialect);
    const counted = countRows ? capCount(Number(countRows[0]?.n ?? 0), this.countCap) : null;
    const count = counted ? counted.count : null;
    return right({
      records: compiled.decode(rows),
      count,
      ...(counted?.countIsCapped ? { countIsCapped: true } : {}),
      page: p.page,
      pageSize: p.pageSize,
      moreRecords: rows.length > p.pageSize,
    });
  }

  async retrieveById(caller: Caller, entity: string, id: string): Promise<Either<DomainError, EntityRecord>> {
    return retrieveOne(this.lookup, entity, id, (r) => this.retrieveMultiple(caller, r));
  }

  private publish(changes: Array<Change | null>): void {
    for (const c of changes) if (c && this.feed) this.feed.publish(c);
  }

  private async write(body: (tx: WriteContext) => Steps<WriteOutcome>): Promise<Either<DomainError, string>> {
    const commits = (o: WriteOutcome) => !isLeft(o);
    const outcome = await this.runner.transact(sqlWork(transaction(this.ctx, body, commits)), commits);
    if (isLeft(outcome)) return outcome;
    this.publish([outcome.right.change]);
    return right(outcome.right.id);
  }

  create(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => createRecord(tx, caller, entity, object));
  }

  update(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => updateRecord(tx, caller, entity, object));
  }

  delete(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>> {
    return this.write((tx) => deleteRecord(tx, caller, entity, object));
  }

  restore(caller: Caller, entity: string, id: string): Promise<Either<DomainError, string>> {
    return this.write((tx) => restoreRecord(tx, caller, entity, id));
  }

  async executeMultiple(
    caller: Caller,
    items: readonly WriteItem[],
    options: { atomic?: boolean } = {},
  ): Promise<Either<DomainError, ItemResult[]>> {
    if (items.length > MAX_BATCH_SIZE) return left(inputError(`Too many items: at most ${MAX_BATCH_SIZE} (limit MAX_BATCH_SIZE)`));
    if (!options.atomic) {
      const out: ItemResult[] = [];
      for (const item of items) {
        const r = await this.write((tx) => writeItem(tx, caller, item));
        out.push(isLeft(r) ? itemResult(r) : { id: r.right });
      }
      return right(out);
    }
    // The whole batch is one piece of SQL work in one transaction; the first error ends it.
    function* batch(ctx: WriteContext): Steps<{ outcomes: WriteOutcome[]; failed: number }> {
      const outcomes: WriteOutcome[] = [];
      for (const item of items) {
        const o = yield* writeItem(ctx, caller, item);
        outcomes.push(o);
        if (isLeft(o)) return { outcomes, failed: outcomes.length - 1 };
      }
      return { outcomes, failed: -1 };
    }
    const commits = (x: { failed: number }) => x.failed < 0;
    const r = await this.runner.transact(sqlWork(transaction(this.ctx, batch, commits)), commits);
    if (r.failed >= 0) {
      const failure = r.outcomes[r.failed];
      return right(atomicFailure(items.length, r.failed, (failure as { left: DomainError }).left));
    }
    this.publish(r.outcomes.map((o) => (isLeft(o) ? null : o.right.change)));
    return right(r.outcomes.map(itemResult));
  }
}
