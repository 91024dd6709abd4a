import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calendarFetchWindow, calendarWindowConditions } from './calendar-window.js';
import { civilDateOf } from './zoned.js';
import { addDays, formatCivil } from './civil.js';

describe('calendar fetch window: first of the month minus 10 days to plus 40 days (spec 001 section 9)', () => {
  it('for March 2024 in Bratislava the window is 20 February 00:00 to 10 April 00:00 local', () => {
    const w = calendarFetchWindow(new Date('2024-03-13T09:30:00Z'), 'Europe/Bratislava');
    expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2024-02-19T23:00:00.000Z', '2024-04-09T22:00:00.000Z']);
  });

  it('becomes the conditions end >= window start and start <= window end', () => {
    const w = calendarFetchWindow(new Date('2024-03-13T09:30:00Z'), 'UTC');
    expect(calendarWindowConditions(w, 'scheduledstart', 'scheduledend')).toEqual([
      { attribute: 'scheduledend', operator: 'ge', value: '2024-02-20T00:00:00.000Z' },
      { attribute: 'scheduledstart', operator: 'le', value: '2024-04-10T00:00:00.000Z' },
    ]);
    expect(calendarWindowConditions(w).map((c) => c.attribute)).toEqual(['end', 'start']);
  });

  it('property: the window covers the whole shown month and the 6-week month grid around it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom('UTC', 'Europe/Bratislava', 'America/Santiago'),
        (ms, tz) => {
          const shown = new Date(ms);
          const w = calendarFetchWindow(shown, tz);
          const day = civilDateOf(shown, tz);
          const first = { year: day.year, month: day.month, day: 1 };
          expect(formatCivil(civilDateOf(w.start, tz))).toBe(formatCivil(addDays(first, -10)));
          expect(formatCivil(civilDateOf(w.end, tz))).toBe(formatCivil(addDays(first, 40)));
          // A month grid starts at most 6 days before the first and shows 42 days.
          expect(formatCivil(civilDateOf(w.end, tz)) >= formatCivil(addDays(first, 35))).toBe(true);
        },
      ),
    );
  });
});
