import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSchema, systemCaller, type FetchRequest } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner } from '@tessera/adapters-sql';
import { ENTITIES, lookup, sequentialIds, steppingClock } from './record-store-fixture.js';

const CAP = 5;
const SYS = systemCaller();

describe('counts stop at the count cap (issue 22 item 1: counts beyond the cap answer the cap and countIsCapped)', () => {
  let dir: string;
  let raw: ReturnType<typeof openSqlite>;
  let store: KyselyRecordStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-cap-'));
    raw = openSqlite(join(dir, 'org.sqlite'));
    const applied = await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, steppingClock()), ENTITIES);
    if (applied._tag === 'Left') throw new Error(JSON.stringify(applied.left));
    store = new KyselyRecordStore(new SqliteRunner(raw), lookup, steppingClock(), sequentialIds(), undefined, CAP);
    for (let i = 0; i < CAP + 3; i++) await store.create(SYS, 'account', { name: `a${i}`, revenue: i });
  });
  afterAll(() => {
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fetch = async (r: FetchRequest) => {
    const x = await store.retrieveMultiple(SYS, r);
    if (x._tag === 'Left') throw new Error(x.left.message);
    return x.right;
  };

  it('a count beyond the cap answers the cap and countIsCapped: true; paging still tells moreRecords', async () => {
    const r = await fetch({ entity: { name: 'account' }, pageSize: 2, count: true });
    expect([r.count, r.countIsCapped, r.moreRecords]).toEqual([CAP, true, true]);
    const last = await fetch({ entity: { name: 'account' }, page: 4, pageSize: 2, count: true });
    expect([last.records.length, last.moreRecords]).toEqual([2, false]);
  });

  it('a count up to the cap is exact and carries no countIsCapped (the answer is unchanged for clients)', async () => {
    const r = await fetch({ entity: { name: 'account', filter: { conditions: [{ attribute: 'revenue', operator: 'lt', value: CAP }] } }, count: true });
    expect(r.count).toBe(CAP);
    expect('countIsCapped' in r).toBe(false);
  });

  it('distinct and aggregate counts stop at the cap too', async () => {
    const d = await fetch({ entity: { name: 'account', distinct: true, attributes: [{ attribute: 'name' }] }, count: true });
    expect([d.count, d.countIsCapped]).toEqual([CAP, true]);
    const g = await fetch({ entity: { name: 'account', attributes: [{ attribute: 'name', groupBy: true }, { attribute: 'revenue', aggregate: 'sum', alias: 's' }] }, count: true });
    expect([g.count, g.countIsCapped]).toEqual([CAP, true]);
  });
});
