import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SqlResult } from '../records/sql-steps.js';
import type { Row } from '../records/sql-values.js';
import type { CompiledStatement, WorkerReply, WorkerRequest } from './sqlite-messages.js';

/** A read that ran past its time budget; the worker that ran it was replaced. */
export class SqlTimeout extends Error {
  readonly code = 'ERR_TIMEOUT';
  constructor(readonly budgetMs: number) {
    super(`the query took longer than the time budget of ${budgetMs / 1000} s`);
  }
}

/**
 * A worker was replaced while this piece of work waited on it (a transaction cannot move). Its
 * connection closed without a commit, so nothing of the work was written: the HTTP answer is the
 * same 503 ERR_TIMEOUT as an overdue read (the caller may retry), never a 500.
 */
export class WorkerLost extends Error {
  readonly code = 'ERR_TIMEOUT';
  constructor(reason: string) {
    super(`the database work was not done (${reason}); nothing was changed, try again`);
  }
}

export type SqliteWorkerPoolOptions = {
  /**
   * worker threads (default: the machine's parallelism plus one, at least 3: one organization may
   * read on all but one, so two read side by side even on 2 cores)
   */
  size?: number;
};

type Pending = { message: WorkerRequest; resolve: (r: WorkerReply & { ok: true }) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout };

/**
 * The worker: compiled JavaScript next to this file, or else (tests, benchmarks, `tsx` hosts)
 * the TypeScript source loaded through tsx's API in a small evaluated script.
 */
