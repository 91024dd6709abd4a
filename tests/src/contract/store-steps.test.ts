import { afterEach, describe, expect, it } from 'vitest';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import pkg from 'node-sql-parser';
import {
  incremented,
  incrementedWhere,
  inputError,
  selectRows,
  systemCaller,
  updatedWhere,
  type DomainError,
  type Entity,
  type Steps,
  type StoredRecord,
  type WriteRule,
  type WrittenRecord,
} from '@tessera/core/internal';
import { lookup, STORES, type StoreUnderTest } from './record-store-fixture.js';

/**
 * The storage steps write rules use (record-writes.ts StoreStep: select, increment, a conditional
 * update), on every store, inside the transaction of a write: a rule reads rows by equality,
 * takes a number, claims a row, and all of it commits or rolls back with the write.
 */
const { Parser } = pkg;
const sys = systemCaller();
const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`expected a value, got ${e.left.code}: ${e.left.message}`);
  return e.right;
};
const entity = (name: string): Entity => lookup(name) as Entity;
const A = (n: number): string => `a0000000-0000-4000-8000-00000000000${n}`;
const C1 = 'c0000000-0000-4000-8000-000000000001';

/** The probe: what the next memo create runs inside its transaction, and what it answered. */
type Probe = (written: WrittenRecord) => Steps<Either<DomainError, unknown>>;
let probe: Probe | null = null;
let answers: unknown[] = [];
const probeRule: WriteRule = {
  name: 'probe',
  *afterWrite(_ctx, _caller, written) {
    if (!probe || written.entity.logicalName !== 'memo' || written.operation !== 'create') return right(null);
    const r = yield* probe(written);
    if (isLeft(r)) return r;
    answers.push(r.right);
    return right(null);
  },
};

/** Runs `p` inside the transaction of a memo create; answers what it answered (or the write's error). */
const inWrite = async <T>(s: StoreUnderTest, p: () => Steps<Either<DomainError, T>>): Promise<Either<DomainError, T>> => {
  probe = p as unknown as Probe;
  answers = [];
  const r = await s.store.create(sys, 'memo', { name: 'probe' });
  probe = null;
  return isLeft(r) ? r : right(answers[0] as T);
};
const names = (rows: StoredRecord[]): unknown[] => rows.map((r) => r.name);

