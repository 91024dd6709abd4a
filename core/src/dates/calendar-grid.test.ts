import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, formatCivil, isoWeekday, type CivilDate } from './civil.js';
import { civilDateOf } from './zoned.js';
import { calendarFetchWindow } from './calendar-window.js';
import {
  CALENDAR_MODES,
  daysShown,
  movedSpan,
  newEventSpan,
  overlapColumns,
  resizedSpan,
  segmentOnDay,
  SLOTS_PER_DAY,
  slotOfMinute,
  slotStart,
  snapInstant,
  snapMinutes,
  stepDate,
} from './calendar-grid.js';

const d = (year: number, month: number, day: number): CivilDate => ({ year, month, day });
const civil = fc.record({ year: fc.integer({ min: 1950, max: 2100 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) });
const zone = fc.constantFrom('UTC', 'Europe/Bratislava', 'America/Santiago', 'Asia/Kathmandu');
const QUARTER = 900_000;

describe('calendar views (spec 001 section 2: month, day, three-day, working week, week; weeks start Monday)', () => {
  it('the week of Wednesday 13 March 2024 is Monday 11 to Sunday 17; the working week Monday to Friday', () => {
    expect(daysShown('week', d(2024, 3, 13)).map(formatCivil)).toEqual(['2024-03-11', '2024-03-12', '2024-03-13', '2024-03-14', '2024-03-15', '2024-03-16', '2024-03-17']);
    expect(daysShown('workweek', d(2024, 3, 13)).map(formatCivil)).toEqual(['2024-03-11', '2024-03-12', '2024-03-13', '2024-03-14', '2024-03-15']);
    expect(daysShown('threeday', d(2024, 3, 13)).map(formatCivil)).toEqual(['2024-03-13', '2024-03-14', '2024-03-15']);
    expect(daysShown('day', d(2024, 3, 13)).map(formatCivil)).toEqual(['2024-03-13']);
  });

  it('March 2024 shows the whole weeks from Monday 26 February to Sunday 31 March', () => {
    const days = daysShown('month', d(2024, 3, 20));
    expect([formatCivil(days[0]), formatCivil(days[days.length - 1]), days.length]).toEqual(['2024-02-26', '2024-03-31', 35]);
  });

  it('property: views span 1, 3, 5 or 7 days; week views start on Monday; a month is 4 to 6 whole weeks holding all its days', () => {
    fc.assert(
      fc.property(civil, fc.constantFrom(...CALENDAR_MODES), (day, mode) => {
        const days = daysShown(mode, day);
        if (mode === 'month') {
          expect([28, 35, 42]).toContain(days.length);
          expect(isoWeekday(days[0])).toBe(1);
          expect(isoWeekday(days[days.length - 1])).toBe(7);
          expect(days.some((x) => x.month === day.month && x.day === 1)).toBe(true);
        } else {
          expect(days.length).toBe({ day: 1, threeday: 3, workweek: 5, week: 7 }[mode]);
          if (mode === 'week' || mode === 'workweek') expect(isoWeekday(days[0])).toBe(1);
        }
        // A Saturday or Sunday is not in its working week (the view shows that week's Monday to Friday).
        if (mode !== 'workweek' || isoWeekday(day) <= 5) expect(days.some((x) => formatCivil(x) === formatCivil(day))).toBe(true);
      }),
    );
  });

  it('property: every day a view shows lies in the fetch window of the selected date (first of month -10 / +40 days)', () => {
    fc.assert(
      fc.property(civil, fc.constantFrom(...CALENDAR_MODES), (day, mode) => {
        const w = calendarFetchWindow(new Date(Date.UTC(day.year, day.month - 1, day.day, 12)), 'UTC');
        const [from, to] = [formatCivil(civilDateOf(w.start, 'UTC')), formatCivil(civilDateOf(w.end, 'UTC'))];
        for (const x of daysShown(mode, day)) expect(formatCivil(x) >= from && formatCivil(x) < to).toBe(true);
      }),
    );
  });

  it('back and forward step by the view: a month, a week (both week views), three days, a day; they undo each other', () => {
    expect(formatCivil(stepDate('month', d(2024, 1, 31), 1))).toBe('2024-02-29');
    expect(formatCivil(stepDate('workweek', d(2024, 3, 13), 1))).toBe('2024-03-20');
    expect(formatCivil(stepDate('threeday', d(2024, 3, 13), -1))).toBe('2024-03-10');
    fc.assert(
      fc.property(civil, fc.constantFrom('week', 'workweek', 'threeday', 'day' as const), (day, mode) => {
        expect(formatCivil(stepDate(mode, stepDate(mode, day, 1), -1))).toBe(formatCivil(day));
      }),
    );
  });
});

describe('slots: 96 rows of 15 minutes a day (spec 001 section 9)', () => {
  it('slot 0 is midnight, slot 95 is 23:45, slot 36 is 09:00 local', () => {
    expect(SLOTS_PER_DAY).toBe(96);
    expect(slotStart(d(2024, 3, 13), 36, 'Europe/Bratislava').toISOString()).toBe('2024-03-13T08:00:00.000Z');
    expect([slotOfMinute(0), slotOfMinute(14), slotOfMinute(15), slotOfMinute(1439)]).toEqual([0, 0, 1, 95]);
  });

  it('a double click creates 09:00-10:00 in a month cell and one hour from the slot in a grid (spec 001 section 9)', () => {
    const month = newEventSpan(d(2024, 3, 13), undefined, 'Europe/Bratislava');
    expect([month.start.toISOString(), month.end.toISOString()]).toEqual(['2024-03-13T08:00:00.000Z', '2024-03-13T09:00:00.000Z']);
    const grid = newEventSpan(d(2024, 3, 13), 58, 'UTC');
    expect([grid.start.toISOString(), grid.end.toISOString()]).toEqual(['2024-03-13T14:30:00.000Z', '2024-03-13T15:30:00.000Z']);
  });

  it('property: snapping is idempotent and moves by at most half a slot', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (m) => {
        const s = snapMinutes(m);
        expect(snapMinutes(s)).toBe(s);
        expect(Math.abs(s - m)).toBeLessThanOrEqual(7.5);
        expect(s % 15 === 0).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (ms) => {
        const s = snapInstant(new Date(ms));
        expect(snapInstant(s).getTime()).toBe(s.getTime());
        expect(s.getTime() % QUARTER).toBe(0);
      }),
    );
  });
});

