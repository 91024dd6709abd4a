import type { Condition } from '../query/query.js';
import { addDays, type CivilDate } from './civil.js';
import { civilDateOf, startOfDayInstant } from './zoned.js';
import type { DateRange } from './date-range.js';

/** The calendar fetches from the first of the shown month minus 10 days to plus 40 days (spec 001 section 9). */
export const CALENDAR_WINDOW_DAYS_BEFORE = 10;
export const CALENDAR_WINDOW_DAYS_AFTER = 40;

/**
 * The calendar fetch window around the month of `shown` (an instant read in `timeZone`): from the
 * local midnight of the month's first day minus 10 days to the local midnight of that day plus 40
 * days. 40 days after the first always passes the month's end, so every view of the month is covered.
 */
export const calendarFetchWindow = (shown: Date, timeZone: string): DateRange => {
  const day = civilDateOf(shown, timeZone);
  const first: CivilDate = { year: day.year, month: day.month, day: 1 };
  return {
    start: startOfDayInstant(addDays(first, -CALENDAR_WINDOW_DAYS_BEFORE), timeZone),
    end: startOfDayInstant(addDays(first, CALENDAR_WINDOW_DAYS_AFTER), timeZone),
  };
};

/**
 * The window as query conditions: an event overlaps it when it ends at or after the window's
 * start and starts at or before its end (`end ge start`, `start le end`).
 */
export const calendarWindowConditions = (window: DateRange, startField = 'start', endField = 'end'): Condition[] => [
  { attribute: endField, operator: 'ge', value: window.start.toISOString() },
  { attribute: startField, operator: 'le', value: window.end.toISOString() },
];
