// PostgreSQL list page benchmark (issue 25): 100k records of the record-store bench's entity in an
// organization's schema on a real PostgreSQL (Debian's server, started here in a temp folder), made
// by the schema generator. The list page query through KyselyRecordStore on PostgresRunner (a filter
// on an indexed lookup, name like 'abc%', order by createdon descending, page 21 of 50, with count
// and the lookup label) against the same SQL written by hand on `pg` (the same pool) in the same run.
// Goal: the store reaches 85% of hand SQL. EXPLAIN=1 prints both sides' plans and the table's indexes.
// Run: node --import tsx tests/bench/postgres-list-bench.ts
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import { migrateSchema, systemCaller, systemClock, auditEntity, type Entity, type FetchRequest, type Property } from '@tessera/core/internal';
import { KyselyRecordStore, KyselySchemaStore, postgresDdl, postgresDialect, PostgresRunner } from '@tessera/adapters-sql';
import { postgresMissing, startPostgres } from '../src/fixtures/postgres-server.js';

const RECORDS = 100_000;
const SECONDS = 2;

const missing = postgresMissing();
if (missing) {
  console.log(`# ${missing}`);
  process.exit(0);
}

const declared: Property[] = [
  { logicalName: 'code', displayName: 'Code', type: 'String', max: 50 },
  { logicalName: 'categoryid', displayName: 'Category', type: 'Lookup', targets: ['category'] },
  { logicalName: 'amount', displayName: 'Amount', type: 'Money' },
  { logicalName: 'quantity', displayName: 'Quantity', type: 'Integer' },
  { logicalName: 'ratio', displayName: 'Ratio', type: 'Float' },
  { logicalName: 'price', displayName: 'Price', type: 'Decimal' },
  { logicalName: 'due', displayName: 'Due', type: 'DateTime' },
  { logicalName: 'done', displayName: 'Done', type: 'Boolean' },
  { logicalName: 'notes', displayName: 'Notes', type: 'String', flags: ['MultiLine'] },
  { logicalName: 'city', displayName: 'City', type: 'String', max: 100 },
  { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
  { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
];
const item: Entity = { logicalName: 'item', displayName: 'Item', displayNamePlural: 'Items', properties: declared };
const category: Entity = { logicalName: 'category', displayName: 'Category', displayNamePlural: 'Categories', properties: [] };
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] };
const team: Entity = { logicalName: 'team', displayName: 'Team', displayNamePlural: 'Teams', properties: [] };