describe('drag to move and resize (spec 001 section 2), snapped to 15 minutes', () => {
  const span = { start: new Date('2024-03-13T08:00:00Z'), end: new Date('2024-03-13T09:30:00Z') };

  it('two hours later keeps the length; a day to the right keeps the wall clock over a DST change', () => {
    const later = movedSpan(span, 0, 120, 'Europe/Bratislava');
    expect([later.start.toISOString(), later.end.toISOString()]).toEqual(['2024-03-13T10:00:00.000Z', '2024-03-13T11:30:00.000Z']);
    // 30 March 10:00 CET -> 31 March 10:00 CEST (clocks went forward that night).
    const over = movedSpan({ start: new Date('2024-03-30T09:00:00Z'), end: new Date('2024-03-30T10:00:00Z') }, 1, 0, 'Europe/Bratislava');
    expect(over.start.toISOString()).toBe('2024-03-31T08:00:00.000Z');
  });

  it('a drag of 7 minutes snaps the start to the nearest quarter hour', () => {
    expect(movedSpan(span, 0, 7, 'UTC').start.toISOString()).toBe('2024-03-13T08:00:00.000Z');
    expect(movedSpan(span, 0, 8, 'UTC').start.toISOString()).toBe('2024-03-13T08:15:00.000Z');
  });

  it('resizing moves the end only, snapped, never shorter than one slot', () => {
    const r = resizedSpan(span, 50);
    expect([r.start.toISOString(), r.end.toISOString()]).toEqual(['2024-03-13T08:00:00.000Z', '2024-03-13T10:15:00.000Z']);
    expect(resizedSpan(span, -500).end.toISOString()).toBe('2024-03-13T08:15:00.000Z');
  });

  it('property: a move keeps the duration and lands on a quarter hour; a resize keeps the start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.integer({ min: 0, max: 3 * 1440 }),
        fc.integer({ min: -10, max: 10 }),
        fc.integer({ min: -2000, max: 2000 }),
        zone,
        (start, minutes, days, delta, tz) => {
          const s = { start: new Date(start), end: new Date(start + minutes * 60_000) };
          const m = movedSpan(s, days, delta, tz);
          expect(m.end.getTime() - m.start.getTime()).toBe(s.end.getTime() - s.start.getTime());
          expect(m.start.getTime() % QUARTER).toBe(0);
          const r = resizedSpan(s, delta);
          expect(r.start.getTime()).toBe(s.start.getTime());
          expect(r.end.getTime()).toBeGreaterThan(r.start.getTime());
        },
      ),
    );
  });
});

describe('day segments and overlap columns', () => {
  it('an event over midnight shows on both days; one inside a day from its start to its end minute', () => {
    const s = { start: new Date('2024-03-13T22:00:00Z'), end: new Date('2024-03-14T02:00:00Z') };
    expect(segmentOnDay(s, d(2024, 3, 13), 'UTC')).toEqual({ top: 1320, bottom: 1440, startsBefore: false, endsAfter: true });
    expect(segmentOnDay(s, d(2024, 3, 14), 'UTC')).toEqual({ top: 0, bottom: 120, startsBefore: true, endsAfter: false });
    expect(segmentOnDay(s, d(2024, 3, 15), 'UTC')).toBeNull();
    expect(segmentOnDay({ start: new Date('2024-03-13T08:00:00Z'), end: new Date('2024-03-14T00:00:00Z') }, d(2024, 3, 14), 'UTC')).toBeNull();
  });

  it('overlapping events share the width; a later free event takes the full width again', () => {
    expect(overlapColumns([{ top: 0, bottom: 60 }, { top: 30, bottom: 90 }, { top: 60, bottom: 120 }, { top: 200, bottom: 260 }])).toEqual([
      { column: 0, columns: 2 },
      { column: 1, columns: 2 },
      { column: 0, columns: 2 },
      { column: 0, columns: 1 },
    ]);
  });

  it('property: events in the same column never overlap', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1400 }), fc.integer({ min: 15, max: 300 })), { maxLength: 20 }), (xs) => {
        const segs = xs.map(([top, len]) => ({ top, bottom: top + len }));
        const cols = overlapColumns(segs);
        for (let i = 0; i < segs.length; i++)
          for (let j = i + 1; j < segs.length; j++)
            if (cols[i].column === cols[j].column) expect(segs[i].bottom <= segs[j].top || segs[j].bottom <= segs[i].top).toBe(true);
        cols.forEach((c) => expect(c.column).toBeLessThan(c.columns));
      }),
    );
  });

  it('a day later in the grid is one column right (addDays)', () => {
    expect(formatCivil(addDays(d(2024, 2, 28), 2))).toBe('2024-03-01');
  });
});
