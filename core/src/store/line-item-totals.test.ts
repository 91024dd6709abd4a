import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import { builtInPacks, demoPack } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { lineItemTotals } from '../money/line-items.js';
import { sumDecimal } from '../money/decimal.js';
import { InMemoryRecordStore } from './in-memory-record-store.js';
import { lineItemShapeOf } from './line-item-totals.js';

/**
 * Issue 19 "Line items" (last sentences) and spec 002 "Line items": the totals are enforced on the
 * server, so any write of a line item computes its amounts and moves the parent's total, atomically.
 */
const sys = systemCaller();
const NOW = new Date('2026-11-25T01:30:00Z');
const all = builtInPacks().flatMap((p) => p.entities);
const byName = new Map(all.map((e) => [e.logicalName, e]));
const lookup = (name: string) => byName.get(name);
const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`${e.left.code}: ${e.left.message}`);
  return e.right;
};
const ref = (id: string, name: string) => ({ id, name });

const setup = async (invoiceTotal: number | null = null) => {
  let n = 0;
  const store = new InMemoryRecordStore(lookup, { now: () => NOW }, { newId: () => `f0000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  const account = ok(await store.create(sys, 'account', { name: 'Acme' }));
  const product = ok(await store.create(sys, 'product', { name: 'Router', listprice: 120.5 }));
  const invoice = ok(await store.create(sys, 'invoice', { name: 'Invoice', customerid: ref(account, 'account'), invoicedate: '2026-11-20', totalamount: invoiceTotal }));
  const line = async (object: EntityRecord): Promise<string> =>
    ok(await store.create(sys, 'invoicedetail', { name: 'Line', invoiceid: ref(invoice, 'invoice'), productid: ref(product, 'product'), ...object }));
  const read = async (entity: string, id: string) => ok(await store.retrieveById(sys, entity, id));
  const total = async (id = invoice) => (await read('invoice', id)).totalamount;
  return { store, account, product, invoice, line, read, total };
};

describe('which entities are line items: the spec\'s shape, read from the metadata', () => {
  it('invoicedetail is one: product productid, parent invoiceid, total totalamount', () => {
    expect(lineItemShapeOf(lookup, byName.get('invoicedetail')!)).toEqual({
      productField: 'productid',
      productEntity: 'product',
      parentField: 'invoiceid',
      parentEntity: 'invoice',
      totalField: 'totalamount',
    });
    for (const name of ['invoice', 'product', 'account', 'route_route']) expect(lineItemShapeOf(lookup, byName.get(name)!), name).toBeUndefined();
  });

  it("agrees with every lineitems panel of the demo pack (the panel's entity, parentField and totalField)", () => {
    const panels: Array<{ customComponentParameters?: Record<string, unknown> }> = [];
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        const o = x as Record<string, unknown>;
        if (o.type === 'Custom' && o.customComponent === 'lineitems') panels.push(o);
        Object.values(o).forEach(walk);
      }
    };
    walk(demoPack().views);
    expect(panels.length).toBeGreaterThan(0);
    for (const p of panels) {
      const params = p.customComponentParameters as { entity: string; parentField: string; totalField?: string };
      const shape = lineItemShapeOf(lookup, byName.get(params.entity)!);
      expect(shape?.parentField).toBe(params.parentField);
      expect(shape?.totalField).toBe(params.totalField ?? 'totalamount');
    }
  });
});

describe('the line-item rule in every write', () => {
  it("a created line gets its amounts (price from the product's listprice) and adds its total to the parent", async () => {
    const s = await setup();
    const id = await s.line({ quantity: 2, discount: 10 });
    expect(await s.read('invoicedetail', id)).toMatchObject({ quantity: 2, priceperunit: 120.5, baseamount: 241, discount: 10, totalamount: 216.9 });
    expect(await s.total()).toBe(216.9);
  });

  it('amounts a client sends are computed again: the server decides base and total', async () => {
    const s = await setup();
    const id = await s.line({ quantity: 3, priceperunit: 10, baseamount: 1, totalamount: 999 });
    expect(await s.read('invoicedetail', id)).toMatchObject({ baseamount: 30, totalamount: 30 });
    expect(await s.total()).toBe(30);
  });

  it('an update moves the parent by the change; a delete takes the line back; other amounts of the parent stay', async () => {
    const s = await setup(5);
    const a = await s.line({ quantity: 1, priceperunit: 100 });
    const b = await s.line({ quantity: 2, priceperunit: 0.1 });
    expect(await s.total()).toBe(105.2);
    ok(await s.store.update(sys, 'invoicedetail', { id: a, discount: 50 }));
    expect(await s.read('invoicedetail', a)).toMatchObject({ baseamount: 100, totalamount: 50 });
    expect(await s.total()).toBe(55.2);
    ok(await s.store.delete(sys, 'invoicedetail', { id: b }));
    expect(await s.total()).toBe(55);
  });

  it('undo-delete of a line puts its total back on the parent', async () => {
    const s = await setup();
    const a = await s.line({ quantity: 1, priceperunit: 40 });
    ok(await s.store.delete(sys, 'invoicedetail', { id: a }));
    expect(await s.total()).toBe(0);
    ok(await s.store.restore(sys, 'invoicedetail', a));
    expect(await s.total()).toBe(40);
  });

  it('a line moved to another parent leaves the first and joins the second', async () => {
    const s = await setup();
    const other = ok(await s.store.create(sys, 'invoice', { name: 'Other', customerid: ref(s.account, 'account'), invoicedate: '2026-11-21' }));
    const a = await s.line({ quantity: 1, priceperunit: 40 });
    ok(await s.store.update(sys, 'invoicedetail', { id: a, invoiceid: ref(other, 'invoice'), quantity: 2 }));
    expect(await s.total()).toBe(0);
    expect(await s.total(other)).toBe(80);
  });

  it('a discount outside 0 to 100 or a quantity below 0 refuses the write and leaves the parent as it was', async () => {
    const s = await setup();
    for (const bad of [{ quantity: 1, discount: 101 }, { quantity: -1 }]) {
      const r = await s.store.create(sys, 'invoicedetail', { name: 'L', invoiceid: ref(s.invoice, 'invoice'), productid: ref(s.product, 'product'), ...bad });
      expect(isLeft(r)).toBe(true);
    }
    expect(await s.total()).toBeNull();
  });

  it('an atomic executemultiple of lines that fails at its last item moves no total', async () => {
    const s = await setup();
    const item = (object: EntityRecord) => ({ operation: 'create' as const, name: 'invoicedetail', object: { name: 'L', invoiceid: ref(s.invoice, 'invoice'), productid: ref(s.product, 'product'), ...object } });
    const r = ok(await s.store.executeMultiple(sys, [item({ quantity: 1 }), item({ quantity: 1, discount: 200 })], { atomic: true }));
    expect(r.every((x) => 'error' in x)).toBe(true);
    expect(await s.total()).toBeNull();
  });

  it('property: after any creates, updates and deletes of lines, the parent total is the sum of its lines (plus what it held)', async () => {
    const step = fc.record({
      op: fc.constantFrom('create', 'update', 'delete'),
      quantity: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
      price: fc.option(fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100), { nil: null }),
      discount: fc.integer({ min: 0, max: 100 }),
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100), fc.array(step, { maxLength: 12 }), async (held, steps) => {
        const s = await setup(held);
        const lines: string[] = [];
        for (const x of steps) {
          const values = { quantity: x.quantity, priceperunit: x.price, discount: x.discount };
          if (x.op === 'create' || lines.length === 0) lines.push(await s.line(values));
          else if (x.op === 'update') ok(await s.store.update(sys, 'invoicedetail', { id: lines[x.pick % lines.length], ...values }));
          else ok(await s.store.delete(sys, 'invoicedetail', { id: lines.splice(x.pick % lines.length, 1)[0] }));
        }
        const stored = await Promise.all(lines.map((id) => s.read('invoicedetail', id)));
        for (const l of stored) {
          const t = ok(lineItemTotals({ quantity: l.quantity as number, priceperunit: l.priceperunit as number, discount: l.discount as number }));
          expect(l.totalamount).toBe(t.totalamount);
        }
        expect(await s.total()).toBe(sumDecimal([held, ...stored.map((l) => l.totalamount as number)]));
      }),
      { numRuns: 40 },
    );
  });
});
