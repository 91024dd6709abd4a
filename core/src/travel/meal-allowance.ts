import { formatCivil, parseCivil, type CivilDate } from '../dates/civil.js';
import * as E from 'fp-ts/lib/Either.js';
import { divRound, scaledToNumber, toScaled } from '../money/decimal.js';

/** The meals bitmask of a diet day (spec 002 section 3): 1 breakfast, 2 lunch, 4 dinner, 7 all provided. */
export const MEAL_BREAKFAST = 1;
export const MEAL_LUNCH = 2;
export const MEAL_DINNER = 4;
export const MEALS_ALL = 7;

/**
 * One decree of meal-allowance rates: amounts in euro for the hour bands, and the share of the
 * band-3 amount each provided meal cuts. A new decree is a new row, valid from its date.
 */
export type MealAllowanceDecree = {
  /** First day (YYYY-MM-DD) the rates apply to. */
  readonly validFrom: string;
  /** Amounts of band 1 (5 to under 12 h), band 2 (12 to under 18 h) and band 3 (18 h or more). */
  readonly bands: readonly [number, number, number];
  /** Hours where bands 1, 2 and 3 begin. */
  readonly bandStartHours: readonly [number, number, number];
  /** Percent of the band-3 amount cut for a provided breakfast, lunch and dinner. */
  readonly cutPercent: { readonly breakfast: number; readonly lunch: number; readonly dinner: number };
};

/** The specification's rates (spec 002 section 9), in force from the first day the product knows. */
export const SPEC_MEAL_ALLOWANCE_DECREE: MealAllowanceDecree = {
  validFrom: '0001-01-01',
  bands: [8.8, 13.1, 19.5],
  bandStartHours: [5, 12, 18],
  cutPercent: { breakfast: 25, lunch: 40, dinner: 35 },
};

/** The decree table, oldest first. Add a row when a new decree is published. */
export const MEAL_ALLOWANCE_DECREES: readonly MealAllowanceDecree[] = [SPEC_MEAL_ALLOWANCE_DECREE];

const toCivil = (date: CivilDate | string): CivilDate | undefined =>
  typeof date === 'string' ? E.getOrElseW(() => undefined)(parseCivil(date.slice(0, 10))) : date;

/**
 * The decree in force on a day: the row with the latest validFrom not after it. Without a date,
 * or for a day before every row, the latest row, resp. the earliest row.
 */
export const decreeFor = (
  date: CivilDate | string | undefined,
  decrees: readonly MealAllowanceDecree[] = MEAL_ALLOWANCE_DECREES,
): MealAllowanceDecree => {
  const sorted = [...decrees].sort((a, b) => a.validFrom.localeCompare(b.validFrom));
  const day = date === undefined ? undefined : toCivil(date);
  if (day === undefined) return sorted[sorted.length - 1];
  const key = formatCivil(day);
  // YYYY-MM-DD texts order like the days they name.
  return sorted.filter((d) => d.validFrom <= key).pop() ?? sorted[0];
};

/** The band of a day's hours: 0 under 5 hours, then 1, 2, 3 from 5, 12 and 18 hours. */
export const allowanceBand = (hours: number, decree: MealAllowanceDecree = SPEC_MEAL_ALLOWANCE_DECREE): 0 | 1 | 2 | 3 => {
  const [b1, b2, b3] = decree.bandStartHours;
  if (!(hours >= b1)) return 0;
  if (hours < b2) return 1;
  if (hours < b3) return 2;
  return 3;
};

/** The meal allowance in euro cents (an integer), per the rule of mealAllowance. */
export const mealAllowanceCents = (
  hours: number,
  mealsMask: number,
  date?: CivilDate | string,
  decrees: readonly MealAllowanceDecree[] = MEAL_ALLOWANCE_DECREES,
): number => {
  const decree = decreeFor(date, decrees);
  const band = allowanceBand(hours, decree);
  if (band === 0) return 0;
  const cents = (v: number): bigint => toScaled(v, 2) ?? 0n;
  const band3 = cents(decree.bands[2]);
  const mask = Number.isInteger(mealsMask) ? mealsMask & MEALS_ALL : 0;
  const { breakfast, lunch, dinner } = decree.cutPercent;
  const pct =
    (mask & MEAL_BREAKFAST ? toScaled(breakfast, 0) ?? 0n : 0n) +
    (mask & MEAL_LUNCH ? toScaled(lunch, 0) ?? 0n : 0n) +
    (mask & MEAL_DINNER ? toScaled(dinner, 0) ?? 0n : 0n);
  // In hundredths of a cent: amount x 100 minus band-3 amount x percent; never below 0.
  const hundredths = cents(decree.bands[band - 1]) * 100n - band3 * pct;
  return hundredths <= 0n ? 0 : Number(divRound(hundredths, 100n));
};

/**
 * mealAllowance: the meal allowance (euro) of one day (spec 002 section 9). Under 5 hours 0; 5 to
 * under 12 hours 8.8; 12 to under 18 hours 13.1; 18 or more 19.5. Each provided meal of `mealsMask`
 * (1 breakfast, 2 lunch, 4 dinner) cuts 25%, 40% or 35% of the band-3 amount; the claim is never
 * below 0, so all three provided gives 0. Rounding rule: the exact difference is rounded once, half
 * away from zero, to whole cents (12 h with breakfast: 13.10 - 4.875 = 8.225 -> 8.23). The rates
 * are those of the decree in force on `date` (the latest decree when no date is given).
 */
export const mealAllowance = (
  hours: number,
  mealsMask: number,
  date?: CivilDate | string,
  decrees: readonly MealAllowanceDecree[] = MEAL_ALLOWANCE_DECREES,
): number => scaledToNumber(BigInt(mealAllowanceCents(hours, mealsMask, date, decrees)), 2);

/** Toggles one meal of a day's mask (the per-meal switch of the allowance grid). */
export const toggleMeal = (mask: number, meal: number): number => (mask ^ meal) & MEALS_ALL;

/** The "all meals" switch: all provided becomes none, anything else becomes all provided. */
export const toggleAllMeals = (mask: number): number => ((mask & MEALS_ALL) === MEALS_ALL ? 0 : MEALS_ALL);
