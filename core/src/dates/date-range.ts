import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { inputError, type InputError } from '../errors.js';
import {
  addDays,
  addMonths,
  addYears,
  isoWeeksInYear,
  mondayOfIsoWeek,
  startOfWeek,
  type CivilDate,
} from './civil.js';
import { checkTimeZone, civilDateOf, startOfDayInstant } from './zoned.js';
import { AGE_FILTER_MAX, DAY_FILTER_MAX_YEAR, DAY_FILTER_MIN_YEAR } from '../metadata/view.js';

/** The date quick options of spec 001 section 2 / 002 section 9: today, tomorrow, yesterday, this, next and previous week, month, year. */
export const DATE_RANGE_OPTIONS = [
  'today',
  'tomorrow',
  'yesterday',
  'this-week',
  'next-week',
  'previous-week',
  'this-month',
  'next-month',
  'previous-month',
  'this-year',
  'next-year',
  'previous-year',
] as const;
export const DateRangeOption = t.keyof(
  Object.fromEntries(DATE_RANGE_OPTIONS.map((o) => [o, null])) as Record<(typeof DATE_RANGE_OPTIONS)[number], null>,
  'DateRangeOption',
);
export type DateRangeOption = t.TypeOf<typeof DateRangeOption>;

/** A half-open range of instants [start, end). */
export type DateRange = { readonly start: Date; readonly end: Date };

/** A half-open range of local calendar days [from, to). */
export type CivilRange = { readonly from: CivilDate; readonly to: CivilDate };

/** The calendar days of a date quick option around the local day `today` (weeks start on Monday). */
export const civilRange = (option: DateRangeOption, today: CivilDate): CivilRange => {
  const days = (offset: number, length: number): CivilRange => ({
    from: addDays(today, offset),
    to: addDays(today, offset + length),
  });
  const week = (offset: number): CivilRange => {
    const monday = addDays(startOfWeek(today), offset * 7);
    return { from: monday, to: addDays(monday, 7) };
  };
  const month = (offset: number): CivilRange => {
    const first = addMonths({ year: today.year, month: today.month, day: 1 }, offset);
    return { from: first, to: addMonths(first, 1) };
  };
  const year = (offset: number): CivilRange => {
    const first = { year: today.year + offset, month: 1, day: 1 };
    return { from: first, to: addYears(first, 1) };
  };
  switch (option) {
    case 'today':
      return days(0, 1);
    case 'tomorrow':
      return days(1, 1);
    case 'yesterday':
      return days(-1, 1);
    case 'this-week':
      return week(0);
    case 'next-week':
      return week(1);
    case 'previous-week':
      return week(-1);
    case 'this-month':
      return month(0);
    case 'next-month':
      return month(1);
    case 'previous-month':
      return month(-1);
    case 'this-year':
      return year(0);
    case 'next-year':
      return year(1);
    case 'previous-year':
      return year(-1);
  }
};

/** The instants [first instant of `from`, first instant of `to`) of a civil range in a zone. */
export const instantRange = (range: CivilRange, timeZone: string): DateRange => ({
  start: startOfDayInstant(range.from, timeZone),
  end: startOfDayInstant(range.to, timeZone),
});

/**
 * dateRange: the half-open range [start, end) of instants that a date quick option covers,
 * with "today" being the local day of `reference` in the IANA `timeZone` (DST-correct: a day
 * lasts 23, 24 or 25 hours as the zone says).
 */
export const dateRange = (option: DateRangeOption, reference: Date, timeZone: string): E.Either<InputError, DateRange> =>
  Number.isNaN(reference.getTime())
    ? E.left(inputError('Invalid reference date'))
    : pipe(
        checkTimeZone(timeZone),
        E.map((tz) => instantRange(civilRange(option, civilDateOf(reference, tz)), tz)),
      );

/** Checks a day-filter date against the accepted years 1801 to 2199 (DAY_FILTER_MIN_YEAR, DAY_FILTER_MAX_YEAR, spec 001 section 2). */
export const checkDayFilterDate = (d: CivilDate): E.Either<InputError, CivilDate> =>
  d.year >= DAY_FILTER_MIN_YEAR && d.year <= DAY_FILTER_MAX_YEAR
    ? E.right(d)
    : E.left(inputError(`The year must be between ${DAY_FILTER_MIN_YEAR} and ${DAY_FILTER_MAX_YEAR}`));

/** The one local day of a day filter as [start, end), years 1801 to 2199 only. */
export const dayRange = (d: CivilDate, timeZone: string): E.Either<InputError, DateRange> =>
  pipe(
    checkDayFilterDate(d),
    E.chain(() => checkTimeZone(timeZone)),
    E.map((tz) => instantRange({ from: d, to: addDays(d, 1) }, tz)),
  );

/** Week numbers run 1 to 53; week 53 exists only in ISO years that have it. */
export const MIN_WEEK_NUMBER = 1;
export const MAX_WEEK_NUMBER = 53;

/** The days [Monday, next Monday) of ISO week `week` of `isoYear`. */
export const weekNumberRange = (isoYear: number, week: number): E.Either<InputError, CivilRange> => {
  if (!Number.isInteger(week) || week < MIN_WEEK_NUMBER || week > MAX_WEEK_NUMBER)
    return E.left(inputError(`The week number must be between ${MIN_WEEK_NUMBER} and ${MAX_WEEK_NUMBER}`));
  if (week > isoWeeksInYear(isoYear)) return E.left(inputError(`The year ${isoYear} has no week ${week}`));
  const monday = mondayOfIsoWeek(isoYear, week);
  return E.right({ from: monday, to: addDays(monday, 7) });
};

/** Age filter options run 0 to 99 (spec 002 section 9). */
export const AGE_OPTIONS: readonly number[] = Array.from({ length: AGE_FILTER_MAX + 1 }, (_, i) => i);

/**
 * The birth dates (from, to] of people aged exactly `age` on `today`, as the half-open civil
 * range [today - (age+1) years + 1 day, today - age years + 1 day).
 */
export const ageBirthRange = (age: number, today: CivilDate): E.Either<InputError, CivilRange> =>
  Number.isInteger(age) && age >= 0 && age <= AGE_FILTER_MAX
    ? E.right({ from: addDays(addYears(today, -(age + 1)), 1), to: addDays(addYears(today, -age), 1) })
    : E.left(inputError(`The age must be between 0 and ${AGE_FILTER_MAX}`));
