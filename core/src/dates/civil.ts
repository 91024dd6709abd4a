import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/**
 * A calendar date without a time or a zone (a "civil" date). Arithmetic runs on the proleptic
 * Gregorian calendar through Date.UTC, which is exact for every year the product accepts.
 */
export type CivilDate = { readonly year: number; readonly month: number; readonly day: number };

const DAY_MS = 86_400_000;

const toUtcMs = (d: CivilDate): number => {
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, d.month - 1, d.day));
  date.setUTCFullYear(d.year, d.month - 1, d.day);
  return date.getTime();
};

const fromUtcMs = (ms: number): CivilDate => {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** The civil date `days` days after (or before, when negative) `d`. */
export const addDays = (d: CivilDate, days: number): CivilDate => fromUtcMs(toUtcMs(d) + days * DAY_MS);

/** Whole days from `a` to `b` (positive when b is later). */
export const daysBetween = (a: CivilDate, b: CivilDate): number => Math.round((toUtcMs(b) - toUtcMs(a)) / DAY_MS);

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** The same day `months` months later; a day past the target month's end is clamped to its last day (31 Jan + 1 month = 28/29 Feb). */
export const addMonths = (d: CivilDate, months: number): CivilDate => {
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
};

/** The same day `years` years later, 29 February becoming 28 February in a common year. */
export const addYears = (d: CivilDate, years: number): CivilDate => addMonths(d, years * 12);

/** ISO weekday: 1 Monday ... 7 Sunday. */
export const isoWeekday = (d: CivilDate): number => {
  const sunday0 = new Date(toUtcMs(d)).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
};

/** The Monday that starts the week of `d` (weeks start on Monday, spec 001 section 2). */
export const startOfWeek = (d: CivilDate): CivilDate => addDays(d, 1 - isoWeekday(d));

export const compareCivil = (a: CivilDate, b: CivilDate): number => toUtcMs(a) - toUtcMs(b);

export const isValidCivil = (d: CivilDate): boolean =>
  Number.isInteger(d.year) &&
  Number.isInteger(d.month) &&
  Number.isInteger(d.day) &&
  d.month >= 1 &&
  d.month <= 12 &&
  d.day >= 1 &&
  d.day <= daysInMonth(d.year, d.month);

const pad = (n: number, width: number): string => String(Math.abs(n)).padStart(width, '0');

/** `YYYY-MM-DD`, the wire form of a DateOnly field (API.md). */
export const formatCivil = (d: CivilDate): string => `${d.year < 0 ? '-' : ''}${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;

/** Parses `YYYY-MM-DD` into a valid calendar date. */
export const parseCivil = (text: string): E.Either<InputError, CivilDate> => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (m === null) return E.left(inputError(`Invalid date: ${text}`));
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return isValidCivil(d) ? E.right(d) : E.left(inputError(`Invalid date: ${text}`));
};

/** ISO 8601 week: the week with the year's first Thursday is week 1; a year has 52 or 53 weeks. */
export const isoWeek = (d: CivilDate): { year: number; week: number } => {
  const thursday = addDays(d, 4 - isoWeekday(d));
  const week = Math.floor(daysBetween({ year: thursday.year, month: 1, day: 1 }, thursday) / 7) + 1;
  return { year: thursday.year, week };
};

/** 53 when the ISO year has a week 53 (it starts or, in a leap year, ends on a Thursday), else 52. */
export const isoWeeksInYear = (year: number): number => isoWeek({ year, month: 12, day: 28 }).week;

/** The Monday of ISO week `week` of ISO year `year`. */
export const mondayOfIsoWeek = (year: number, week: number): CivilDate => {
  const jan4 = { year, month: 1, day: 4 };
  return addDays(startOfWeek(jan4), (week - 1) * 7);
};

/** Age in whole years on `on`: the largest n with birth <= on - n years (a 29 February birthday counts from 1 March in common years). */
export const ageInYears = (birth: CivilDate, on: CivilDate): number => {
  let n = on.year - birth.year;
  if (compareCivil(birth, addYears(on, -n)) > 0) n -= 1;
  return n;
};