describe.each(STORES)('write-rule steps: $name', (factory) => {
  let s: StoreUnderTest;
  afterEach(() => s?.close());

  const seed = async () => {
    s = await factory.make([probeRule]);
    ok(await s.store.create(sys, 'contact', { id: C1, name: 'Jana' }));
    ok(await s.store.create(sys, 'account', { id: A(1), name: 'Acme', employees: 10, active: true, primarycontactid: { id: C1, name: 'contact' } }));
    ok(await s.store.create(sys, 'account', { id: A(2), name: 'Beta', employees: 3, active: false, description: 'second' }));
    ok(await s.store.create(sys, 'account', { id: A(3), name: 'Gamma', active: true, primarycontactid: { id: C1, name: 'contact' } }));
  };

  it('select answers the stored rows whose fields equal the values (boolean, number, a lookup by its id, null as empty)', async () => {
    await seed();
    const account = entity('account');
    const r = ok(
      await inWrite(s, function* () {
        return right({
          active: names(yield* selectRows(account, { active: true })),
          inactive: names(yield* selectRows(account, { active: false, employees: 3 })),
          contact: names(yield* selectRows(account, { primarycontactid: C1 })),
          // An id as SQL Server answers it (capitals) finds the same rows.
          contactUpper: names(yield* selectRows(account, { primarycontactid: C1.toUpperCase() })),
          empty: names(yield* selectRows(account, { description: null })),
          none: names(yield* selectRows(account, { name: 'Nobody' })),
          all: (yield* selectRows(account, {})).length,
        });
      }),
    );
    expect(r).toEqual({
      active: ['Acme', 'Gamma'],
      inactive: ['Beta'],
      contact: ['Acme', 'Gamma'],
      contactUpper: ['Acme', 'Gamma'],
      empty: ['Acme', 'Gamma'],
      none: [],
      all: 3,
    });
  });

  it('select orders by a field ascending (empty first) and stops at the limit; rows come in stored form', async () => {
    await seed();
    const account = entity('account');
    const r = ok(
      await inWrite(s, function* () {
        const byEmployees = yield* selectRows(account, {}, { orderBy: 'employees' });
        const first = yield* selectRows(account, {}, { orderBy: 'name', limit: 1 });
        return right({ byEmployees: names(byEmployees), first: first[0] });
      }),
    );
    expect(r.byEmployees).toEqual(['Gamma', 'Beta', 'Acme']);
    expect(r.first).toMatchObject({ id: A(1), name: 'Acme', employees: 10, active: true, primarycontactid: { id: C1, name: 'contact' } });
  });

  it('select sees the rows the same transaction wrote before it', async () => {
    await seed();
    const r = ok(
      await inWrite(s, function* () {
        return right(names(yield* selectRows(entity('memo'), { name: 'probe' })));
      }),
    );
    expect(r).toEqual(['probe']);
  });

  it('increment answers the new value (an empty field counts as 0), bumps the versionnumber, and answers null for no row', async () => {
    await seed();
    const account = entity('account');
    const before = ok(await s.store.retrieveById(sys, 'account', A(1))).versionnumber;
    const r = ok(
      await inWrite(s, function* () {
        return right([yield* incremented(account, A(1), 'employees'), yield* incremented(account, A(1), 'employees', 5), yield* incremented(account, A(3), 'employees'), yield* incremented(account, A(9), 'employees')]);
      }),
    );
    expect(r).toEqual([11, 16, 1, null]);
    const after = ok(await s.store.retrieveById(sys, 'account', A(1)));
    expect(after.employees).toBe(16);
    // A form still holding the old version cannot write the number back.
    expect(after.versionnumber).not.toBe(before);
    const stale = await s.store.update(sys, 'account', { id: A(1), versionnumber: before, employees: 10 });
    expect(isLeft(stale) && stale.left.code).toBe('ERR_8001');
  });

  it('incrementWhere adds to every row matching (a list is IN), answers how many, and rolls back with the write', async () => {
    await seed();
    const account = entity('account');
    const r = ok(
      await inWrite(s, function* () {
        const n = yield* incrementedWhere(account, { active: true, name: ['Acme', 'Gamma', 'Nobody'] }, 'employees');
        const none = yield* incrementedWhere(account, { name: [] }, 'employees');
        const rows = yield* selectRows(account, { name: ['Acme', 'Gamma'] });
        return right({ n, rows: rows.map((x) => [x.name, x.employees]), none });
      }),
    );
    expect(r).toEqual({ n: 2, rows: [['Acme', 11], ['Gamma', 1]], none: 0 });
    const failed = await inWrite(s, function* () {
      yield* incrementedWhere(account, { name: 'Acme' }, 'employees', 5);
      return left(inputError('no'));
    });
    expect(isLeft(failed)).toBe(true);
    expect(ok(await s.store.retrieveById(sys, 'account', A(1))).employees).toBe(11);
  });

  it('increment with round keeps money exact: 0.1 + 0.2 is 0.3 on every store', async () => {
    await seed();
    const account = entity('account');
    const r = ok(
      await inWrite(s, function* () {
        yield* incremented(account, A(1), 'revenue', 0.1, 2);
        return right(yield* incremented(account, A(1), 'revenue', 0.2, 2));
      }),
    );
    expect(r).toBe(0.3);
    expect(ok(await s.store.retrieveById(sys, 'account', A(1))).revenue).toBe(0.3);
  });

  it('a write whose rule fails rolls back what its steps did (increment and conditional update)', async () => {
    await seed();
    const account = entity('account');
    const r = await inWrite(s, function* () {
      yield* incremented(account, A(1), 'employees');
      yield* updatedWhere(account, A(2), { description: 'changed' }, { description: 'second' });
      return left(inputError('refused by the rule'));
    });
    expect(isLeft(r) && r.left.message).toBe('refused by the rule');
    expect(ok(await s.store.retrieveById(sys, 'account', A(1))).employees).toBe(10);
    expect(ok(await s.store.retrieveById(sys, 'account', A(2))).description).toBe('second');
    const memos = ok(await s.store.retrieveMultiple(sys, { entity: { name: 'memo', attributes: [{ attribute: 'name' }] } }));
    expect(memos.records).toEqual([]);
  });

  it('a conditional update changes the row only while its fields still equal the values (claim once)', async () => {
    await seed();
    const account = entity('account');
    const r = ok(
      await inWrite(s, function* () {
        const first = yield* updatedWhere(account, A(2), { description: 'claimed' }, { description: 'second', active: false });
        const again = yield* updatedWhere(account, A(2), { description: 'claimed twice' }, { description: 'second' });
        const onEmpty = yield* updatedWhere(account, A(1), { description: 'was empty' }, { description: null });
        return right([first, again, onEmpty]);
      }),
    );
    expect(r).toEqual([1, 0, 1]);
    expect(ok(await s.store.retrieveById(sys, 'account', A(2))).description).toBe('claimed');
    expect(ok(await s.store.retrieveById(sys, 'account', A(1))).description).toBe('was empty');
  });

  it('concurrent writes that increment one counter each get their own value: no duplicates, no gaps', async () => {
    await seed();
    const account = entity('account');
    answers = [];
    probe = function* () {
      return right(yield* incremented(account, A(3), 'employees'));
    };
    const written = await Promise.all(Array.from({ length: 20 }, (_, i) => s.store.create(sys, 'memo', { name: `m${i}` })));
    probe = null;
    expect(written.every((t) => !isLeft(t))).toBe(true);
    expect([...answers].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(ok(await s.store.retrieveById(sys, 'account', A(3))).employees).toBe(20);
  });

  it('the steps compile to T-SQL that parses (SELECT ... WHERE, TOP, UPDATE ... OUTPUT inserted)', async () => {
    await seed();
    const account = entity('account');
    s.mssql.length = 0;
    ok(
      await inWrite(s, function* () {
        yield* selectRows(account, { active: true, description: null, primarycontactid: C1 }, { orderBy: 'name', limit: 2 });
        yield* incremented(account, A(1), 'employees');
        yield* incremented(account, A(1), 'revenue', 0.5, 2);
        yield* updatedWhere(account, A(2), { description: 'x' }, { description: 'second' });
        yield* incrementedWhere(account, { active: true, name: ['Acme', 'Gamma'] }, 'employees');
        return right(null);
      }),
    );
    if (factory.name === 'InMemoryRecordStore') return;
    const texts = s.mssql.map((q) => q.sql);
    expect(texts.some((t) => /select top/i.test(t))).toBe(true);
    expect(texts.some((t) => /output "inserted"\."employees"/i.test(t))).toBe(true);
    expect(texts.some((t) => /^update "account" set "employees" = COALESCE.* where .* in \(/i.test(t))).toBe(true);
    const parser = new Parser();
    for (const q of s.mssql) {
      const text = q.sql.replace(/@(\d+)/g, (_, n: string) => {
        const v = q.parameters[Number(n) - 1];
        return typeof v === 'number' ? String(v) : v === null ? 'NULL' : `N'${String(v).replace(/'/g, "''")}'`;
      });
      // node-sql-parser does not know T-SQL's OUTPUT clause: the rest of the statement must parse.
      expect(() => parser.astify(text.replace(/ output .*? where /i, ' where '), { database: 'TransactSQL' }), text).not.toThrow();
    }
  });
});
