import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { CompiledQuery } from 'kysely';
import pkg from 'node-sql-parser';
import {
  AUDIT_CREATE,
  AUDIT_DELETE,
  AUDIT_UPDATE,
  MAX_BATCH_SIZE,
  QUERY_LIMITS,
  systemCaller,
  type Change,
  type DomainError,
  type EntityRecord,
  type FetchRequest,
  type FetchResult,
  type Link,
} from '@tessera/core/internal';
import { STORES, userCaller, userId, type StoreUnderTest } from './record-store-fixture.js';

const { Parser } = pkg;
const sys = systemCaller();

const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`expected a value, got ${e.left.code}: ${e.left.message}`);
  return e.right;
};
const err = <T>(e: Either<DomainError, T>): DomainError => {
  if (!isLeft(e)) throw new Error(`expected an error, got ${JSON.stringify(e.right).slice(0, 200)}`);
  return e.left;
};

const EVA = userId(1);
const ADAM = userId(2);
const TEAM = '7ea70000-0000-4000-8000-000000000001';
const C1 = 'c0000000-0000-4000-8000-000000000001';
const C2 = 'c0000000-0000-4000-8000-000000000002';
const A = (n: number): string => `a0000000-0000-4000-8000-00000000000${n}`;
const user = (id: string) => ({ id, name: 'systemuser' });

/** Five accounts, two contacts, two users, one team: the data every read test looks at. */
const seed = async (s: StoreUnderTest): Promise<void> => {
  const store = s.store;
  ok(await store.create(sys, 'systemuser', { id: EVA, name: 'Eva', emailaddress: 'eva@example.com', passwordhash: 'secret-hash' }));
  ok(await store.create(sys, 'systemuser', { id: ADAM, name: 'Adam', emailaddress: 'adam@example.com' }));
  ok(await store.create(sys, 'team', { id: TEAM, name: 'Sales' }));
  ok(await store.create(sys, 'contact', { id: C1, name: 'Jana', emailaddress: 'jana@example.com', ownerid: user(EVA) }));
  ok(await store.create(sys, 'contact', { id: C2, name: 'Peter', emailaddress: 'peter@example.com', ownerid: user(ADAM) }));
  const accounts: EntityRecord[] = [
    { id: A(1), name: 'Acme', revenue: 1000, employees: 10, industry: 1, active: true, founded: '2024-01-15T10:00:00Z', renewal: '2025-01-31', ownerid: user(EVA), primarycontactid: { id: C1, name: 'contact' }, teamid: { id: TEAM, name: 'team' } },
    { id: A(2), name: 'acme labs', revenue: 2500, employees: 25, industry: 2, active: false, founded: '2024-02-20T08:00:00Z', ownerid: user(ADAM), primarycontactid: { id: C2, name: 'contact' } },
    { id: A(3), name: 'Beta', revenue: 500, industry: 1, active: true, founded: '2024-04-01T12:00:00Z', ownerid: user(ADAM), teamid: { id: TEAM, name: 'team' } },
    { id: A(4), name: '50% off_[sale]\\', ownerid: user(EVA) },
    { id: A(5), name: 'Gamma', revenue: 3000, employees: 5, industry: 3, active: true, founded: '2023-12-31T23:30:00Z', ownerid: user(EVA), primarycontactid: { id: C1, name: 'contact' } },
  ];
  for (const a of accounts) ok(await store.create(sys, 'account', a));
};

const names = (r: FetchResult): unknown[] => r.records.map((x) => x.name);
const accounts = (filter: FetchRequest['entity']['filter'], extra: Partial<FetchRequest['entity']> = {}): FetchRequest => ({
  entity: { name: 'account', attributes: [{ attribute: 'name' }], filter, orders: [{ attribute: 'name' }], ...extra },
});

/** Every SQL Server query any test compiled, parsed at the end (issue 5: the SQL Server path at compiled-SQL level). */
const mssqlQueries: Array<{ store: string; query: CompiledQuery }> = [];

