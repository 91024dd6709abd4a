import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Statement } from 'better-sqlite3';
import { isPostgresSchemaName, sqliteDialect, type SqlDialect } from '../dialects/sql-dialect.js';
import type { SqliteDatabase } from '../sqlite/open-sqlite.js';
import type { SqlCommand, SqlResult, SqlWork } from './sql-steps.js';
import type { Row } from './sql-values.js';

/**
 * Runs the SQL of the record store on one database. SQLite runs synchronously on better-sqlite3:
 * a transaction holds no await (better-sqlite3 transactions are synchronous), and statements are
 * prepared once and reused. SQL Server runs through Kysely (tedious and tarn) asynchronously.
 */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  /** a read outside any transaction */
  read(commands: SqlCommand[]): Promise<Row[][]>;
  /** one transaction; `commit(result)` false rolls it back and still answers the result */
  transact<T>(work: SqlWork<T>, commit: (result: T) => boolean): Promise<T>;
}

/** Receives every query compiled for another dialect alongside (the SQL Server check of the tests). */
export type ShadowCompiler = { dialect: SqlDialect; sink: (query: CompiledQuery) => void };

/** How many prepared statements a SQLite runner keeps. */
export const STATEMENT_CACHE_SIZE = 500;

const sameParams = (a: readonly unknown[], b: readonly unknown[] | undefined): boolean =>
  b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

export class Rollback<T> {
  constructor(readonly result: T) {}
}

/** SQLite text and parameters of commands; keyed commands are compiled once (see SqlCommand.key). */
export class SqliteCompiler {
  private readonly texts = new Map<string, string>();

  constructor(
    readonly dialect: SqlDialect,
    private readonly shadow?: ShadowCompiler,
  ) {}

  compile(command: SqlCommand): { sql: string; params: unknown[] } {
    if (this.shadow) this.shadow.sink(command.build(this.shadow.dialect).compile());
    let text = command.key === undefined ? undefined : this.texts.get(command.key);
    let params = command.params as unknown[];
    if (text === undefined) {
      const q = command.build(this.dialect).compile();
      text = q.sql;
      params = q.parameters as unknown[];
      // Reused only when the command's own parameters are exactly what Kysely compiled.
      if (command.key !== undefined && sameParams(params, command.params)) {
        if (this.texts.size >= STATEMENT_CACHE_SIZE) this.texts.clear();
        this.texts.set(command.key, text);
      }
    }
    return { sql: text, params };
  }

  /** how many keyed texts are kept (tests) */
  get keyedTexts(): number {
    return this.texts.size;
  }
}

export class SqliteRunner implements SqlRunner {
  readonly dialect: SqlDialect;
  private readonly statements = new Map<string, Statement>();
  private readonly compiler: SqliteCompiler;

  constructor(
    private readonly raw: SqliteDatabase,
    shadow?: ShadowCompiler,
  ) {
    this.dialect = sqliteDialect(raw);
    this.compiler = new SqliteCompiler(this.dialect, shadow);
  }

  /** how many keyed texts are kept (tests) */
  get keyedTexts(): number {
    return this.compiler.keyedTexts;
  }

  private prepare(text: string): Statement {
    let st = this.statements.get(text);
    if (st) return st;
    st = this.raw.prepare(text);
    if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value as string);
    this.statements.set(text, st);
    return st;
  }

  /** Compiles and runs one command now. */
  exec(command: SqlCommand): SqlResult {
    const { sql: text, params } = this.compiler.compile(command);
    const st = this.prepare(text);
    if (st.reader) return { rows: st.all(...params) as Row[], changes: 0 };
    return { rows: [], changes: st.run(...params).changes };
  }

  private drive<T>(work: SqlWork<T>): T {
    let next = work.next();
    while (!next.done) next = work.next(this.exec(next.value));
    return next.value;
  }

  async read(commands: SqlCommand[]): Promise<Row[][]> {
    return this.readNow(commands);
  }

  /** Reads in one implicit snapshot: SQLite's deferred transaction keeps page and count consistent. */
  readNow(commands: SqlCommand[]): Row[][] {
    if (commands.length === 1) return [this.exec(commands[0]).rows];
    return this.raw.transaction(() => commands.map((c) => this.exec(c).rows))();
  }

  async transact<T>(work: SqlWork<T>, commit: (result: T) => boolean): Promise<T> {
    return this.transactNow(work, commit);
  }

  transactNow<T>(work: SqlWork<T>, commit: (result: T) => boolean): T {
    const tx = this.raw.transaction(() => {
      const result = this.drive(work);
      if (!commit(result)) throw new Rollback(result);
      return result;
    });
    try {
      return tx.immediate();
    } catch (e) {
      if (e instanceof Rollback) return e.result as T;
      throw e;
    }
  }
}