const newWorker = (): Worker => {
  const js = new URL('./sqlite-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  // tsx's ESM entry (require.resolve would give its CommonJS one)
  const api = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const source = new URL('./sqlite-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true });
};

class PoolWorker {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  /** transactions open on this worker: they live on its connections and cannot move */
  readonly transactions = new Set<number>();
  /** set once the worker has loaded (its first message) */
  ready = false;
  private readonly whenReady: Array<() => void> = [];

  constructor(onReply: (w: PoolWorker, r: WorkerReply) => void, onExit: (w: PoolWorker, e: Error) => void) {
    this.worker = newWorker();
    this.worker.on('message', (r: WorkerReply) => {
      if (r.id !== 0) return onReply(this, r);
      this.ready = true;
      for (const f of this.whenReady.splice(0)) f();
    });
    this.worker.on('error', (e) => onExit(this, e));
    this.worker.on('exit', (code) => onExit(this, new WorkerLost(`its SQLite worker exited with code ${code}`)));
    this.idle();
  }

  /** Runs `f` once the worker has loaded. */
  onReady(f: () => void): void {
    if (this.ready) f();
    else this.whenReady.push(f);
  }

  /** An idle worker does not keep the process alive; one with work does (a CLI command awaits it). */
  idle(): void {
    if (this.pending.size === 0 && this.transactions.size === 0) this.worker.unref();
  }
}

/** One transaction pinned to one worker's write connection. */
export type PooledTransaction = {
  exec(statement: CompiledStatement): Promise<SqlResult>;
  end(commit: boolean): Promise<void>;
};

/**
 * The SQLite worker pool of one data folder (issue 22 item 1): database work runs off the request
 * thread. Reads go to the least busy worker, and one database file never holds more than
 * `size - 1` workers with reads, so a slow organization always leaves a worker to the others.
 * Writes are serialized per file (one transaction at a time, all its statements on one
 * connection of one worker). A read past its time budget is answered with SqlTimeout at once and
 * its worker is replaced: better-sqlite3 cannot interrupt a statement, so the old thread finishes
 * it unseen and exits.
 */
export class SqliteWorkerPool {
  readonly size: number;
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private nextTx = 1;
  private closed = false;
  /** reads in flight per file, and the reads waiting for a turn */
  private readonly readsInFlight = new Map<string, number>();
  private readonly waitingReads = new Map<string, Array<() => void>>();
  /** the tail of each file's chain of transactions */
  private readonly writeQueues = new Map<string, Promise<unknown>>();

  constructor(options: SqliteWorkerPoolOptions = {}) {
    this.size = Math.max(2, options.size ?? Math.max(3, availableParallelism() + 1));
    for (let i = 0; i < this.size; i++) this.workers.push(this.spawn());
  }

  private spawn(): PoolWorker {
    return new PoolWorker(
      (w, r) => this.settle(w, r),
      (w, e) => this.lost(w, e),
    );
  }

  private settle(w: PoolWorker, r: WorkerReply): void {
    const p = w.pending.get(r.id);
    if (!p) return;
    w.pending.delete(r.id);
    w.idle();
    if (p.timer) clearTimeout(p.timer);
    if (r.ok) p.resolve(r);
    else p.reject(Object.assign(new Error(r.message), r.code ? { code: r.code } : {}));
  }

  /** A worker that died or was replaced: reads move to another worker, transactions fail. */
  private lost(w: PoolWorker, e: Error): void {
    const i = this.workers.indexOf(w);
    if (i < 0) return;
    if (this.closed) return;
    this.workers[i] = this.spawn();
    const pending = [...w.pending.values()];
    w.pending.clear();
    for (const p of pending) {
      if (p.message.op === 'read') this.send(this.leastBusy(), p);
      else p.reject(e instanceof WorkerLost ? e : new WorkerLost(e.message));
    }
  }

  /**
   * The worker with the least work. One still loading (a replacement) counts as half busy: it is
   * passed over for an idle one, but preferred to one running a statement, whose end nobody knows.
   */
  private leastBusy(): PoolWorker {
    const load = (w: PoolWorker): number => w.pending.size + w.transactions.size + (w.ready ? 0 : 0.5);
    let best = this.workers[0];
    for (const w of this.workers) if (load(w) < load(best)) best = w;
    return best;
  }

  private send(w: PoolWorker, p: Pending): void {
    w.pending.set(p.message.id, p);
    w.worker.ref();
    w.worker.postMessage(p.message);
  }

  private request(w: PoolWorker, message: WorkerRequest, budgetMs?: number): Promise<WorkerReply & { ok: true }> {
    if (this.closed) return Promise.reject(new Error('the SQLite worker pool is closed'));
    return new Promise((resolve, reject) => {
      const p: Pending = { message, resolve, reject };
      this.send(w, p);
      // The budget counts from when the worker can run the read (a replaced worker loads first).
      if (budgetMs !== undefined && budgetMs > 0)
        w.onReady(() => {
          if (!w.pending.has(message.id)) return;
          p.timer = setTimeout(() => {
            const owner = this.workers.find((x) => x.pending.get(message.id) === p);
            owner?.pending.delete(message.id);
            reject(new SqlTimeout(budgetMs));
            if (owner) this.replace(owner);
          }, budgetMs);
        });
    });
  }

  /** Stops a worker that runs an overdue statement and puts a fresh one in its place. */
  private replace(w: PoolWorker): void {
    this.lost(w, new WorkerLost('its SQLite worker was restarted after another statement ran past its time budget'));
    void w.worker.terminate();
  }

  private async readTurn(file: string): Promise<void> {
    const limit = Math.max(1, this.size - 1);
    if ((this.readsInFlight.get(file) ?? 0) >= limit) {
      await new Promise<void>((resolve) => {
        const q = this.waitingReads.get(file) ?? [];
        q.push(resolve);
        this.waitingReads.set(file, q);
      });
    }
    this.readsInFlight.set(file, (this.readsInFlight.get(file) ?? 0) + 1);
  }

  private readDone(file: string): void {
    const n = (this.readsInFlight.get(file) ?? 1) - 1;
    if (n === 0) this.readsInFlight.delete(file);
    else this.readsInFlight.set(file, n);
    const q = this.waitingReads.get(file);
    const next = q?.shift();
    if (q && q.length === 0) this.waitingReads.delete(file);
    next?.();
  }

  /** Reads in one snapshot of `file`; rejects with SqlTimeout after `budgetMs`. */
  async read(file: string, statements: CompiledStatement[], budgetMs?: number): Promise<Row[][]> {
    await this.readTurn(file);
    try {
      const r = await this.request(this.leastBusy(), { id: this.nextId++, op: 'read', file, statements }, budgetMs);
      return r.rows ?? [];
    } finally {
      this.readDone(file);
    }
  }

  /**
   * Runs `work` as the only transaction of `file` at this time, on one worker's write connection.
   * The transaction is rolled back when `work` throws or ends it without committing.
   */
  transact<T>(file: string, work: (tx: PooledTransaction) => Promise<T>): Promise<T> {
    const previous = this.writeQueues.get(file) ?? Promise.resolve();
    const run = previous.then(() => this.runTransaction(file, work));
    const tail = run.catch(() => undefined);
    this.writeQueues.set(file, tail);
    void tail.then(() => {
      if (this.writeQueues.get(file) === tail) this.writeQueues.delete(file);
    });
    return run;
  }

  private async runTransaction<T>(file: string, work: (tx: PooledTransaction) => Promise<T>): Promise<T> {
    const w = this.leastBusy();
    const tx = this.nextTx++;
    let begun = false;
    let ended = false;
    w.transactions.add(tx);
    const handle: PooledTransaction = {
      exec: async (statement) => {
        const r = await this.request(w, { id: this.nextId++, op: 'exec', tx, file, begin: !begun, statement }).catch((e: unknown) => {
          ended = true; // the worker rolled it back (or is gone)
          throw e;
        });
        begun = true;
        return r.result ?? { rows: [], changes: 0 };
      },
      end: async (commit) => {
        if (ended) return;
        ended = true;
        if (begun) await this.request(w, { id: this.nextId++, op: 'end', tx, commit });
      },
    };
    try {
      const result = await work(handle);
      await handle.end(false); // work that forgot to end its transaction commits nothing
      return result;
    } catch (e) {
      await handle.end(false).catch(() => undefined);
      throw e;
    } finally {
      w.transactions.delete(tx);
      w.idle();
    }
  }

  /** Closes the connections the workers hold to `file`. */
  async forget(file: string): Promise<void> {
    await Promise.all(this.workers.map((w) => this.request(w, { id: this.nextId++, op: 'forget', file })));
  }

  /** Stops the workers; work still waiting on them fails rather than waiting forever. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.workers) {
      for (const p of w.pending.values()) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(new WorkerLost('the SQLite worker pool was closed'));
      }
      w.pending.clear();
    }
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
