import pkg from 'node-sql-parser';
import {
  Kysely,
  MssqlAdapter,
  MssqlIntrospector,
  MssqlQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateSchema, withSystemFields, type Entity, type Property } from '@tessera/core/internal';
import { KyselySchemaStore } from './kysely-schema-store.js';
import { mssqlDdl } from './mssql-ddl.js';

/**
 * The SQL Server apply path without a server: the same KyselySchemaStore over Kysely's SQL Server
 * adapter and compiler, with a driver that records what it is asked to run and answers from the
 * test. Every statement is parsed as T-SQL (see mssql-ddl.test.ts for the rowversion synonym).
 */
const parser = new pkg.Parser();
const parse = (statement: string) => parser.astify(statement.replace(/\browversion\b/g, 'timestamp'), { database: 'TransactSQL' });

class RecordingDriver implements Driver {
  readonly log: string[] = [];
  constructor(private readonly answer: (sql: string) => unknown[]) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(q: { sql: string }): Promise<QueryResult<R>> => {
        this.log.push(q.sql);
        return { rows: this.answer(q.sql) as R[] };
      },
      // eslint-disable-next-line require-yield
      streamQuery: async function* () {
        throw new Error('not used');
      },
    };
  }
  async beginTransaction(): Promise<void> {
    this.log.push('BEGIN TRANSACTION');
  }
  async commitTransaction(): Promise<void> {
    this.log.push('COMMIT TRANSACTION');
  }
  async rollbackTransaction(): Promise<void> {
    this.log.push('ROLLBACK TRANSACTION');
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

const recordingMssql = (answer: (sql: string) => unknown[]) => {
  const driver = new RecordingDriver(answer);
  const db = new Kysely<any>({
    dialect: {
      createAdapter: () => new MssqlAdapter(),
      createDriver: () => driver,
      createQueryCompiler: () => new MssqlQueryCompiler(),
      createIntrospector: (k) => new MssqlIntrospector(k),
    },
  });
  return { driver, store: new KyselySchemaStore(db, mssqlDdl, { now: () => new Date('2026-05-01T00:00:00Z') }) };
};

const entity = (logicalName: string, properties: Property[]): Entity => ({ logicalName, displayName: logicalName, displayNamePlural: logicalName, properties });
const v1 = [entity('account', [{ logicalName: 'score', displayName: 's', type: 'Integer' }]), entity('lead', [])];
const appliedRow = (entities: Entity[]) => ({
  version: 1,
  appliedon: new Date('2026-04-01T00:00:00Z'),
  metadata: JSON.stringify(entities.map((e) => (withSystemFields(e) as { right: Entity }).right)),
});

describe('SchemaStore on SQL Server (compiled and recorded, parsed as T-SQL)', () => {
  it('applies a plan in one transaction: metadata table, version check, every step, the new version, commit', async () => {
    const { driver, store } = recordingMssql(() => []);
    const r = await migrateSchema(store, v1);
    expect(r).toMatchObject({ _tag: 'Right', right: { applied: { version: 1, appliedOn: '2026-05-01T00:00:00.000Z' } } });
    const inTransaction = driver.log.slice(driver.log.indexOf('BEGIN TRANSACTION'));
    expect(inTransaction[1]).toMatch(/^IF OBJECT_ID\(N'tessera_metadata', N'U'\) IS NULL CREATE TABLE \[tessera_metadata\]/);
    expect(inTransaction[2]).toMatch(/^SELECT "version", "appliedon", "metadata" FROM "tessera_metadata"/);
    expect(inTransaction.filter((s) => s.startsWith('CREATE TABLE [')).length).toBe(2);
    expect(inTransaction[inTransaction.length - 2]).toMatch(/^INSERT INTO "tessera_metadata" \("version", "appliedon", "metadata"\)\s+VALUES \(@1, @2, @3\)/);
    expect(inTransaction[inTransaction.length - 1]).toBe('COMMIT TRANSACTION');
    for (const s of driver.log) expect(() => parse(s), s).not.toThrow();
  });

  it('a step the server refuses rolls the whole transaction back and names the step', async () => {
    const { driver, store } = recordingMssql((sql) => {
      if (sql.startsWith('CREATE TABLE [lead]')) throw new Error("There is already an object named 'lead' in the database.");
      return [];
    });
    const r = await migrateSchema(store, v1);
    expect(r).toMatchObject({
      _tag: 'Left',
      left: { _tag: 'StepFailed', step: { kind: 'createTable' }, message: "There is already an object named 'lead' in the database." },
    });
    expect(driver.log[driver.log.length - 1]).toBe('ROLLBACK TRANSACTION');
    expect(driver.log).not.toContain('COMMIT TRANSACTION');
    expect(driver.log.some((s) => s.startsWith('INSERT INTO "tessera_metadata"'))).toBe(false);
  });

  it('counts the rows at risk with T-SQL and refuses a lossy plan before any transaction', async () => {
    const { driver, store } = recordingMssql((sql) => {
      if (sql.startsWith('SELECT "version"')) return [appliedRow(v1)];
      if (sql.startsWith('SELECT COUNT(*)')) return [{ n: sql.includes('[score]') ? 4 : 2 }];
      return [];
    });
    const r = await migrateSchema(store, [entity('account', [])]);
    expect(r._tag === 'Left' && r.left._tag === 'DataLossRefused' ? r.left.atRisk.map((x) => [x.step.kind, x.rows]) : null).toEqual([
      ['dropColumn', 4],
      ['dropTable', 2],
    ]);
    expect(driver.log).not.toContain('BEGIN TRANSACTION');
    for (const s of driver.log) expect(() => parse(s), s).not.toThrow();
  });
});
