import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import { migrateSchema, systemCaller, type Entity, type WriteItem } from '@tessera/core/internal';
import { openSqlite } from '../sqlite/open-sqlite.js';
import { sqliteKysely } from '../sqlite/org-database.js';
import { sqliteDdl } from '../schema/sqlite-ddl.js';
import { KyselySchemaStore } from '../schema/kysely-schema-store.js';
import { KyselyRecordStore } from './kysely-record-store.js';
import { SqliteRunner } from './sql-runner.js';

const clock = { now: () => new Date(Date.UTC(2026, 10, 21)) };
let n = 0;
const ids = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
const thing: Entity = {
  logicalName: 'thing',
  displayName: 'Thing',
  displayNamePlural: 'Things',
  properties: [
    { logicalName: 'qty', displayName: 'Quantity', type: 'Integer' },
    { logicalName: 'done', displayName: 'Done', type: 'Boolean' },
  ],
};

const migrate = async (raw: ReturnType<typeof openSqlite>, entities: Entity[]): Promise<Entity[]> => {
  const r = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, clock), entities);
  if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  return (r.right.applied as unknown as { entities: Entity[] }).entities;
};
const statementTexts = (runner: SqliteRunner): number => runner.keyedTexts;

describe('issue 5 section 3: bulk writes on SQLite reuse one statement per entity and written fields', () => {
  it('records of the same fields share one INSERT, also when the metadata lookup answers new entity objects each time', async () => {
    const raw = openSqlite(':memory:');
    const applied = await migrate(raw, [thing]);
    const runner = new SqliteRunner(raw);
    const store = new KyselyRecordStore(runner, (name) => structuredClone(applied.find((e) => e.logicalName === name)), clock, ids);
    const items: WriteItem[] = Array.from({ length: 50 }, (_, i) => ({ operation: 'create', name: 'thing', object: { name: `t${i}`, qty: i, done: i % 2 === 0 } }));
    const r = await store.executeMultiple(systemCaller(), items, { atomic: true });
    expect(isRight(r) && r.right.every((x) => 'id' in x)).toBe(true);
    expect(statementTexts(runner)).toBe(1);
    // Another set of fields is another statement; the values land in their own columns.
    await store.executeMultiple(systemCaller(), [{ operation: 'create', name: 'thing', object: { name: 'only a name' } }], { atomic: true });
    expect(statementTexts(runner)).toBe(2);
    expect(raw.prepare('SELECT name, qty, done FROM thing ORDER BY qty LIMIT 3').all()).toEqual([
      { name: 'only a name', qty: null, done: null },
      { name: 't0', qty: 0, done: 1 },
      { name: 't1', qty: 1, done: 0 },
    ]);
    raw.close();
  });

  it('a changed entity writes its new columns: statements of the old one are not reused', async () => {
    const raw = openSqlite(':memory:');
    let applied = await migrate(raw, [thing]);
    const runner = new SqliteRunner(raw);
    const store = new KyselyRecordStore(runner, (name) => applied.find((e) => e.logicalName === name), clock, ids);
    const created = await store.create(systemCaller(), 'thing', { name: 'before', qty: 1 });
    expect(isRight(created)).toBe(true);
    applied = await migrate(raw, [{ ...thing, properties: [...thing.properties, { logicalName: 'city', displayName: 'City', type: 'String' }] }]);
    const again = await store.create(systemCaller(), 'thing', { name: 'after', qty: 2, city: 'Wien' });
    expect(isRight(again)).toBe(true);
    const read = isRight(again) ? await store.retrieveById(systemCaller(), 'thing', again.right) : undefined;
    expect(read !== undefined && isRight(read) && read.right.city).toBe('Wien');
    raw.close();
  });
});
