import type { SqlDialect } from '../dialects/sql-dialect.js';
import { sqliteDialect } from '../dialects/sql-dialect.js';
import { Rollback, SqliteCompiler, type ShadowCompiler, type SqlRunner } from '../records/sql-runner.js';
import type { SqlCommand, SqlWork } from '../records/sql-steps.js';
import type { Row } from '../records/sql-values.js';
import type { SqliteDatabase } from '../sqlite/open-sqlite.js';
import type { SqliteWorkerPool } from './sqlite-worker-pool.js';

export type WorkerRunnerOptions = {
  /** a read's time budget in ms (issue 22: default 10 s); past it the read fails with SqlTimeout */
  readBudgetMs?: number;
  shadow?: ShadowCompiler;
};

/** better-sqlite3 gives BLOBs as Buffers; a worker's message gives them back as plain Uint8Arrays. */
const buffersBack = (rows: Row[]): Row[] => {
  for (const row of rows)
    for (const k in row) {
      const v = row[k];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  return rows;
};

/**
 * The SqlRunner of one organization's SQLite file on the worker pool (issue 22 item 1): the SQL is
 * compiled here and runs in a worker, so the request thread never waits on SQLite. A transaction
 * is driven from here statement by statement, all on one worker's write connection; writes of
 * one file are serialized by the pool. `raw` is the host's own connection of the file: its name
 * is the file, and it compiles (it runs nothing of the runner's).
 */
export class WorkerSqliteRunner implements SqlRunner {
  readonly dialect: SqlDialect;
  private readonly compiler: SqliteCompiler;
  private readonly file: string;

  constructor(
    raw: SqliteDatabase,
    private readonly pool: SqliteWorkerPool,
    private readonly options: WorkerRunnerOptions = {},
  ) {
    if (raw.memory) throw new Error('an in-memory SQLite database cannot be shared with workers');
    this.file = raw.name;
    this.dialect = sqliteDialect(raw);
    this.compiler = new SqliteCompiler(this.dialect, options.shadow);
  }

  async read(commands: SqlCommand[]): Promise<Row[][]> {
    const rows = await this.pool.read(
      this.file,
      commands.map((c) => this.compiler.compile(c)),
      this.options.readBudgetMs,
    );
    return rows.map(buffersBack);
  }

  transact<T>(work: SqlWork<T>, commit: (result: T) => boolean): Promise<T> {
    return this.pool.transact(this.file, async (tx) => {
      let next = work.next();
      while (!next.done) {
        const r = await tx.exec(this.compiler.compile(next.value));
        buffersBack(r.rows);
        next = work.next(r);
      }
      await tx.end(commit(next.value));
      return next.value;
    });
  }
}

export { Rollback };
