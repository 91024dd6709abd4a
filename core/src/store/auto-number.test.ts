import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { AUTO_NUMBER_ENTITY, formatAutoNumber } from './auto-number.js';
import { InMemoryRecordStore } from './in-memory-record-store.js';

/** Issue 16 "Auto numbers": inu_autonumber (entity, field, prefix, next number, digits, format). */
const sys = systemCaller();
const NOW = new Date('2026-11-25T01:30:00Z');
const all = builtInPacks().flatMap((p) => p.entities);
const byName = new Map(all.map((e) => [e.logicalName, e]));
const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`${e.left.code}: ${e.left.message}`);
  return e.right;
};
const storeOf = () => {
  let n = 0;
  return new InMemoryRecordStore((name) => byName.get(name), { now: () => NOW }, { newId: () => `f0000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
};
const config = (store: InMemoryRecordStore, object: EntityRecord) => store.create(sys, AUTO_NUMBER_ENTITY, { name: 'n', ...object });
const account = async (store: InMemoryRecordStore, object: EntityRecord = {}): Promise<unknown> => {
  const id = ok(await store.create(sys, 'account', { name: 'Acme', ...object }));
  return ok(await store.retrieveById(sys, 'account', id)).accountnumber;
};
const nextOf = (store: InMemoryRecordStore) => store.rows(AUTO_NUMBER_ENTITY)[0].nextnumber;

describe('formatAutoNumber', () => {
  it('is the prefix and the number padded to its digits by default (ACC- and 5 digits: ACC-00001)', () => {
    expect(formatAutoNumber({ prefix: 'ACC-', digits: 5, format: '' }, 1, NOW)).toBe('ACC-00001');
    expect(formatAutoNumber({ prefix: '', digits: 0, format: '' }, 42, NOW)).toBe('42');
    // A number longer than its digits is kept whole.
    expect(formatAutoNumber({ prefix: 'X', digits: 2, format: '' }, 1234, NOW)).toBe('X1234');
  });

  it('fills the placeholders of a format: {prefix} {number} {yyyy} {yy} {mm} {dd} (UTC); others stay as typed', () => {
    expect(formatAutoNumber({ prefix: 'INV', digits: 4, format: '{prefix}/{yyyy}/{number}' }, 7, NOW)).toBe('INV/2026/0007');
    expect(formatAutoNumber({ prefix: '', digits: 3, format: '{yy}{mm}{dd}-{number} {other}' }, 5, NOW)).toBe('261125-005 {other}');
  });

  it('property: the number is always the last digits of the default text, and the text grows with it', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.integer({ min: 0, max: 12 }), (n, digits) => {
        const t = formatAutoNumber({ prefix: 'P-', digits, format: '' }, n, NOW);
        expect(t.startsWith('P-')).toBe(true);
        expect(Number(t.slice(2))).toBe(n);
        expect(t.length).toBe(2 + Math.max(digits, String(n).length));
      }),
    );
  });
});

describe('the auto-number rule in every create', () => {
  it('a create that leaves the field empty gets the next number, and the row moves on', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'ACC-', nextnumber: 7, digits: 5 }));
    expect(await account(store)).toBe('ACC-00007');
    expect(await account(store)).toBe('ACC-00008');
    expect(nextOf(store)).toBe(9);
  });

  it('a value the caller gives is kept and takes no number; an entity without a row is not numbered', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'ACC-', nextnumber: 1, digits: 5 }));
    expect(await account(store, { accountnumber: 'MY-1' })).toBe('MY-1');
    expect(nextOf(store)).toBe(1);
    const contact = ok(await store.create(sys, 'contact', { firstname: 'Jana', lastname: 'Nováková' }));
    expect(isRight(await store.retrieveById(sys, 'contact', contact))).toBe(true);
  });

  it('numbering never goes back on delete', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'A', nextnumber: 1, digits: 3 }));
    const id = ok(await store.create(sys, 'account', { name: 'One' }));
    ok(await store.delete(sys, 'account', { id }));
    expect(await account(store)).toBe('A002');
  });

  it('undo-delete brings a record back with its own number and takes none', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'A', nextnumber: 1, digits: 3 }));
    const id = ok(await store.create(sys, 'account', { name: 'One' }));
    ok(await store.delete(sys, 'account', { id }));
    ok(await store.restore(sys, 'account', id));
    expect(ok(await store.retrieveById(sys, 'account', id)).accountnumber).toBe('A001');
    expect(nextOf(store)).toBe(2);
  });

  it('a change to inu_autonumber counts from the next create on (no cache to wait for)', async () => {
    const store = storeOf();
    const row = ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'ACC-', nextnumber: 1, digits: 5 }));
    expect(await account(store)).toBe('ACC-00001');
    ok(await store.update(sys, AUTO_NUMBER_ENTITY, { id: row, prefix: 'K', digits: 2, nextnumber: 50, format: '{prefix}{yyyy}-{number}' }));
    expect(await account(store)).toBe('K2026-50');
    ok(await store.delete(sys, AUTO_NUMBER_ENTITY, { id: row }));
    expect(await account(store)).toBeNull();
  });

  it('a create that fails takes no number (no gaps), in a batch too', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'N', nextnumber: 1, digits: 1 }));
    // An unknown field fails the create before its insert; an atomic batch rolls all back.
    const batch = ok(
      await store.executeMultiple(sys, [
        { operation: 'create', name: 'account', object: { name: 'a' } },
        { operation: 'create', name: 'account', object: { name: 'b', nosuchfield: 1 } },
      ], { atomic: true }),
    );
    expect(batch.every((r) => 'error' in r)).toBe(true);
    expect(nextOf(store)).toBe(1);
    const answers = ok(await store.executeMultiple(sys, [1, 2, 3].map((i) => ({ operation: 'create' as const, name: 'account', object: { name: `x${i}` } }))));
    const numbers = await Promise.all(answers.map(async (a) => ('id' in a ? ok(await store.retrieveById(sys, 'account', a.id!)).accountnumber : null)));
    expect(numbers).toEqual(['N1', 'N2', 'N3']);
  });

  it('an empty next number starts at 1; a name typed with capitals or spaces still names the entity and field', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: ' Account', fieldname: 'AccountNumber ', prefix: 'C', nextnumber: null, digits: 2 }));
    expect(await account(store)).toBe('C01');
    expect(await account(store)).toBe('C02');
  });

  it('a number longer than the field allows refuses the create with a message naming the field', async () => {
    const store = storeOf();
    ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'A-VERY-LONG-PREFIX-', nextnumber: 1, digits: 5 }));
    const r = await store.create(sys, 'account', { name: 'Acme' });
    expect(isLeft(r) && r.left.message).toContain('account.accountnumber');
    expect(nextOf(store)).toBe(1);
  });
  it('a batch reads its rows once and advances each once: a hand-set next number in the batch wins from there on', async () => {
    const store = storeOf();
    const row = ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: 'N', nextnumber: 1, digits: 1 }));
    const answers = ok(
      await store.executeMultiple(sys, [
        { operation: 'create', name: 'account', object: { name: 'a' } },
        { operation: 'create', name: 'account', object: { name: 'b' } },
        { operation: 'update', name: AUTO_NUMBER_ENTITY, object: { id: row, nextnumber: 40 } },
        { operation: 'create', name: 'account', object: { name: 'c' } },
        { operation: 'create', name: 'account', object: { name: 'd', accountnumber: 'mine' } },
        { operation: 'create', name: 'account', object: { name: 'e' } },
      ], { atomic: true }),
    );
    const created = answers.flatMap((a) => ('id' in a && a.id && a.id !== row ? [a.id] : []));
    const numbers = await Promise.all(created.map(async (id) => ok(await store.retrieveById(sys, 'account', id)).accountnumber));
    expect(numbers).toEqual(['N1', 'N2', 'N40', 'mine', 'N41']);
    expect(nextOf(store)).toBe(42);
  });

  it('property: any mix of single creates and atomic batches (some failing) numbers 1..k once each, and the row says k+1', async () => {
    const write = fc.record({ batch: fc.boolean(), fails: fc.boolean(), size: fc.integer({ min: 1, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 8 }), async (writes) => {
        const store = storeOf();
        ok(await config(store, { objectname: 'account', fieldname: 'accountnumber', prefix: '', nextnumber: 1, digits: 1 }));
        let expected = 0;
        for (const w of writes) {
          const items = Array.from({ length: w.size }, (_, i) => ({
            operation: 'create' as const,
            name: 'account',
            object: w.fails && i === w.size - 1 ? { name: 'bad', nosuchfield: 1 } : { name: `r${i}` },
          }));
          await store.executeMultiple(sys, items, { atomic: w.batch });
          expected += w.fails ? (w.batch ? 0 : w.size - 1) : w.size;
        }
        const taken = store.rows('account').map((r) => Number(r.accountnumber)).sort((a, b) => a - b);
        expect(taken).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
        expect(nextOf(store)).toBe(expected + 1);
      }),
      { numRuns: 60 },
    );
  });
});