/**
 * A runner of the server databases through Kysely (SQL Server, PostgreSQL): asynchronous, each
 * transaction on one pooled connection, commands compiled for the dialect as they come.
 */
export class KyselyRunner implements SqlRunner {
  constructor(
    readonly dialect: SqlDialect,
    /** compiles each command for another dialect too (the SQL Server check of the tests) */
    private readonly shadow?: ShadowCompiler,
  ) {}

  private compile(c: SqlCommand, d: SqlDialect): CompiledQuery {
    if (this.shadow) this.shadow.sink(c.build(this.shadow.dialect).compile());
    return c.build(d).compile();
  }

  async read(commands: SqlCommand[]): Promise<Row[][]> {
    const out: Row[][] = [];
    for (const c of commands) out.push((await this.dialect.db.executeQuery(this.compile(c, this.dialect))).rows as Row[]);
    return out;
  }

  async transact<T>(work: SqlWork<T>, commit: (result: T) => boolean): Promise<T> {
    try {
      return await this.dialect.db.transaction().execute(async (trx) => {
        const d: SqlDialect = { kind: this.dialect.kind, db: trx };
        let next = work.next();
        while (!next.done) {
          const r = await trx.executeQuery(this.compile(next.value, d));
          next = work.next({ rows: r.rows as Row[], changes: Number(r.numAffectedRows ?? 0n) });
        }
        if (!commit(next.value)) throw new Rollback(next.value);
        return next.value;
      });
    } catch (e) {
      if (e instanceof Rollback) return e.result as T;
      throw e;
    }
  }
}

/** SQL Server through tedious and tarn. */
export class MssqlRunner extends KyselyRunner {}

/**
 * PostgreSQL through `pg` (issue 25): a transaction holds one client of the pool to its end. With
 * `schema` (one schema per organization, docs/postgres.md) one pool serves every organization:
 * each transaction names its organization's schema with SET LOCAL, which ends with the transaction,
 * so a pooled connection never carries one organization's search_path into another's work. A read
 * of a page and its count runs in one REPEATABLE READ snapshot, so both see the same rows.
 */
export class PostgresRunner implements SqlRunner {
  private readonly inner: KyselyRunner;

  constructor(
    readonly dialect: SqlDialect,
    private readonly shadow?: ShadowCompiler,
    private readonly schema?: string,
  ) {
    if (schema !== undefined && !isPostgresSchemaName(schema)) throw new Error(`not a plain schema name: ${schema}`);
    this.inner = new KyselyRunner(dialect, shadow);
  }

  private async inSchema(db: Kysely<any>): Promise<void> {
    if (this.schema !== undefined) await sql`SELECT set_config('search_path', ${this.schema}, true)`.execute(db);
  }

  async read(commands: SqlCommand[]): Promise<Row[][]> {
    if (this.schema === undefined && commands.length === 1) return this.inner.read(commands);
    // BEGIN and the schema in one round trip (a simple query of two statements: no parameters).
    const begin = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY${this.schema === undefined ? '' : `; SET LOCAL search_path TO ${this.schema}`}`;
    return this.dialect.db.connection().execute(async (conn) => {
      await sql.raw(begin).execute(conn);
      try {
        const out: Row[][] = [];
        for (const c of commands) {
          if (this.shadow) this.shadow.sink(c.build(this.shadow.dialect).compile());
          // Built with the runner's own dialect (a query builder only): the store keeps what it
          // built per dialect object and decodes with the same, so the plan is compiled once.
          out.push((await conn.executeQuery(c.build(this.dialect).compile())).rows as Row[]);
        }
        await sql.raw('COMMIT').execute(conn);
        return out;
      } catch (e) {
        await sql.raw('ROLLBACK').execute(conn);
        throw e;
      }
    });
  }

  async transact<T>(work: SqlWork<T>, commit: (result: T) => boolean): Promise<T> {
    if (this.schema === undefined) return this.inner.transact(work, commit);
    try {
      return await this.dialect.db.transaction().execute(async (trx) => {
        await this.inSchema(trx);
        const d: SqlDialect = { kind: 'postgres', db: trx };
        let next = work.next();
        while (!next.done) {
          const c = next.value;
          if (this.shadow) this.shadow.sink(c.build(this.shadow.dialect).compile());
          const r = await trx.executeQuery(c.build(d).compile());
          next = work.next({ rows: r.rows as Row[], changes: Number(r.numAffectedRows ?? 0n) });
        }
        if (!commit(next.value)) throw new Rollback(next.value);
        return next.value;
      });
    } catch (e) {
      if (e instanceof Rollback) return e.result as T;
      throw e;
    }
  }
}
