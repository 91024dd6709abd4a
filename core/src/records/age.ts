/** A calendar date without time or zone. */
type CalendarDate = { year: number; month: number; day: number };

/** Reads 'YYYY-MM-DD' (or the date part of an ISO date-time); a Date by its UTC date. */
const calendarDate = (d: string | Date): CalendarDate | undefined => {
  if (d instanceof Date) {
    return Number.isNaN(d.getTime()) ? undefined : { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(d);
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : undefined;
};

/** Whole months from one date to a later one (a month is complete on the same day of the month). */
const wholeMonthsBetween = (from: CalendarDate, to: CalendarDate): number =>
  (to.year - from.year) * 12 + (to.month - from.month) - (to.day < from.day ? 1 : 0);

/** An age as shown: whole years from 2 years on, else whole months. */
export type Age = { unit: 'years' | 'months'; value: number };

/**
 * Age display of an Age field: whole years from 2 years, else whole months; a date in the
 * future is 0 months. `today` is the user's current date (the caller reads its clock).
 */
export const ageDisplay = (birth: string | Date, today: string | Date): Age | undefined => {
  const b = calendarDate(birth);
  const t = calendarDate(today);
  if (!b || !t) return undefined;
  const months = Math.max(0, wholeMonthsBetween(b, t));
  return months >= 24 ? { unit: 'years', value: Math.floor(months / 12) } : { unit: 'months', value: months };
};
