import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wallTimeOf } from '../dates/zoned.js';
import { defaultReminder, reminderDue } from './reminder.js';

describe('the default reminder is the next day at 06:00 (spec 001 "Activity feed", section 9)', () => {
  it('in the user\'s zone: late evening, just after midnight, and UTC', () => {
    // 23:30 in Bratislava on the 25th: the 26th at 06:00 local; 00:30 local on the 26th: the 27th.
    expect(defaultReminder(new Date('2026-11-25T22:30:00Z'), 'Europe/Bratislava').toISOString()).toBe('2026-11-26T05:00:00.000Z');
    expect(defaultReminder(new Date('2026-11-25T23:30:00Z'), 'Europe/Bratislava').toISOString()).toBe('2026-11-27T05:00:00.000Z');
    expect(defaultReminder(new Date('2026-11-25T23:10:00Z'), 'UTC').toISOString()).toBe('2026-11-26T06:00:00.000Z');
    expect(defaultReminder(new Date('2026-11-25T00:00:00Z'), 'UTC').toISOString()).toBe('2026-11-26T06:00:00.000Z');
  });

  it('across a DST change it is still 06:00 on the wall clock (spring forward and fall back)', () => {
    expect(defaultReminder(new Date('2026-03-28T12:00:00Z'), 'Europe/Bratislava').toISOString()).toBe('2026-03-29T04:00:00.000Z');
    expect(defaultReminder(new Date('2026-10-24T12:00:00Z'), 'Europe/Bratislava').toISOString()).toBe('2026-10-25T05:00:00.000Z');
  });

  it('property: always 06:00 local, on the day after the local day of now, and in the future', () => {
    const zones = fc.constantFrom('UTC', 'Europe/Bratislava', 'America/Santiago', 'Asia/Kathmandu', 'Pacific/Chatham');
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2060-01-01'), noInvalidDate: true }), zones, (now, zone) => {
        const r = defaultReminder(now, zone);
        const w = wallTimeOf(r, zone);
        const today = wallTimeOf(now, zone);
        expect([w.hour, w.minute]).toEqual([6, 0]);
        expect(Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(today.year, today.month - 1, today.day)).toBe(86_400_000);
        expect(r.getTime()).toBeGreaterThan(now.getTime());
      }),
    );
  });
});

describe('a reminder is due from its instant while the activity is open', () => {
  const at = new Date('2026-11-26T06:00:00Z');
  it('at or before the instant, open or without status: due; later, closed, or none: not due', () => {
    expect(reminderDue({ scheduledstart: '2026-11-26T06:00:00.000Z', status: 1 }, at)).toBe(true);
    expect(reminderDue({ scheduledstart: '2026-11-26T05:59:59.000Z' }, at)).toBe(true);
    expect(reminderDue({ scheduledstart: '2026-11-26T06:00:00.001Z', status: 1 }, at)).toBe(false);
    expect(reminderDue({ scheduledstart: '2026-11-26T05:00:00.000Z', status: 2 }, at)).toBe(false);
    expect(reminderDue({ scheduledstart: '2026-11-26T05:00:00.000Z', status: 3 }, at)).toBe(false);
    expect(reminderDue({ scheduledstart: null }, at)).toBe(false);
    expect(reminderDue({ scheduledstart: 'tomorrow' }, at)).toBe(false);
  });
});
