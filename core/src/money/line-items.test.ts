import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { lineItemTotals, planLineItemSave, type LineItemTotals } from './line-items.js';

const ok = <A>(e: E.Either<{ message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message);
  return e.right;
};

describe('lineItemTotals: baseamount = quantity x priceperunit, totalamount = baseamount x (100 - discount) / 100 (spec 002 sections 3-5)', () => {
  it.each<[Parameters<typeof lineItemTotals>[0], Partial<LineItemTotals>]>([
    [{ quantity: 3, priceperunit: 19.99 }, { baseamount: 59.97, totalamount: 59.97, discount: 0 }],
    [{ quantity: 3, priceperunit: 19.99, discount: 10 }, { baseamount: 59.97, totalamount: 53.97 }],
    [{ quantity: 2.5, priceperunit: 0.1, discount: 0 }, { baseamount: 0.25, totalamount: 0.25 }],
    [{ quantity: 1, priceperunit: 0.05, discount: 50 }, { totalamount: 0.03 }],
    [{ quantity: 1.234, priceperunit: 10 }, { quantity: 1.23, baseamount: 12.3 }],
    [{ quantity: 1, priceperunit: 10, discount: 12.5 }, { discount: 13, totalamount: 8.7 }],
    [{ quantity: 1, priceperunit: 100, discount: 100 }, { totalamount: 0 }],
  ])('%j gives %j', (input, expected) => {
    expect(ok(lineItemTotals(input))).toMatchObject(expected);
  });

  it('quantity precision is 2 and discount precision is 0', () => {
    const t = ok(lineItemTotals({ quantity: '2.005', priceperunit: 1, discount: '4.5' }));
    expect([t.quantity, t.discount]).toEqual([2.01, 5]);
  });

  it("priceperunit defaults to the product's listprice", () => {
    expect(ok(lineItemTotals({ quantity: 2, listprice: 12.4 }))).toMatchObject({ priceperunit: 12.4, baseamount: 24.8 });
    expect(ok(lineItemTotals({ quantity: 2, priceperunit: 10, listprice: 12.4 })).priceperunit).toBe(10);
  });

  it('a negative quantity or a discount outside 0-100 is refused', () => {
    expect(E.isLeft(lineItemTotals({ quantity: -1, priceperunit: 1 }))).toBe(true);
    expect(E.isLeft(lineItemTotals({ quantity: 1, priceperunit: 1, discount: 101 }))).toBe(true);
    expect(E.isLeft(lineItemTotals({ quantity: 1, priceperunit: 1, discount: -1 }))).toBe(true);
  });

  const cents = fc.integer({ min: 0, max: 100_000_000 });
  it('property: the totals are exact in cents and obey the formula with half-away rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), cents, fc.integer({ min: 0, max: 100 }), (qh, pc, d) => {
        const t = ok(lineItemTotals({ quantity: qh / 100, priceperunit: pc / 100, discount: d }));
        const base = (BigInt(qh) * BigInt(pc) + 50n) / 100n; // non-negative: half up
        const total = (base * BigInt(100 - d) + 50n) / 100n;
        expect(Math.round(t.baseamount * 100)).toBe(Number(base));
        expect(Math.round(t.totalamount * 100)).toBe(Number(total));
        expect(t.totalamount).toBeLessThanOrEqual(t.baseamount);
        if (d === 0) expect(t.totalamount).toBe(t.baseamount);
        if (d === 100) expect(t.totalamount).toBe(0);
      }),
    );
  });
});

describe('saving line items (spec 002 section 4)', () => {
  it('quantity 0 on an existing item means delete on save; a new item with quantity 0 is skipped; the parent total is adjusted', () => {
    const plan = ok(
      planLineItemSave(
        [
          { id: 'a', quantity: 0, priceperunit: 10, previousTotal: 20 },
          { quantity: 0, priceperunit: 5 },
          { quantity: 1, priceperunit: 5 },
          { id: 'b', quantity: 3, priceperunit: 10, previousTotal: 10 },
        ],
        100,
      ),
    );
    expect(plan.operations.map((o) => [o.operation, o.item.id])).toEqual([
      ['delete', 'a'],
      ['create', undefined],
      ['update', 'b'],
    ]);
    // 100 - 20 (deleted) + 5 (new) + (30 - 10) (changed)
    expect(plan.parentTotalamount).toBe(105);
  });

  it('property: the parent total changes by the new totals minus the old ones, exactly', () => {
    const item = fc.record({
      existing: fc.boolean(),
      q: fc.integer({ min: 0, max: 500 }),
      p: fc.integer({ min: 0, max: 100_000 }),
      prev: fc.integer({ min: 0, max: 10_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.integer({ min: 0, max: 100_000_000 }), (items, parentCents) => {
        const plan = ok(
          planLineItemSave(
            items.map((i, n) => ({ ...(i.existing ? { id: `i${n}`, previousTotal: i.prev / 100 } : {}), quantity: i.q / 100, priceperunit: i.p / 100 })),
            parentCents / 100,
          ),
        );
        const expected = items.reduce((s, i) => {
          const total = i.q === 0 ? 0 : Math.round((i.q * i.p) / 100 + 1e-9);
          return s + (i.existing ? total - i.prev : total);
        }, parentCents);
        expect(Math.round(plan.parentTotalamount * 100)).toBe(expected);
        expect(plan.operations.length).toBe(items.filter((i) => i.existing || i.q > 0).length);
      }),
    );
  });
});
