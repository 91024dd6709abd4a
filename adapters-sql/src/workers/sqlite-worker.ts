import { parentPort } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import { openSqlite, type SqliteDatabase } from '../sqlite/open-sqlite.js';
import type { SqlResult } from '../records/sql-steps.js';
import type { Row } from '../records/sql-values.js';
import type { CompiledStatement, WorkerReply, WorkerRequest } from './sqlite-messages.js';

/**
 * A SQLite worker of the pool (sqlite-worker-pool.ts): per database file, one read connection and
 * one write connection, opened on first use. On WAL, its reads run beside other workers' reads and
 * beside a write; the pool sends one transaction at a time per file, so writes never wait on
 * each other here. Runs no domain code: compiled SQL in, rows out.
 */

/** Prepared statements kept per connection. */
const STATEMENT_CACHE_SIZE = 500;

class Connection {
  private readonly statements = new Map<string, Statement>();
  constructor(readonly db: SqliteDatabase) {}

  run(s: CompiledStatement): SqlResult {
    let st = this.statements.get(s.sql);
    if (!st) {
      st = this.db.prepare(s.sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(s.sql, st);
    }
    if (st.reader) return { rows: st.all(...s.params) as Row[], changes: 0 };
    return { rows: [], changes: st.run(...s.params).changes };
  }
}

const readers = new Map<string, Connection>();
const writers = new Map<string, Connection>();
const transactions = new Map<number, Connection>();

const connection = (pool: Map<string, Connection>, file: string): Connection => {
  let c = pool.get(file);
  if (!c) pool.set(file, (c = new Connection(openSqlite(file, { mustExist: true }))));
  return c;
};

const handle = (m: WorkerRequest): Omit<WorkerReply & { ok: true }, 'id' | 'ok'> => {
  switch (m.op) {
    case 'read': {
      const c = connection(readers, m.file);
      if (m.statements.length === 1) return { rows: [c.run(m.statements[0]).rows] };
      // One snapshot: a page and its count agree.
      return { rows: c.db.transaction(() => m.statements.map((s) => c.run(s).rows))() };
    }
    case 'exec': {
      let c = transactions.get(m.tx);
      if (m.begin) {
        c = connection(writers, m.file);
        c.db.exec('BEGIN IMMEDIATE');
        transactions.set(m.tx, c);
      }
      if (!c) throw new Error(`no open transaction ${m.tx}`);
      try {
        return { result: c.run(m.statement) };
      } catch (e) {
        // A failed statement ends its transaction: the runner does not go on after an error.
        transactions.delete(m.tx);
        if (c.db.inTransaction) c.db.exec('ROLLBACK');
        throw e;
      }
    }
    case 'end': {
      const c = transactions.get(m.tx);
      transactions.delete(m.tx);
      if (c?.db.inTransaction) c.db.exec(m.commit ? 'COMMIT' : 'ROLLBACK');
      return {};
    }
    case 'forget': {
      for (const pool of [readers, writers]) {
        pool.get(m.file)?.db.close();
        pool.delete(m.file);
      }
      return {};
    }
  }
};

parentPort?.on('message', (m: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: m.id, ok: true, ...handle(m) };
  } catch (e) {
    const err = e as { message?: string; code?: string };
    reply = { id: m.id, ok: false, message: String(err.message ?? e), ...(typeof err.code === 'string' ? { code: err.code } : {}) };
  }
  parentPort?.postMessage(reply);
});

// Ready: the pool starts a read's time budget only once its worker can run it.
parentPort?.postMessage({ id: 0, ok: true } satisfies WorkerReply);
