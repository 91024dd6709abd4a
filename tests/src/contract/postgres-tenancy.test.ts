import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLeft } from 'fp-ts/lib/Either.js';
import pg from 'pg';
import { sql } from 'kysely';
import { InMemoryChangeFeed, migrateSchema, systemCaller } from '@tessera/core/internal';
import {
  isPostgresSchemaName,
  KyselyRecordStore,
  KyselySchemaStore,
  postgresDatabases,
  postgresDdl,
  postgresDialect,
  postgresOrgSchemaName,
  PostgresRunner,
} from '@tessera/adapters-sql';
import { postgresMissing, startPostgres, type PostgresServer } from '../fixtures/postgres-server.js';
import { ENTITIES, lookup, sequentialIds, steppingClock } from './record-store-fixture.js';

/**
 * One schema per organization behind one shared pool (docs/postgres.md): each transaction names its
 * organization's schema with SET LOCAL, so no organization sees another's rows, and no pooled
 * connection keeps an organization's search_path after its work.
 */
const MISSING = postgresMissing();
let server: PostgresServer | undefined;
let shared: ReturnType<typeof postgresDialect> | undefined;

beforeAll(async () => {
  if (MISSING) return;
  server = await startPostgres();
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE tenants TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  await admin.end();
  for (const schema of ['org_a', 'org_b']) {
    const own = postgresDialect({ connectionString: server.url('tenants'), poolMax: 1, schema });
    await sql.raw(`CREATE SCHEMA ${schema}`).execute(own.db);
    const r = await migrateSchema(new KyselySchemaStore(own.db, postgresDdl, steppingClock()), ENTITIES);
    if (isLeft(r)) throw new Error(JSON.stringify(r.left));
    await own.db.destroy();
  }
  shared = postgresDialect({ connectionString: server.url('tenants'), poolMax: 2 });
}, 60_000);
afterAll(async () => {
  await shared?.db.destroy();
  server?.stop();
});

describe.skipIf(MISSING !== null)('PostgreSQL: one schema per organization behind one pool (issue 25)', () => {
  const storeOf = (schema: string) =>
    new KyselyRecordStore(new PostgresRunner(shared!, undefined, schema), lookup, steppingClock(), sequentialIds(schema === 'org_a' ? 'a' : 'b'), new InMemoryChangeFeed());
  const sys = systemCaller();

  it('writes and reads of two organizations on the same pooled connections never meet', async () => {
    const a = storeOf('org_a');
    const b = storeOf('org_b');
    // Interleaved on a pool of two connections: each connection serves both organizations in turn.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).create(sys, 'team', { name: `${i % 2 === 0 ? 'A' : 'B'} team ${i}` })),
    );
    const names = async (s: KyselyRecordStore) => {
      const r = await s.retrieveMultiple(sys, { entity: { name: 'team', attributes: [{ attribute: 'name' }], orders: [{ attribute: 'name' }] }, count: true });
      if (isLeft(r)) throw new Error(r.left.message);
      return { count: r.right.count, names: r.right.records.map((x) => String(x.name)) };
    };
    const [ra, rb] = await Promise.all([names(a), names(b)]);
    expect(ra.count).toBe(10);
    expect(ra.names.every((n) => n.startsWith('A '))).toBe(true);
    expect(rb.count).toBe(10);
    expect(rb.names.every((n) => n.startsWith('B '))).toBe(true);
  });

  it('a pooled connection keeps no organization search_path after its work', async () => {
    await storeOf('org_a').create(sys, 'team', { name: 'After' });
    const paths = await Promise.all([1, 2].map(() => sql<{ p: string }>`SELECT current_setting('search_path') AS p`.execute(shared!.db)));
    for (const p of paths) expect(p.rows[0].p).not.toMatch(/org_/);
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresRunner(shared!, undefined, 'org_a; DROP TABLE x')).toThrow(/not a plain schema name/);
  });

  it('OrganizationDatabases on PostgreSQL: create makes the schema and its tables, connect answers its store and applied metadata', async () => {
    const databases = postgresDatabases(server!.url('tenants'), steppingClock(), sequentialIds('c'));
    try {
      await databases.create('acme-corp', ENTITIES);
      const c = databases.connect('acme-corp');
      try {
        expect(c.ddl.name).toBe('postgres');
        expect((await new KyselySchemaStore(c.db, c.ddl, steppingClock()).readApplied())?.version).toBe(1);
        const store = c.store(lookup, new InMemoryChangeFeed());
        const id = await store.create(sys, 'team', { name: 'Acme team' });
        expect(isLeft(id)).toBe(false);
        const found = await sql<{ n: string }>`SELECT COUNT(*) AS n FROM o_acme_corp.team`.execute(shared!.db);
        expect(Number(found.rows[0].n)).toBe(1);
      } finally {
        await c.db.destroy();
      }
    } finally {
      await databases.close?.();
    }
  });

  it('names each organization a plain schema of at most 63 bytes, different for different names', () => {
    expect(postgresOrgSchemaName('acme-corp')).toBe('o_acme_corp');
    expect(postgresOrgSchemaName('2024')).toBe('o_2024');
    const long = 'a'.repeat(62) + 'b';
    const other = 'a'.repeat(62) + 'c';
    for (const n of [long, other]) expect(postgresOrgSchemaName(n).length).toBeLessThanOrEqual(63);
    expect(postgresOrgSchemaName(long)).not.toBe(postgresOrgSchemaName(other));
    for (const n of ['acme-corp', '2024', long]) expect(isPostgresSchemaName(postgresOrgSchemaName(n))).toBe(true);
  });
});
