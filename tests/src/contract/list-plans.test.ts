import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  demoPack,
  migrateSchema,
  replaceFilterPlaceholders,
  systemCaller,
  systemClock,
  systemPack,
  withViewIndexHints,
  FIELD_TYPES,
  type Entity,
  type EntityQuery,
} from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, openSqlite, sqliteDdl, sqliteKysely, SqliteRunner, type SqliteDatabase } from '@tessera/adapters-sql';

/**
 * Issue 24: the plan of each demo list query. Every list view of the demo that sorts by a field of
 * its own entity and has no links (the indexed shapes) is run as the list runs it (page 1 of 50,
 * with the count) on an organization schema made from the packs with their view indexes, and
 * SQLite's EXPLAIN QUERY PLAN must show the page found through an index: no full scan of the
 * table and no temporary sort of its rows for the ORDER BY.
 */
type View = { name: string; objectname: string; query: EntityQuery };

let db: SqliteDatabase;
let lookup: (name: string) => Entity | undefined;
const views: View[] = [];
const user = randomUUID();

beforeAll(async () => {
  const packs = [systemPack(), demoPack()];
  const entities = withViewIndexHints(packs.flatMap((p) => p.entities), packs.flatMap((p) => p.views ?? []));
  db = openSqlite(':memory:');
  const migrated = await migrateSchema(new KyselySchemaStore(sqliteKysely(db), sqliteDdl, systemClock), entities);
  if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
  const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
  lookup = (name) => applied.find((e) => e.logicalName === name);
  for (const p of packs)
    for (const v of p.views ?? []) {
      const body = v.body as { query?: EntityQuery; viewMode?: string; allowedModes?: string[] };
      if (v.kind !== 'view' || !v.objectname || !body.query) continue;
      if ((body.viewMode ?? 'list') !== 'list' && !(body.allowedModes ?? []).includes('list')) continue;
      views.push({ name: v.name, objectname: v.objectname, query: body.query });
    }
});
afterAll(() => db?.close());

/** The indexed shapes: sorted by a field of the entity's own that is not a lookup (a lookup sorts by its label), no links. */
const indexedShape = (v: View): boolean => {
  const order = v.query.orders?.[0];
  const e = lookup(v.objectname);
  const p = e?.properties.find((x) => x.logicalName === order?.attribute);
  return !!order && !order.entityName && (v.query.links ?? []).length === 0 && !!p && FIELD_TYPES[p.type].stored !== 'lookup';
};

const planOf = async (v: View): Promise<string[]> => {
  const lines: string[] = [];
  const probe = new SqliteRunner(db);
  const exec = probe.exec.bind(probe);
  probe.exec = (c) => {
    const q = c.build(probe.dialect).compile();
    for (const r of db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>) lines.push(r.detail);
    return exec(c);
  };
  const filter = v.query.filter ? replaceFilterPlaceholders(v.query.filter, { userid: user, businessunitid: user, teamid: user }) : undefined;
  const r = await new KyselyRecordStore(probe, lookup, systemClock, { newId: () => randomUUID() }).retrieveMultiple(systemCaller(user), {
    entity: { ...v.query, ...(filter ? { filter } : {}) },
    page: 1,
    pageSize: 50,
    count: true,
  });
  if (r._tag === 'Left') throw new Error(`${v.name}: ${r.left.message}`);
  return lines;
};

describe('the plan of each demo list query uses an index (issue 24)', () => {
  it('there are demo list views of the indexed shapes', () => {
    expect(views.filter(indexedShape).length).toBeGreaterThanOrEqual(8);
  });

  it('no indexed demo list scans its table or sorts its rows in a temporary b-tree', async () => {
    const bad: string[] = [];
    for (const v of views.filter(indexedShape)) {
      const plan = await planOf(v);
      // "SCAN t0" without an index is a full scan; a temp b-tree "FOR ORDER BY" sorts every matching
      // row (the outer join's own sort of the 50 rows of the page is named after it and allowed).
      const scans = plan.filter((l) => /^SCAN t0$/.test(l));
      const firstSort = plan.findIndex((l) => l === 'USE TEMP B-TREE FOR ORDER BY');
      // An in-list is found value by value; its rows are then merged into the order by a sort.
      const inList = (v.query.filter?.conditions ?? []).some((c) => c.operator === 'in');
      const pageSorted = !inList && firstSort >= 0 && firstSort < plan.findIndex((l) => l === 'SCAN p');
      if (scans.length > 0 || pageSorted) bad.push(`${v.objectname}/${v.name}: ${plan.join('; ')}`);
    }
    expect(bad).toEqual([]);
  });
  it('a demo list with an option-set quick filter on (industry = value) reads its page from the quick-filter index in order', async () => {
    const accounts = views.find((v) => v.objectname === 'account' && v.query.orders?.[0]?.attribute === 'name' && !(v.query.filter?.conditions ?? []).length);
    const base = accounts ?? { name: 'all accounts', objectname: 'account', query: { name: 'account', orders: [{ attribute: 'name' }] } as EntityQuery };
    const filtered: View = { ...base, query: { ...base.query, filter: { type: 'and', conditions: [{ attribute: 'industry', operator: 'eq', value: 3 }] } } };
    const plan = await planOf(filtered);
    expect(plan.some((l) => /SEARCH t0 USING (COVERING )?INDEX \S*industry\S* \(industry=\?\)/i.test(l))).toBe(true);
    const firstSort = plan.findIndex((l) => l === 'USE TEMP B-TREE FOR ORDER BY');
    expect(firstSort < 0 || firstSort > plan.findIndex((l) => l === 'SCAN p')).toBe(true);
  });
});