const server = await startPostgres();
try {
  server.createDatabase('bench');
  const schema = 'org_bench';
  const own = postgresDialect({ connectionString: server.url('bench'), poolMax: 1, schema });
  await sql.raw(`CREATE SCHEMA ${schema}`).execute(own.db);
  const migrated = await migrateSchema(new KyselySchemaStore(own.db, postgresDdl, systemClock), [systemuser, team, category, item, auditEntity]);
  if (migrated._tag === 'Left') throw new Error(JSON.stringify(migrated.left));
  const applied = (migrated.right.applied as unknown as { entities: Entity[] }).entities;
  const lookup = (name: string): Entity | undefined => applied.find((e) => e.logicalName === name);

  // Data as the SQLite bench's: 10 categories, 100k items, a fifth named abc... in mixed case.
  const user = randomUUID();
  const categories = Array.from({ length: 10 }, () => randomUUID());
  await sql`INSERT INTO systemuser (id, name, versionnumber) VALUES (${user}, 'Bench User', 1)`.execute(own.db);
  for (const [i, c] of categories.entries()) await sql`INSERT INTO category (id, name, versionnumber) VALUES (${c}, ${`Category ${i}`}, 1)`.execute(own.db);
  await sql`INSERT INTO item (id, name, code, categoryid, "categoryidTarget", amount, quantity, ratio, price, due, done, notes, city,
      ownerid, "owneridTarget", createdon, createdby, "createdbyTarget", modifiedon, modifiedby, "modifiedbyTarget", statuscode, statecode, versionnumber)
    SELECT gen_random_uuid(), (ARRAY['abc','ABC','Abc','xyz','def','ghi','jkl','mno','pqr','stu'])[(i / 10) % 10 + 1] || ' item ' || i, 'C-' || i,
      (${categories}::uuid[])[i % 10 + 1], 'category', i % 1000, i % 50, (i % 10) / 10.0, i / 3.0, ts, i % 2 = 1, 'some notes', 'Bratislava',
      ${user}, 'systemuser', ts, ${user}, 'systemuser', ts, ${user}, 'systemuser', 1, 0, 1
    FROM generate_series(0, ${RECORDS - 1}) AS i, LATERAL (SELECT timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute' AS ts) AS t`.execute(own.db);
  await sql`ANALYZE`.execute(own.db);
  await own.db.destroy();

  const shared = postgresDialect({ connectionString: server.url('bench'), poolMax: 4 });
  const store = new KyselyRecordStore(new PostgresRunner(shared, undefined, schema), lookup, systemClock, { newId: () => randomUUID() });
  const sys = systemCaller(user);
  const target = categories[3];
  const request: FetchRequest = {
    entity: {
      name: 'item',
      attributes: ['name', 'code', 'amount', 'due', 'createdon', 'categoryid'].map((attribute) => ({ attribute })),
      filter: {
        conditions: [
          { attribute: 'categoryid', operator: 'eq', value: target },
          { attribute: 'name', operator: 'like', value: 'abc%' },
        ],
      },
      orders: [{ attribute: 'createdon', descending: true }],
    },
    page: 21,
    pageSize: 50,
    count: true,
  };

  // The same work by hand on the same pool: the schema named, page and count, the label from one join.
  const pageSql = `SELECT i.id, i.name, i.code, i.amount, i.due, i.createdon, i.categoryid, i."categoryidTarget", c.name AS label
    FROM ${schema}.item i LEFT JOIN ${schema}.category c ON c.id = i.categoryid
    WHERE i.categoryid = $1 AND lower(i.name) LIKE $2
    ORDER BY i.createdon DESC, i.id LIMIT 51 OFFSET 1000`;
  const countSql = `SELECT COUNT(*) AS n FROM ${schema}.item i WHERE i.categoryid = $1 AND lower(i.name) LIKE $2`;
  // One pooled client, page then count: the store's work without its snapshot and schema naming.
  const hand = async (): Promise<{ records: unknown[]; count: number }> => {
    const client = await shared.pool.connect();
    let page: pg.QueryResult;
    let count: pg.QueryResult;
    try {
      page = await client.query(pageSql, [target, 'abc%']);
      count = await client.query(countSql, [target, 'abc%']);
    } finally {
      client.release();
    }
    return {
      records: page.rows.slice(0, 50).map((r) => ({ ...r, amount: Number(r.amount), categoryid: { id: r.categoryid, name: r.categoryidTarget, label: r.label } })),
      count: Number(count.rows[0].n),
    };
  };

  const check = await store.retrieveMultiple(sys, request);
  if (check._tag === 'Left') throw new Error(check.left.message);
  const h = await hand();
  if (check.right.count !== h.count || check.right.records.length !== h.records.length || h.records.length !== 50) {
    throw new Error(`store and hand SQL disagree: ${check.right.count}/${check.right.records.length} vs ${h.count}/${h.records.length}`);
  }

  /** Queries per second of two runs measured in alternating slices, so that load on the machine hits both alike. */
  const rates = async (a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> => {
    for (let i = 0; i < 20; i++) {
      await a();
      await b();
    }
    const n = [0, 0];
    const ms = [0, 0];
    for (let round = 0; round < SECONDS * 4; round++) {
      for (const [k, run] of [a, b].entries()) {
        const start = performance.now();
        while (performance.now() - start < 125) {
          await run();
          n[k]++;
        }
        ms[k] += performance.now() - start;
      }
    }
    return [(n[0] * 1000) / ms[0], (n[1] * 1000) / ms[1]];
  };
  const line = (name: string, value: number, unit: string, goal: string, ok: boolean): void =>
    console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);

  if (process.env.EXPLAIN) {
    for (const q of [pageSql, countSql]) console.log((await shared.pool.query(`EXPLAIN ANALYZE ${q}`, [target, 'abc%'])).rows.map((r) => r['QUERY PLAN']).join('\n'));
    const idx = await shared.pool.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = '${schema}' AND tablename = 'item'`);
    console.log(idx.rows.map((r) => r.indexdef).join('\n'));
    const seen: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const probe = new KyselyRecordStore(new PostgresRunner(shared, { dialect: shared, sink: (q) => seen.push(q) }, schema), lookup, systemClock, { newId: () => randomUUID() });
    await probe.retrieveMultiple(sys, request);
    for (const q of seen) {
      const c = await shared.pool.connect();
      await c.query(`SET search_path = ${schema}`);
      console.log(q.sql);
      console.log((await c.query(`EXPLAIN ANALYZE ${q.sql}`, q.parameters as unknown[])).rows.map((r) => r['QUERY PLAN']).join('\n'));
      await c.query('RESET search_path');
      c.release();
    }
  }
  {
    const snap = async () => {
      const client = await shared.pool.connect();
      try {
        await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL search_path TO ${schema}`);
        await client.query(pageSql, [target, 'abc%']);
        await client.query(countSql, [target, 'abc%']);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    const [snapQps, s3] = await rates(snap, () => store.retrieveMultiple(sys, request));
    console.log(`# hand SQL in the store's snapshot: ${snapQps.toFixed(0)} queries/s; the store ${s3.toFixed(0)} (${(s3 / snapQps).toFixed(2)}x)`);
  }
  // For the record: hand SQL sending page and count at once on two pooled clients (no shared snapshot).
  const parallel = async () => Promise.all([shared.pool.query(pageSql, [target, 'abc%']), shared.pool.query(countSql, [target, 'abc%'])]);
  const [parallelQps, storeQps2] = await rates(parallel, () => store.retrieveMultiple(sys, request));
  console.log(`# hand SQL page and count in parallel on two clients: ${parallelQps.toFixed(0)} queries/s; the store ${storeQps2.toFixed(0)} (${(storeQps2 / parallelQps).toFixed(2)}x)`);
  const [handQps, storeQps] = await rates(hand, () => store.retrieveMultiple(sys, request));
  line('postgres page query hand SQL on pg', handQps, 'queries/s', 'baseline', true);
  line('postgres page query KyselyRecordStore', storeQps, 'queries/s', '>= 85% of hand SQL', storeQps >= 0.85 * handQps);
  line('postgres page query ratio', storeQps / handQps, 'x hand SQL', '0.85', storeQps / handQps >= 0.85);
  await shared.db.destroy();
} finally {
  server.stop();
}
