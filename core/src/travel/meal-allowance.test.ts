import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  allowanceBand,
  decreeFor,
  MEAL_ALLOWANCE_DECREES,
  mealAllowance,
  mealAllowanceCents,
  MEALS_ALL,
  SPEC_MEAL_ALLOWANCE_DECREE,
  toggleAllMeals,
  toggleMeal,
  type MealAllowanceDecree,
} from './meal-allowance.js';

describe('mealAllowance: bands by hours of the day (spec 002 section 9)', () => {
  it.each([
    [0, 0],
    [4.99, 0],
    [5, 8.8],
    [11.99, 8.8],
    [12, 13.1],
    [17.99, 13.1],
    [18, 19.5],
    [24, 19.5],
  ])('%f hours with no meal provided pays %f euro', (hours, amount) => {
    expect(mealAllowance(hours, 0)).toBe(amount);
  });

  // Each provided meal cuts 25%, 40% or 35% of the band-3 amount 19.50 (4.875, 7.80, 6.825),
  // the difference rounded once, half away from zero, to the cent.
  it.each([
    [8, 1, 3.93],
    [8, 2, 1.0],
    [8, 4, 1.98],
    [8, 3, 0],
    [8, 5, 0],
    [8, 6, 0],
    [8, 7, 0],
    [14, 1, 8.23],
    [14, 2, 5.3],
    [14, 4, 6.28],
    [14, 3, 0.43],
    [14, 5, 1.4],
    [14, 6, 0],
    [14, 7, 0],
    [20, 1, 14.63],
    [20, 2, 11.7],
    [20, 4, 12.68],
    [20, 3, 6.83],
    [20, 5, 7.8],
    [20, 6, 4.88],
    [20, 7, 0],
  ])('%i hours with meals mask %i pays %f euro', (hours, mask, amount) => {
    expect(mealAllowance(hours, mask)).toBe(amount);
  });

  it('all three meals provided gives 0 in every band', () => {
    for (const h of [3, 6, 13, 19]) expect(mealAllowance(h, MEALS_ALL)).toBe(0);
  });

  it('property: the claim is whole cents, never below 0, and never above the no-meal amount of its band', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 24, noNaN: true }), fc.integer({ min: 0, max: 7 }), (hours, mask) => {
        const cents = mealAllowanceCents(hours, mask);
        expect(Number.isInteger(cents)).toBe(true);
        expect(cents).toBeGreaterThanOrEqual(0);
        expect(cents).toBeLessThanOrEqual(mealAllowanceCents(hours, 0));
        expect(mealAllowance(hours, mask)).toBe(cents / 100);
      }),
    );
  });

  it('property: providing one more meal never raises the claim', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 24, noNaN: true }), fc.integer({ min: 0, max: 7 }), fc.constantFrom(1, 2, 4), (hours, mask, meal) => {
        expect(mealAllowanceCents(hours, mask | meal)).toBeLessThanOrEqual(mealAllowanceCents(hours, mask));
      }),
    );
  });

  it('property: more hours never pay less (with the same meals)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 24, noNaN: true }), fc.double({ min: 0, max: 24, noNaN: true }), fc.integer({ min: 0, max: 7 }), (a, b, mask) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(allowanceBand(lo)).toBeLessThanOrEqual(allowanceBand(hi));
        if (mask === 0) expect(mealAllowanceCents(lo, 0)).toBeLessThanOrEqual(mealAllowanceCents(hi, 0));
      }),
    );
  });
});

describe('meal-allowance rates come from a table of decrees, each valid from its date', () => {
  const decree2025: MealAllowanceDecree = {
    validFrom: '2025-01-01',
    bands: [9.3, 13.8, 20.6],
    bandStartHours: [5, 12, 18],
    cutPercent: { breakfast: 25, lunch: 40, dinner: 35 },
  };
  const table = [...MEAL_ALLOWANCE_DECREES, decree2025];

  it("the specification's values are the default table", () => {
    expect(MEAL_ALLOWANCE_DECREES).toEqual([SPEC_MEAL_ALLOWANCE_DECREE]);
    expect(SPEC_MEAL_ALLOWANCE_DECREE.bands).toEqual([8.8, 13.1, 19.5]);
  });

  it('a trip is paid at the rates of its date', () => {
    expect(mealAllowance(13, 0, '2024-12-31', table)).toBe(13.1);
    expect(mealAllowance(13, 0, '2025-01-01', table)).toBe(13.8);
    expect(mealAllowance(13, 1, { year: 2025, month: 6, day: 1 }, table)).toBe(8.65); // 13.80 - 5.15
  });

  it('without a date the latest decree applies; the table order does not matter', () => {
    expect(decreeFor(undefined, table)).toBe(decree2025);
    expect(decreeFor('2025-03-01', [decree2025, SPEC_MEAL_ALLOWANCE_DECREE])).toBe(decree2025);
  });
});

describe('the meals switches of the allowance grid (spec 002 section 4)', () => {
  it('a meal toggles on and off; "all" sets all three, or clears them when all are set', () => {
    expect(toggleMeal(0, 2)).toBe(2);
    expect(toggleMeal(3, 2)).toBe(1);
    expect(toggleAllMeals(5)).toBe(7);
    expect(toggleAllMeals(7)).toBe(0);
  });

  it('property: toggling a meal twice restores the mask', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.constantFrom(1, 2, 4), (mask, meal) => {
        expect(toggleMeal(toggleMeal(mask, meal), meal)).toBe(mask);
      }),
    );
  });
});