const literal = (v: unknown): string =>
  v === null || v === undefined
    ? 'NULL'
    : typeof v === 'number' || typeof v === 'bigint'
      ? String(v)
      : Buffer.isBuffer(v)
        ? `0x${v.toString('hex')}`
        : // the parser reads a backslash in a literal as an escape (T-SQL does not): doubled, it reads one
          `N'${String(v).replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;

/** The parser does not take parameters in OFFSET/FETCH: it reads the statement with its values in place. */
const withValues = (q: CompiledQuery): string => q.sql.replace(/@(\d+)/g, (_, n: string) => literal(q.parameters[Number(n) - 1]));

describe.each(STORES)('RecordStore contract: $name', (factory) => {
  let s: StoreUnderTest;
  beforeEach(async () => {
    s = await factory.make();
  });
  afterEach(() => {
    for (const query of s.mssql) mssqlQueries.push({ store: factory.name, query });
    s.close();
  });

  describe('retrieveMultiple: the query object of API.md', () => {
    it('returns the attributes asked for plus the id; allattrs returns every field but never a secret one', async () => {
      await seed(s);
      const some = ok(await s.store.retrieveMultiple(userCaller(9, { account: [0, 3, 0, 0] }), accounts(undefined)));
      expect(Object.keys(some.records[0]).sort()).toEqual(['id', 'name']);
      const users = ok(await s.store.retrieveMultiple(userCaller(9, { systemuser: [0, 3, 0, 0] }), { entity: { name: 'systemuser', allattrs: true } }));
      expect(users.records[0]).toHaveProperty('emailaddress');
      expect(users.records.every((u) => !('passwordhash' in u))).toBe(true);
      const asked = await s.store.retrieveMultiple(userCaller(9, { systemuser: [0, 3, 0, 0] }), {
        entity: { name: 'systemuser', attributes: [{ attribute: 'passwordhash' }] },
      });
      expect(err(asked).message).toBe('Field not found:systemuser.passwordhash');
    });

    it('returns a lookup as { id, name, label } with the label of its target', async () => {
      await seed(s);
      const r = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'account', attributes: [{ attribute: 'ownerid' }, { attribute: 'primarycontactid' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: A(1) }] } } }));
      expect(r.records[0].ownerid).toEqual({ id: EVA, name: 'systemuser', label: 'Eva' });
      expect(r.records[0].primarycontactid).toEqual({ id: C1, name: 'contact', label: 'Jana' });
    });

    it('applies every operator of API.md with SQL semantics (an empty field never matches a comparison)', async () => {
      await seed(s);
      const cases: Array<[FetchRequest['entity']['filter'], string[]]> = [
        [{ conditions: [{ attribute: 'revenue', operator: 'eq', value: 1000 }] }, ['Acme']],
        [{ conditions: [{ attribute: 'revenue', operator: 'ne', value: 1000 }] }, ['Beta', 'Gamma', 'acme labs']],
        [{ conditions: [{ attribute: 'revenue', operator: 'gt', value: 1000 }] }, ['Gamma', 'acme labs']],
        [{ conditions: [{ attribute: 'revenue', operator: 'ge', value: 1000 }] }, ['Acme', 'Gamma', 'acme labs']],
        [{ conditions: [{ attribute: 'revenue', operator: 'lt', value: 1000 }] }, ['Beta']],
        [{ conditions: [{ attribute: 'revenue', operator: 'le', value: 1000 }] }, ['Acme', 'Beta']],
        [{ conditions: [{ attribute: 'name', operator: 'like', value: 'acme%' }] }, ['Acme', 'acme labs']],
        [{ conditions: [{ attribute: 'name', operator: 'not-like', value: 'acme%' }] }, ['50% off_[sale]\\', 'Beta', 'Gamma']],
        [{ conditions: [{ attribute: 'revenue', operator: 'null' }] }, ['50% off_[sale]\\']],
        [{ conditions: [{ attribute: 'employees', operator: 'not-null' }] }, ['Acme', 'Gamma', 'acme labs']],
        [{ conditions: [{ attribute: 'industry', operator: 'in', value: [1, 3] }] }, ['Acme', 'Beta', 'Gamma']],
        [{ conditions: [{ attribute: 'industry', operator: 'not-in', value: [1, 3] }] }, ['acme labs']],
        [{ conditions: [{ attribute: 'active', operator: 'eq', value: false }] }, ['acme labs']],
        [{ conditions: [{ attribute: 'founded', operator: 'lt', value: '2024-01-01T00:00:00+01:00' }] }, []],
        [{ conditions: [{ attribute: 'founded', operator: 'lt', value: '2024-01-01T00:00:00Z' }] }, ['Gamma']],
        [{ conditions: [{ attribute: 'renewal', operator: 'eq', value: '2025-01-31' }] }, ['Acme']],
        [{ conditions: [{ attribute: 'ownerid', operator: 'eq', value: ADAM.toUpperCase() }] }, ['Beta', 'acme labs']],
        // A {{placeholder}} with an empty replacement: eq with no value is the null operator (spec 000 section 7).
        [{ conditions: [{ attribute: 'employees', operator: 'eq', value: null }] }, ['50% off_[sale]\\', 'Beta']],
      ];
      for (const [filter, expected] of cases) {
        const r = ok(await s.store.retrieveMultiple(sys, accounts(filter)));
        expect({ filter, names: names(r) }).toEqual({ filter, names: expected });
      }
    });

    it('nests and / or filters', async () => {
      await seed(s);
      const r = ok(
        await s.store.retrieveMultiple(
          sys,
          accounts({
            type: 'or',
            conditions: [{ attribute: 'name', operator: 'eq', value: 'Beta' }],
            filters: [
              {
                type: 'and',
                conditions: [{ attribute: 'active', operator: 'eq', value: true }],
                filters: [{ type: 'or', conditions: [{ attribute: 'revenue', operator: 'gt', value: 2000 }, { attribute: 'employees', operator: 'eq', value: 10 }] }],
              },
            ],
          }),
        ),
      );
      expect(names(r)).toEqual(['Acme', 'Beta', 'Gamma']);
    });

    it('treats % _ [ and the escape character of like the same way on every store', async () => {
      await seed(s);
      const like = async (value: string) => names(ok(await s.store.retrieveMultiple(sys, accounts({ conditions: [{ attribute: 'name', operator: 'like', value }] }))));
      expect(await like('ACME')).toEqual(['Acme']); // letters match without regard to case
      expect(await like('_eta')).toEqual(['Beta']); // _ is one character
      expect(await like('B_a')).toEqual([]);
      expect(await like('%\\%%')).toEqual(['50% off_[sale]\\']); // \% is a literal percent
      expect(await like('%\\_%')).toEqual(['50% off_[sale]\\']);
      expect(await like('%a%\\_%')).toEqual([]);
      expect(await like('%[sale]%')).toEqual(['50% off_[sale]\\']); // [ is a literal, not a character class
      expect(await like('%[s]%')).toEqual([]);
      expect(await like('%\\\\')).toEqual(['50% off_[sale]\\']); // \\ is a literal backslash
      expect(await like('%\\')).toEqual(['50% off_[sale]\\']); // a trailing escape stands for itself
      const long = await s.store.retrieveMultiple(sys, accounts({ conditions: [{ attribute: 'name', operator: 'like', value: 'x'.repeat(QUERY_LIMITS.maxLikePatternLength + 1) }] }));
      expect(err(long)).toMatchObject({ code: 'ERR_INPUT', message: expect.stringContaining('maxLikePatternLength') });
    });

    it('filters on a linked entity through entityName, and returns link columns as alias.attribute', async () => {
      await seed(s);
      const r = ok(
        await s.store.retrieveMultiple(sys, {
          entity: {
            name: 'account',
            attributes: [{ attribute: 'name' }],
            links: [{ name: 'contact', from: 'primarycontactid', to: 'id', alias: 'pc', type: 'inner', attributes: [{ attribute: 'emailaddress' }] }],
            filter: { conditions: [{ attribute: 'emailaddress', operator: 'like', value: 'jana%', entityName: 'pc' }] },
            orders: [{ attribute: 'name' }],
          },
        }),
      );
      expect(r.records).toEqual([
        { id: A(1), name: 'Acme', 'pc.emailaddress': 'jana@example.com' },
        { id: A(5), name: 'Gamma', 'pc.emailaddress': 'jana@example.com' },
      ]);
    });

    it('drops rows without a match on an inner link and keeps them with empty columns on an outer link', async () => {
      await seed(s);
      const q = (type: 'inner' | 'outer'): FetchRequest => ({
        entity: {
          name: 'account',
          attributes: [{ attribute: 'name' }],
          links: [{ name: 'contact', from: 'primarycontactid', to: 'id', alias: 'pc', type, attributes: [{ attribute: 'name' }] }],
          orders: [{ attribute: 'name' }],
        },
      });
      const inner = ok(await s.store.retrieveMultiple(sys, q('inner')));
      expect(inner.records.map((r) => [r.name, r['pc.name']])).toEqual([['Acme', 'Jana'], ['Gamma', 'Jana'], ['acme labs', 'Peter']]);
      const outer = ok(await s.store.retrieveMultiple(sys, q('outer')));
      expect(outer.records.map((r) => [r.name, r['pc.name']])).toEqual([
        ['50% off_[sale]\\', null], ['Acme', 'Jana'], ['Beta', null], ['Gamma', 'Jana'], ['acme labs', 'Peter'],
      ]);
    });

    it("applies a link's own filter to the linked rows, and orders by link columns", async () => {
      await seed(s);
      const r = ok(
        await s.store.retrieveMultiple(sys, {
          entity: {
            name: 'contact',
            attributes: [{ attribute: 'name' }],
            links: [{ name: 'account', from: 'id', to: 'primarycontactid', alias: 'acc', type: 'inner', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'revenue', operator: 'ge', value: 1000 }] } }],
            orders: [{ attribute: 'revenue', entityName: 'acc', descending: true }],
          },
        }),
      );
      expect(r.records.map((x) => x['acc.name'])).toEqual(['Gamma', 'acme labs', 'Acme']);
    });

    it('returns distinct rows', async () => {
      await seed(s);
      const r = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'account', attributes: [{ attribute: 'industry' }], distinct: true, filter: { conditions: [{ attribute: 'industry', operator: 'not-null' }] }, orders: [{ attribute: 'industry', descending: true }] }, count: true }));
      expect(r.records).toEqual([{ industry: 3 }, { industry: 2 }, { industry: 1 }]);
      expect(r.count).toBe(3);
    });

    it('pages with pageSize 50 by default and at most 5000, counting the whole filtered set', async () => {
      await seed(s);
      const def = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'account' } }));
      expect(def.pageSize).toBe(50);
      const capped = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'account' }, pageSize: 100000 }));
      expect(capped.pageSize).toBe(5000);
      const p2 = ok(await s.store.retrieveMultiple(sys, { ...accounts({ conditions: [{ attribute: 'name', operator: 'ne', value: 'Beta' }] }), page: 2, pageSize: 2, count: true }));
      expect(names(p2)).toEqual(['Gamma', 'acme labs']);
      expect(p2).toMatchObject({ count: 4, page: 2, pageSize: 2, moreRecords: false });
      const p1 = ok(await s.store.retrieveMultiple(sys, { ...accounts(undefined), page: 1, pageSize: 2 }));
      expect(p1).toMatchObject({ count: null, moreRecords: true });
      expect(err(await s.store.retrieveMultiple(sys, { entity: { name: 'account' }, page: 0 })).code).toBe('ERR_INPUT');
    });

    it('aggregates count, countdistinct, min, max, sum and avg by group', async () => {
      await seed(s);
      const r = ok(
        await s.store.retrieveMultiple(sys, {
          entity: {
            name: 'account',
            attributes: [
              { attribute: 'ownerid', groupBy: true },
              { attribute: 'id', aggregate: 'count', alias: 'n' },
              { attribute: 'industry', aggregate: 'countdistinct', alias: 'industries' },
              { attribute: 'revenue', aggregate: 'min', alias: 'least' },
              { attribute: 'revenue', aggregate: 'max', alias: 'most' },
              { attribute: 'revenue', aggregate: 'sum', alias: 'total' },
              { attribute: 'employees', aggregate: 'avg', alias: 'avgEmployees' },
              { attribute: 'founded', aggregate: 'max', alias: 'latest' },
            ],
          },
          count: true,
        }),
      );
      expect(r.count).toBe(2);
      expect(r.records).toEqual([
        { ownerid: { id: ADAM, name: 'systemuser', label: 'Adam' }, n: 2, industries: 2, least: 500, most: 2500, total: 3000, avgEmployees: 25, latest: '2024-04-01T12:00:00.000Z' },
        { ownerid: { id: EVA, name: 'systemuser', label: 'Eva' }, n: 3, industries: 2, least: 1000, most: 3000, total: 4000, avgEmployees: 7.5, latest: '2024-01-15T10:00:00.000Z' },
      ]);
    });

    it('groups dates by year, quarter, month, ISO week (from Monday) and day, in UTC', async () => {
      await seed(s);
      const group = async (groupBy: 'year' | 'quarter' | 'month' | 'week' | 'day') =>
        ok(
          await s.store.retrieveMultiple(sys, {
            entity: { name: 'account', attributes: [{ attribute: 'founded', groupBy, alias: 'g' }, { attribute: 'revenue', aggregate: 'sum', alias: 'total' }], filter: { conditions: [{ attribute: 'founded', operator: 'not-null' }] } },
          }),
        ).records;
      expect(await group('year')).toEqual([{ g: '2023', total: 3000 }, { g: '2024', total: 4000 }]);
      expect(await group('quarter')).toEqual([{ g: '2023-Q4', total: 3000 }, { g: '2024-Q1', total: 3500 }, { g: '2024-Q2', total: 500 }]);
      expect(await group('month')).toEqual([{ g: '2023-12', total: 3000 }, { g: '2024-01', total: 1000 }, { g: '2024-02', total: 2500 }, { g: '2024-04', total: 500 }]);
      // 2023-12-31 is a Sunday: ISO week 52 of 2023. 2024-01-15 is the Monday of week 3.
      expect(await group('week')).toEqual([{ g: '2023-W52', total: 3000 }, { g: '2024-W03', total: 1000 }, { g: '2024-W08', total: 2500 }, { g: '2024-W14', total: 500 }]);
      expect((await group('day')).map((x) => x.g)).toEqual(['2023-12-31', '2024-01-15', '2024-02-20', '2024-04-01']);
      const ordered = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'account', attributes: [{ attribute: 'industry', groupBy: true }, { attribute: 'revenue', aggregate: 'sum', alias: 'total' }], orders: [{ attribute: 'revenue', alias: 'total', descending: true }] } }));
      expect(ordered.records.map((x) => x.industry)).toEqual([3, 2, 1, null]);
    });

    it('checks every name against the metadata before any SQL: unknown ones are ERR_INPUT values', async () => {
      await seed(s);
      const before = s.mssql.length;
      const cases: Array<[FetchRequest, string]> = [
        [{ entity: { name: 'nothing' } }, 'No Object:nothing'],
        [{ entity: { name: 'account', attributes: [{ attribute: 'nope' }] } }, 'Field not found:account.nope'],
        [accounts({ conditions: [{ attribute: 'nope', operator: 'eq', value: 1 }] }), 'Field not found:account.nope'],
        [{ entity: { name: 'account', orders: [{ attribute: 'nope' }] } }, 'Field not found:account.nope'],
        [{ entity: { name: 'account', links: [{ name: 'nothing', from: 'id', to: 'id' }] } }, 'No Object:nothing'],
        [{ entity: { name: 'account', links: [{ name: 'contact', from: 'nope', to: 'id' }] } }, 'Field not found:account.nope'],
        [{ entity: { name: 'account', links: [{ name: 'contact', from: 'primarycontactid', to: 'nope' }] } }, 'Field not found:contact.nope'],
        [accounts({ conditions: [{ attribute: 'name', operator: 'eq', value: 'x', entityName: 'ghost' }] }), 'Unknown link alias: ghost'],
        [accounts({ conditions: [{ attribute: 'revenue', operator: 'eq', value: 'lots' }] }), 'Invalid value for account.revenue: "lots"'],
      ];
      for (const [request, message] of cases) {
        expect(err(await s.store.retrieveMultiple(sys, request))).toEqual({ _tag: 'InputError', code: 'ERR_INPUT', message });
      }
      expect(s.mssql.length).toBe(before); // no statement was built or run
    });

    it('enforces the named limits: link depth, links, conditions, filter nesting', async () => {
      const chain = (depth: number): Link => ({ name: 'account', from: 'id', to: 'id', alias: `l${depth}`, links: depth > 1 ? [chain(depth - 1)] : [] });
      const deep = await s.store.retrieveMultiple(sys, { entity: { name: 'account', links: [chain(QUERY_LIMITS.maxLinkDepth + 1)] } });
      expect(err(deep).message).toContain('maxLinkDepth');
      const many = Array.from({ length: QUERY_LIMITS.maxLinks + 1 }, (_, i): Link => ({ name: 'account', from: 'id', to: 'id', alias: `x${i}` }));
      expect(err(await s.store.retrieveMultiple(sys, { entity: { name: 'account', links: many } })).message).toContain('maxLinks');
      const conditions = Array.from({ length: QUERY_LIMITS.maxConditions + 1 }, () => ({ attribute: 'name', operator: 'eq' as const, value: 'x' }));
      expect(err(await s.store.retrieveMultiple(sys, accounts({ conditions }))).message).toContain('maxConditions');
      let nested: NonNullable<FetchRequest['entity']['filter']> = { conditions: [{ attribute: 'name', operator: 'eq', value: 'x' }] };
      for (let i = 0; i < QUERY_LIMITS.maxFilterDepth; i++) nested = { filters: [nested] };
      expect(err(await s.store.retrieveMultiple(sys, accounts(nested))).message).toContain('maxFilterDepth');
      const inValues = Array.from({ length: QUERY_LIMITS.maxInValues + 1 }, (_, i) => i);
      expect(err(await s.store.retrieveMultiple(sys, accounts({ conditions: [{ attribute: 'employees', operator: 'in', value: inValues }] }))).message).toContain('maxInValues');
      const batch = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => ({ operation: 'create' as const, name: 'account', object: { name: 'x' } }));
      expect(err(await s.store.executeMultiple(sys, batch, { atomic: true }))).toMatchObject({ code: 'ERR_INPUT', message: expect.stringContaining('MAX_BATCH_SIZE') });
    });
  });

  describe('read permission inside the query', () => {
    it("shows an owner-level reader only their rows, and counts and aggregates only those", async () => {
      await seed(s);
      const eva = userCaller(1, { account: [0, 1, 0, 0], contact: [0, 3, 0, 0] });
      const r = ok(await s.store.retrieveMultiple(eva, { ...accounts(undefined), count: true }));
      expect(names(r)).toEqual(['50% off_[sale]\\', 'Acme', 'Gamma']);
      expect(r.count).toBe(3);
      const agg = ok(await s.store.retrieveMultiple(eva, { entity: { name: 'account', attributes: [{ attribute: 'revenue', aggregate: 'sum', alias: 'total' }, { attribute: 'id', aggregate: 'count', alias: 'n' }] } }));
      expect(agg.records).toEqual([{ total: 4000, n: 3 }]);
      const none = ok(await s.store.retrieveMultiple(userCaller(3, {}), { ...accounts(undefined), count: true }));
      expect(none).toMatchObject({ records: [], count: 0 });
    });

    it('lets a business-unit reader see the rows of their teams and their own', async () => {
      await seed(s);
      const adamInSales = userCaller(4, { account: [0, 2, 0, 0] }, [TEAM]);
      expect(names(ok(await s.store.retrieveMultiple(adamInSales, accounts(undefined))))).toEqual(['Acme', 'Beta']);
    });

    it('applies the read permission of a linked entity to its rows', async () => {
      await seed(s);
      // Reads every account, but only the contacts Eva owns.
      const eva = userCaller(1, { account: [0, 3, 0, 0], contact: [0, 1, 0, 0] });
      const link = (type: 'inner' | 'outer'): FetchRequest => ({
        entity: { name: 'account', attributes: [{ attribute: 'name' }], links: [{ name: 'contact', from: 'primarycontactid', to: 'id', alias: 'pc', type, attributes: [{ attribute: 'name' }] }], orders: [{ attribute: 'name' }] },
        count: true,
      });
      const inner = ok(await s.store.retrieveMultiple(eva, link('inner')));
      expect(inner.records.map((r) => r['pc.name'])).toEqual(['Jana', 'Jana']);
      expect(inner.count).toBe(2);
      const outer = ok(await s.store.retrieveMultiple(eva, link('outer')));
      expect(outer.records.find((r) => r.name === 'acme labs')?.['pc.name']).toBeNull();
    });

    it('answers ERR_NOT_FOUND for a record the caller may not read, as for a missing one', async () => {
      await seed(s);
      const eva = userCaller(1, { account: [0, 1, 0, 0] });
      expect(ok(await s.store.retrieveById(eva, 'account', A(1))).name).toBe('Acme');
      expect(err(await s.store.retrieveById(eva, 'account', A(2))).code).toBe('ERR_NOT_FOUND');
      expect(err(await s.store.retrieveById(sys, 'account', 'a0000000-0000-4000-8000-00000000000f')).code).toBe('ERR_NOT_FOUND');
    });
  });

  describe('writes', () => {
    it('sets the system fields on create: createdon/by, modifiedon/by, ownerid defaulting to the caller, versionnumber', async () => {
      await seed(s);
      // Eva reads her own user record (owner level): the owner's label is shown only to who may read it (issue 22 item 6).
      const eva = userCaller(1, { account: [1, 1, 1, 1], systemuser: [0, 1, 0, 0] });
      const id = ok(await s.store.create(eva, 'account', { name: 'New', createdon: '2000-01-01T00:00:00Z', versionnumber: '77' }));
      const r = ok(await s.store.retrieveById(eva, 'account', id));
      expect(r).toMatchObject({ name: 'New', ownerid: { id: EVA, label: 'Eva' }, createdby: { id: EVA }, modifiedby: { id: EVA }, statuscode: 1, statecode: 0 });
      expect(r.createdon).toBe(r.modifiedon);
      expect(r.createdon).not.toBe('2000-01-01T00:00:00.000Z');
      expect(typeof r.versionnumber).toBe('string');
      const given = 'b0000000-0000-4000-8000-0000000000aa';
      expect(ok(await s.store.create(sys, 'account', { id: given.toUpperCase(), name: 'Given' }))).toBe(given);
      expect(err(await s.store.create(sys, 'account', { id: given, name: 'Again' })).code).toBe('ERR_INPUT');
      expect(err(await s.store.create(sys, 'account', { name: 'x', nope: 1 })).message).toBe('Field not found:account.nope');
      expect(err(await s.store.create(sys, 'account', { name: 'x'.repeat(201) })).code).toBe('ERR_INPUT');
    });

    it('decides with the record-level permission: an owner-level user may not change or create for others', async () => {
      await seed(s);
      const eva = userCaller(1, { account: [1, 3, 1, 1] });
      const v = ok(await s.store.retrieveById(sys, 'account', A(2))).versionnumber;
      expect(err(await s.store.update(eva, 'account', { id: A(2), versionnumber: v, name: 'Mine now' }))).toMatchObject({ code: 'ERR_PERMISSION' });
      expect(err(await s.store.delete(eva, 'account', { id: A(2) })).code).toBe('ERR_PERMISSION');
      expect(err(await s.store.create(eva, 'account', { name: 'For Adam', ownerid: user(ADAM) })).code).toBe('ERR_PERMISSION');
      expect(ok(await s.store.update(eva, 'account', { id: A(1), name: 'Acme Ltd' }))).toBe(A(1));
      expect(err(await s.store.create(userCaller(3, {}), 'account', { name: 'x' })).code).toBe('ERR_PERMISSION');
    });

    it('writes only changed fields: an update that changes nothing writes nothing and keeps the version', async () => {
      await seed(s);
      const before = ok(await s.store.retrieveById(sys, 'account', A(1)));
      expect(ok(await s.store.update(sys, 'account', { id: A(1), versionnumber: before.versionnumber, name: 'Acme', revenue: 1000 }))).toBe(A(1));
      expect(ok(await s.store.retrieveById(sys, 'account', A(1)))).toEqual(before);
      ok(await s.store.update(sys, 'account', { id: A(1), versionnumber: before.versionnumber, revenue: 1200 }));
      const after = ok(await s.store.retrieveById(sys, 'account', A(1)));
      expect(after).toEqual({ ...before, revenue: 1200, modifiedon: after.modifiedon, versionnumber: after.versionnumber });
      expect(after.versionnumber).not.toBe(before.versionnumber);
      expect(after.modifiedon).not.toBe(before.modifiedon);
    });

    it('answers ERR_8001 with the modifier for a stale versionnumber, and changes nothing', async () => {
      await seed(s);
      const v1 = ok(await s.store.retrieveById(sys, 'account', A(1))).versionnumber;
      ok(await s.store.update(userCaller(2, { account: [3, 3, 3, 3] }), 'account', { id: A(1), versionnumber: v1, name: 'First' }));
      const stale = err(await s.store.update(sys, 'account', { id: A(1), versionnumber: v1, name: 'Second' }));
      expect(stale).toMatchObject({ code: 'ERR_8001', modifier: 'Adam' });
      expect(err(await s.store.delete(sys, 'account', { id: A(1), versionnumber: v1 })).code).toBe('ERR_8001');
      expect(ok(await s.store.retrieveById(sys, 'account', A(1))).name).toBe('First');
      expect(err(await s.store.update(sys, 'account', { id: 'a0000000-0000-4000-8000-00000000000f', name: 'x' })).code).toBe('ERR_NOT_FOUND');
    });

    it('lets the last writer win on the fields it sends when an update carries no versionnumber', async () => {
      await seed(s);
      const v1 = ok(await s.store.retrieveById(sys, 'account', A(1))).versionnumber;
      ok(await s.store.update(sys, 'account', { id: A(1), versionnumber: v1, name: 'Versioned' }));
      ok(await s.store.update(sys, 'account', { id: A(1), revenue: 9 }));
      const r = ok(await s.store.retrieveById(sys, 'account', A(1)));
      expect(r).toMatchObject({ name: 'Versioned', revenue: 9 });
      expect(r.versionnumber).not.toBe(v1);
    });

    it('keeps the full body of a deleted record in audit, and undo-delete restores it with its original id', async () => {
      await seed(s);
      const before = ok(await s.store.retrieveById(sys, 'account', A(1)));
      expect(ok(await s.store.delete(sys, 'account', { id: A(1), versionnumber: before.versionnumber }))).toBe(A(1));
      expect(err(await s.store.retrieveById(sys, 'account', A(1))).code).toBe('ERR_NOT_FOUND');
      const audit = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'audit', attributes: [{ attribute: 'logicalname' }, { attribute: 'objectid' }, { attribute: 'operation' }, { attribute: 'body' }], filter: { conditions: [{ attribute: 'operation', operator: 'eq', value: AUDIT_DELETE }] } } }));
      expect(audit.records).toHaveLength(1);
      expect(audit.records[0]).toMatchObject({ logicalname: 'account', objectid: A(1), operation: AUDIT_DELETE });
      expect(JSON.parse(String(audit.records[0].body))).toMatchObject({ id: A(1), name: 'Acme', revenue: 1000, founded: '2024-01-15T10:00:00.000Z' });
      expect(ok(await s.store.restore(sys, 'account', A(1)))).toBe(A(1));
      const restored = ok(await s.store.retrieveById(sys, 'account', A(1)));
      expect({ ...restored, versionnumber: null }).toEqual({ ...before, versionnumber: null });
      expect(err(await s.store.restore(sys, 'account', A(1))).code).toBe('ERR_INPUT'); // it exists again
      expect(err(await s.store.restore(sys, 'account', A(3))).code).toBe('ERR_NOT_FOUND'); // never deleted
    });

    it('executeMultiple answers one result per item, in order, with ERR_ texts for the failing ones', async () => {
      await seed(s);
      const r = ok(
        await s.store.executeMultiple(sys, [
          { operation: 'create', name: 'account', object: { name: 'One' } },
          { operation: 'update', name: 'account', object: { id: A(9), name: 'Ghost' } },
          { operation: 'create', name: 'nothing', object: { name: 'x' } },
          { operation: 'delete', name: 'account', object: { id: A(3) } },
        ]),
      );
      expect(r).toHaveLength(4);
      expect(r[0]).toHaveProperty('id');
      expect(r[1]).toEqual({ error: 'ERR_NOT_FOUND: account not found' });
      expect(r[2]).toEqual({ error: 'ERR_INPUT: No Object:nothing' });
      expect(r[3]).toEqual({ id: A(3) });
      expect(names(ok(await s.store.retrieveMultiple(sys, accounts({ conditions: [{ attribute: 'name', operator: 'eq', value: 'One' }] }))))).toEqual(['One']);
    });

    it('executeMultiple with atomic rolls every item back on the first error and names the failing index', async () => {
      await seed(s);
      const changes: Change[] = [];
      s.feed.subscribe((c) => changes.push(c));
      const r = ok(
        await s.store.executeMultiple(
          sys,
          [
            { operation: 'create', name: 'account', object: { name: 'Atomic one' } },
            { operation: 'update', name: 'account', object: { id: A(1), name: 'Atomic change' } },
            { operation: 'delete', name: 'account', object: { id: A(9) } },
            { operation: 'create', name: 'account', object: { name: 'Atomic two' } },
          ],
          { atomic: true },
        ),
      );
      expect(r[2]).toEqual({ error: 'ERR_NOT_FOUND: account not found' });
      for (const i of [0, 1, 3]) expect(r[i]).toEqual({ error: 'ERR_NOT_FOUND: Rolled back: item 2 failed: account not found' });
      const all = ok(await s.store.retrieveMultiple(sys, { ...accounts(undefined), count: true }));
      expect(all.count).toBe(5);
      expect(names(all)).toContain('Acme');
      expect(changes).toEqual([]);
      const fine = ok(await s.store.executeMultiple(sys, [{ operation: 'create', name: 'account', object: { name: 'A1' } }, { operation: 'delete', name: 'account', object: { id: A(3) } }], { atomic: true }));
      expect(fine.every((x) => 'id' in x)).toBe(true);
      expect(changes.map((c) => c.operation)).toEqual(['create', 'delete']);
    });

    it('publishes each committed change to the ChangeFeed (entity, id, operation, stamp), and nothing for a failed write', async () => {
      const changes: Change[] = [];
      s.feed.subscribe((c) => changes.push(c));
      const id = ok(await s.store.create(sys, 'account', { name: 'Fed' }));
      ok(await s.store.update(sys, 'account', { id, name: 'Fed again' }));
      ok(await s.store.update(sys, 'account', { id, name: 'Fed again' })); // nothing changed: no event
      err(await s.store.update(sys, 'account', { id, versionnumber: '999', name: 'stale' }));
      ok(await s.store.delete(sys, 'account', { id }));
      ok(await s.store.restore(sys, 'account', id));
      expect(changes.map((c) => [c.entity, c.id, c.operation])).toEqual([
        ['account', id, 'create'],
        ['account', id, 'update'],
        ['account', id, 'delete'],
        ['account', id, 'restore'],
      ]);
      expect(changes.every((c) => /^\d{4}-\d\d-\d\dT.*Z$/.test(c.stamp))).toBe(true);
    });
  });

  describe('audit: every create, update and delete is an audit row of the same transaction (issue 23 item 6)', () => {
    const auditRows = async (filter?: FetchRequest['entity']['filter']): Promise<FetchResult['records']> =>
      ok(
        await s.store.retrieveMultiple(sys, {
          entity: {
            name: 'audit',
            allattrs: true,
            filter,
            orders: [{ attribute: 'createdon' }],
          },
        }),
      ).records;
    const ofRecord = (id: string) => auditRows({ conditions: [{ attribute: 'objectid', operator: 'eq', value: id }] });
    // Eva may read her own user record: she names herself as the owner (issue 22 item 6).
    const EVA_ACCOUNTS = userCaller(1, { account: [1, 1, 1, 1], audit: [3, 3, 3, 3], systemuser: [0, 1, 0, 0] });

    it('create, update and delete each leave one row with the operation, record id, entity, user and time of the write', async () => {
      await seed(s);
      const id = ok(await s.store.create(EVA_ACCOUNTS, 'account', { name: 'Audited', revenue: 100, ownerid: user(EVA) }));
      const created = ok(await s.store.retrieveById(sys, 'account', id));
      ok(await s.store.update(EVA_ACCOUNTS, 'account', { id, revenue: 250, versionnumber: created.versionnumber }));
      const updated = ok(await s.store.retrieveById(sys, 'account', id));
      ok(await s.store.delete(EVA_ACCOUNTS, 'account', { id }));
      const rows = await ofRecord(id);
      expect(rows.map((r) => r.operation)).toEqual([AUDIT_CREATE, AUDIT_UPDATE, AUDIT_DELETE]);
      for (const r of rows) {
        expect(r).toMatchObject({ logicalname: 'account', objectid: id, name: 'Audited', createdby: { id: EVA, name: 'systemuser' } });
      }
      // The row's time is the write's own: the record's createdon, then its modifiedon.
      expect(rows[0].createdon).toBe(created.createdon);
      expect(rows[1].createdon).toBe(updated.modifiedon);
      expect(JSON.parse(String(rows[0].body))).toMatchObject({ name: { old: null, new: 'Audited' }, revenue: { old: null, new: 100 } });
    });

    it('an update row holds exactly the changed fields with old and new values ({ field: { old, new } })', async () => {
      await seed(s);
      ok(await s.store.update(sys, 'account', { id: A(1), name: 'Acme', revenue: 1200, description: 'Big', primarycontactid: { id: C2, name: 'contact' } }));
      const [row] = (await ofRecord(A(1))).filter((r) => r.operation === AUDIT_UPDATE);
      expect(JSON.parse(String(row.body))).toEqual({
        revenue: { old: 1000, new: 1200 },
        description: { old: null, new: 'Big' },
        primarycontactid: { old: { id: C1, name: 'contact' }, new: { id: C2, name: 'contact' } },
      });
    });

    it('an update that changes nothing, a stale update and a refused write leave no row', async () => {
      await seed(s);
      const before = (await auditRows()).length;
      ok(await s.store.update(sys, 'account', { id: A(1), name: 'Acme' }));
      expect(err(await s.store.update(sys, 'account', { id: A(1), versionnumber: '999', name: 'Stale' })).code).toBe('ERR_8001');
      expect(err(await s.store.update(userCaller(2, { account: [1, 1, 1, 1] }), 'account', { id: A(1), name: 'Not mine' })).code).toBe('ERR_PERMISSION');
      expect(err(await s.store.create(sys, 'account', { id: A(1), name: 'Taken' })).code).toBe('ERR_INPUT');
      expect(err(await s.store.delete(sys, 'account', { id: A(9) })).code).toBe('ERR_NOT_FOUND');
      expect(await auditRows()).toHaveLength(before);
    });

    it('an atomic batch that rolls back leaves no audit rows; one that commits leaves one per item', async () => {
      await seed(s);
      const before = (await auditRows()).length;
      ok(
        await s.store.executeMultiple(
          sys,
          [
            { operation: 'create', name: 'account', object: { name: 'Atomic one' } },
            { operation: 'update', name: 'account', object: { id: A(1), name: 'Atomic change' } },
            { operation: 'delete', name: 'account', object: { id: A(2) } },
            { operation: 'update', name: 'account', object: { id: A(9), name: 'Ghost' } },
          ],
          { atomic: true },
        ),
      );
      expect(await auditRows()).toHaveLength(before);
      ok(
        await s.store.executeMultiple(
          sys,
          [
            { operation: 'create', name: 'account', object: { name: 'Atomic one' } },
            { operation: 'update', name: 'account', object: { id: A(1), name: 'Atomic change' } },
            { operation: 'delete', name: 'account', object: { id: A(2) } },
          ],
          { atomic: true },
        ),
      );
      expect((await auditRows()).slice(before).map((r) => r.operation)).toEqual([AUDIT_CREATE, AUDIT_UPDATE, AUDIT_DELETE]);
    });

    it('audit rows are read-only for everyone: no caller creates or updates one; only the system caller deletes one', async () => {
      await seed(s);
      const [row] = await auditRows();
      const admin = userCaller(1, { audit: [3, 3, 3, 3] });
      for (const who of [sys, admin]) {
        expect(err(await s.store.create(who, 'audit', { name: 'forged', logicalname: 'account', operation: AUDIT_DELETE, body: '{}' })).code).toBe('ERR_PERMISSION');
        expect(err(await s.store.update(who, 'audit', { id: String(row.id), body: '{}' })).code).toBe('ERR_PERMISSION');
        const batch = ok(await s.store.executeMultiple(who, [{ operation: 'update', name: 'audit', object: { id: String(row.id), name: 'x' } }]));
        expect(batch[0]).toHaveProperty('error');
      }
      expect(err(await s.store.delete(admin, 'audit', { id: String(row.id) })).code).toBe('ERR_PERMISSION');
      expect(ok(await s.store.delete(sys, 'audit', { id: String(row.id) }))).toBe(String(row.id));
      // No audit of audit: deleting an audit row wrote no row about it.
      expect((await auditRows({ conditions: [{ attribute: 'logicalname', operator: 'eq', value: 'audit' }] }))).toEqual([]);
    });

    it("an entity with audit: false in its metadata writes no audit rows", async () => {
      const id = ok(await s.store.create(sys, 'memo', { name: 'Scratch' }));
      ok(await s.store.update(sys, 'memo', { id, name: 'Scratch 2' }));
      ok(await s.store.delete(sys, 'memo', { id }));
      expect(await auditRows()).toEqual([]);
    });

    it('undo-delete is kept: it restores from the delete row and is itself a create row', async () => {
      await seed(s);
      ok(await s.store.update(sys, 'account', { id: A(3), name: 'Beta 2' }));
      ok(await s.store.delete(sys, 'account', { id: A(3) }));
      expect(ok(await s.store.restore(sys, 'account', A(3)))).toBe(A(3));
      expect(ok(await s.store.retrieveById(sys, 'account', A(3)))).toMatchObject({ name: 'Beta 2' });
      expect((await ofRecord(A(3))).map((r) => r.operation)).toEqual([AUDIT_CREATE, AUDIT_UPDATE, AUDIT_DELETE, AUDIT_CREATE]);
    });
  });

  describe('concurrency', () => {
    it('50 parallel increments of one field, each retrying on ERR_8001, end at exactly 50', async () => {
      const id = ok(await s.store.create(sys, 'account', { name: 'Counter', employees: 0 }));
      const increment = async (): Promise<number> => {
        for (let attempt = 1; ; attempt++) {
          const r = ok(await s.store.retrieveById(sys, 'account', id));
          await new Promise((res) => setImmediate(res)); // let the others read the same version
          const u = await s.store.update(sys, 'account', { id, versionnumber: r.versionnumber, employees: Number(r.employees) + 1 });
          if (!isLeft(u)) return attempt;
          expect(u.left.code).toBe('ERR_8001');
        }
      };
      const attempts = await Promise.all(Array.from({ length: 50 }, increment));
      expect(ok(await s.store.retrieveById(sys, 'account', id)).employees).toBe(50);
      expect(Math.max(...attempts)).toBeGreaterThan(1); // the writers really collided
    });

    it('two writers on one version: exactly one wins', async () => {
      const id = ok(await s.store.create(sys, 'account', { name: 'Contested' }));
      const v = ok(await s.store.retrieveById(sys, 'account', id)).versionnumber;
      const results = await Promise.all([
        s.store.update(sys, 'account', { id, versionnumber: v, name: 'Writer A' }),
        s.store.update(sys, 'account', { id, versionnumber: v, name: 'Writer B' }),
      ]);
      expect(results.filter((r) => !isLeft(r))).toHaveLength(1);
      expect(results.filter((r) => isLeft(r) && r.left.code === 'ERR_8001')).toHaveLength(1);
    });
  });
});

describe('SQL Server at the compiled-SQL level', () => {
  afterAll(() => {
    mssqlQueries.length = 0;
  });
  it('every query the engine built for SQL Server in this suite parses as T-SQL (node-sql-parser TransactSQL)', () => {
    const parser = new Parser();
    expect(mssqlQueries.length).toBeGreaterThan(500);
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const { query } of mssqlQueries) {
      if (seen.has(query.sql)) continue;
      seen.add(query.sql);
      try {
        parser.astify(withValues(query), { database: 'TransactSQL' });
      } catch (e) {
        failures.push(`${query.sql}\n  ${(e as Error).message.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(seen.size).toBeGreaterThan(50);
  });
});
