import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_WHATS_NEXT_SCHEDULED, ruleAgeThreshold, WHATS_NEXT_PAGE_SIZE, whatsNextReferenceDate } from './reference-date.js';
import { wallTimeOf } from '../dates/zoned.js';

describe("What's Next reference dates (spec 002 section 4)", () => {
  const now = new Date('2024-03-29T14:15:00Z'); // Friday 15:15 in Bratislava
  const tz = 'Europe/Bratislava';

  it('today is the current instant, and is the default filter', () => {
    expect(DEFAULT_WHATS_NEXT_SCHEDULED).toBe('today');
    expect(whatsNextReferenceDate('today', now, tz)).toEqual(now);
  });

  it('tomorrow shifts the reference date to 2 days ahead at midnight', () => {
    expect(whatsNextReferenceDate('tomorrow', now, tz).toISOString()).toBe('2024-03-30T23:00:00.000Z');
  });

  it('next-week shifts it to 8 days ahead, at the same local time across the DST change', () => {
    // 6 April 15:15 in summer time is 13:15 UTC.
    expect(whatsNextReferenceDate('next-week', now, tz).toISOString()).toBe('2024-04-06T13:15:00.000Z');
  });

  it('the list shows 10 records a page', () => expect(WHATS_NEXT_PAGE_SIZE).toBe(10));

  it('rule thresholds are whole days back from the reference', () => {
    expect(ruleAgeThreshold(now, 3, tz).toISOString()).toBe('2024-03-26T14:15:00.000Z');
  });

  it('property: tomorrow is a local midnight after now, next-week keeps the local time of day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom('UTC', 'Europe/Bratislava', 'America/New_York'),
        (ms, zone) => {
          const at = new Date(ms);
          const tomorrow = whatsNextReferenceDate('tomorrow', at, zone);
          const w = wallTimeOf(tomorrow, zone);
          expect([w.hour, w.minute]).toEqual([0, 0]);
          expect(tomorrow.getTime() - ms).toBeGreaterThan(24 * 3_600_000);
          expect(tomorrow.getTime() - ms).toBeLessThanOrEqual(49 * 3_600_000);
          const week = wallTimeOf(whatsNextReferenceDate('next-week', at, zone), zone);
          const local = wallTimeOf(at, zone);
          // Equal unless the local time falls into a DST gap 8 days later.
          if (week.hour === local.hour) expect(week.minute).toBe(local.minute);
        },
      ),
    );
  });
});
