import { describe, expect, it } from 'vitest';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import { builtInPacks, demoPack } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { demoRecordSet, generateDemoRecords, type DemoOwner } from './demo-records.js';
import { demoAutoNumbers } from './demo-auto-numbers.js';

/**
 * Issue 16: the demo's account and invoice numbers are numbered: the demo organization gets
 * inu_autonumber rows that go on from its records' numbers. Issue 19: its invoices' totals are
 * their lines' sums as the store's line-item rule keeps them.
 */
const OWNERS: DemoOwner[] = [{ userId: 'a0000000-0000-4000-8000-000000000001' }];
const NOW = new Date('2026-11-24T19:30:00Z');
const sys = systemCaller();
const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`${e.left.code}: ${e.left.message}`);
  return e.right;
};

describe('demo auto numbers and invoice totals', () => {
  it('one row per numbered field, its next number after the highest demo number', () => {
    const set = demoRecordSet(demoPack().entities, OWNERS, { now: NOW });
    const rows = demoAutoNumbers(demoPack().entities, set);
    const count = (entity: string) => set.find((x) => x.entity === entity)!.records.length;
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: 'account.accountnumber', objectname: 'account', fieldname: 'accountnumber', prefix: 'ACC-', digits: 5, nextnumber: count('account') + 1 },
        { name: 'invoice.invoicenumber', objectname: 'invoice', fieldname: 'invoicenumber', prefix: 'INV-', digits: 5, nextnumber: count('invoice') + 1 },
      ]),
    );
  });

  it('written through the store: the next account and invoice take the next numbers; invoice totals are their lines', async () => {
    const all = builtInPacks().flatMap((p) => p.entities);
    const byName = new Map(all.map((e) => [e.logicalName, e]));
    let n = 0;
    const store = new InMemoryRecordStore((name) => byName.get(name), { now: () => NOW }, { newId: () => `f0000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const counts = await generateDemoRecords(store, demoPack().entities, OWNERS, { now: NOW });
    expect(counts.inu_autonumber).toBeGreaterThanOrEqual(2);
    const account = ok(await store.create(sys, 'account', { name: 'After the demo' }));
    expect(ok(await store.retrieveById(sys, 'account', account)).accountnumber).toBe(`ACC-${String(counts.account + 1).padStart(5, '0')}`);
    const set = demoRecordSet(demoPack().entities, OWNERS, { now: NOW });
    const invoices = set.find((x) => x.entity === 'invoice')!.records;
    expect(invoices.length).toBeGreaterThan(0);
    for (const inv of invoices) expect(ok(await store.retrieveById(sys, 'invoice', String(inv.id))).totalamount, String(inv.name)).toBe(inv.totalamount);
  });
});
