import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BUDGET_IN, BUDGET_OUT, monthlyBalance, type BudgetLine } from './budget-balance.js';

const line = (type: number, amount: number): BudgetLine => ({ type, amount, name: 'x' });
const cents = fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100);
const lineArb = fc.record({ type: fc.constantFrom(BUDGET_IN, BUDGET_OUT), amount: cents });

describe('family budget: balance per month (spec 002 sections 3 and 9; amounts in euro)', () => {
  it('income lines and the allowances minus expense lines', () => {
    const b = monthlyBalance([line(BUDGET_IN, 1200), line(BUDGET_OUT, 450.5), line(BUDGET_OUT, 99.99)], [{ amount: 60 }, { amount: 351.8 }]);
    expect(b).toEqual({ income: 1200, allowances: 411.8, expense: 550.49, balance: 1061.31 });
  });

  it('a row still being typed (no type or no amount) does not count', () => {
    expect(monthlyBalance([{ type: BUDGET_IN }, { amount: 5 }, { type: BUDGET_OUT, amount: Number.NaN }]).balance).toBe(0);
  });

  it('sums in whole cents: 0.10 + 0.20 is 0.30', () => {
    expect(monthlyBalance([line(BUDGET_IN, 0.1), line(BUDGET_IN, 0.2)]).income).toBe(0.3);
  });

  it('property: balance = income + allowances - expense, whatever the order of the lines', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.array(cents.map((amount) => ({ amount })), { maxLength: 4 }), (lines, allowances) => {
        const b = monthlyBalance(lines, allowances);
        expect(Math.round((b.income + b.allowances - b.expense) * 100)).toBe(Math.round(b.balance * 100));
        expect(monthlyBalance([...lines].reverse(), allowances)).toEqual(b);
      }),
    );
  });

  it('property: an income and an expense of the same amount leave the balance as it was', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 20 }), cents, (lines, amount) => {
        const before = monthlyBalance(lines).balance;
        expect(monthlyBalance([...lines, line(BUDGET_IN, amount), line(BUDGET_OUT, amount)]).balance).toBe(before);
      }),
    );
  });
});
