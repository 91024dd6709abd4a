import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  AGE_OPTIONS,
  ageBirthRange,
  checkDayFilterDate,
  civilRange,
  DATE_RANGE_OPTIONS,
  dateRange,
  dayRange,
  weekNumberRange,
  type DateRange,
  type DateRangeOption,
} from './date-range.js';
import { addDays, ageInYears, compareCivil, formatCivil, isoWeek, isoWeekday, mondayOfIsoWeek, isoWeeksInYear } from './civil.js';
import { civilDateOf, instantOfWallTime, offsetAt, wallTimeOf } from './zoned.js';

const ok = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};
const iso = (r: DateRange): [string, string] => [r.start.toISOString(), r.end.toISOString()];

const ZONES = ['UTC', 'Europe/Bratislava', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];
const zone = fc.constantFrom(...ZONES);
const instant = fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) }).map((ms) => new Date(ms));
const option = fc.constantFrom(...DATE_RANGE_OPTIONS);

describe('dateRange: date quick options as half-open ranges in the user time zone (spec 001 section 2)', () => {
  // Wednesday 13 March 2024, 10:30 in Bratislava (UTC+1).
  const ref = new Date('2024-03-13T09:30:00Z');
  const tz = 'Europe/Bratislava';
  it.each<[DateRangeOption, string, string]>([
    ['today', '2024-03-12T23:00:00.000Z', '2024-03-13T23:00:00.000Z'],
    ['tomorrow', '2024-03-13T23:00:00.000Z', '2024-03-14T23:00:00.000Z'],
    ['yesterday', '2024-03-11T23:00:00.000Z', '2024-03-12T23:00:00.000Z'],
    ['this-week', '2024-03-10T23:00:00.000Z', '2024-03-17T23:00:00.000Z'],
    ['next-week', '2024-03-17T23:00:00.000Z', '2024-03-24T23:00:00.000Z'],
    // Summer time starts on 31 March: the previous Monday midnight is UTC+1, the next UTC+2.
    ['previous-week', '2024-03-03T23:00:00.000Z', '2024-03-10T23:00:00.000Z'],
    ['this-month', '2024-02-29T23:00:00.000Z', '2024-03-31T22:00:00.000Z'],
    ['next-month', '2024-03-31T22:00:00.000Z', '2024-04-30T22:00:00.000Z'],
    ['previous-month', '2024-01-31T23:00:00.000Z', '2024-02-29T23:00:00.000Z'],
    ['this-year', '2023-12-31T23:00:00.000Z', '2024-12-31T23:00:00.000Z'],
    ['next-year', '2024-12-31T23:00:00.000Z', '2025-12-31T23:00:00.000Z'],
    ['previous-year', '2022-12-31T23:00:00.000Z', '2023-12-31T23:00:00.000Z'],
  ])('%s of Wednesday 2024-03-13 in Bratislava is [%s, %s)', (opt, start, end) => {
    expect(iso(ok(dateRange(opt, ref, tz)))).toEqual([start, end]);
  });

  it('weeks start on Monday: on Sunday 2024-03-17 this week began Monday 11 March', () => {
    const r = civilRange('this-week', { year: 2024, month: 3, day: 17 });
    expect([formatCivil(r.from), formatCivil(r.to)]).toEqual(['2024-03-11', '2024-03-18']);
  });

  it('the day of "today" is the local day: 23:30 UTC on 13 March is already 14 March in Bratislava', () => {
    expect(iso(ok(dateRange('today', new Date('2024-03-13T23:30:00Z'), tz)))).toEqual([
      '2024-03-13T23:00:00.000Z',
      '2024-03-14T23:00:00.000Z',
    ]);
  });

  it('DST: the spring-forward day lasts 23 hours and the fall-back day 25 hours', () => {
    const spring = ok(dateRange('today', new Date('2024-03-31T12:00:00Z'), tz));
    const autumn = ok(dateRange('today', new Date('2024-10-27T12:00:00Z'), tz));
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3_600_000);
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3_600_000);
  });

  it('DST at midnight: in Santiago on 2024-09-08 midnight does not exist, so the day starts at 01:00 (04:00 UTC)', () => {
    expect(iso(ok(dateRange('today', new Date('2024-09-08T15:00:00Z'), 'America/Santiago')))).toEqual([
      '2024-09-08T04:00:00.000Z',
      '2024-09-09T03:00:00.000Z',
    ]);
  });

  it('an invalid reference date is an input error, not an exception', () => {
    const r = dateRange('today', new Date(Number.NaN), tz);
    expect(E.isLeft(r) && r.left.message).toBe('Invalid reference date');
  });

  it('an unknown time zone is an input error, not an exception', () => {
    const r = dateRange('today', ref, 'Mars/Olympus');
    expect(E.isLeft(r) && r.left.message).toBe('Invalid time zone: Mars/Olympus');
  });

  it('property: every range is non-empty, half-open and starts at the first instant of a local day', () => {
    fc.assert(
      fc.property(option, instant, zone, (opt, ref, tz) => {
        const r = ok(dateRange(opt, ref, tz));
        expect(r.start.getTime()).toBeLessThan(r.end.getTime());
        // One millisecond before the start is the previous local day.
        const before = civilDateOf(new Date(r.start.getTime() - 1), tz);
        expect(compareCivil(before, civilDateOf(r.start, tz))).toBeLessThan(0);
        // It is local midnight, unless midnight fell into a DST gap and the day began at the jump.
        const w = wallTimeOf(r.start, tz);
        const atMidnight = w.hour === 0 && w.minute === 0 && w.second === 0;
        expect(atMidnight || offsetAt(r.start.getTime() - 1, tz) !== offsetAt(r.start.getTime(), tz)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: today, this week, this month and this year contain the reference instant', () => {
    fc.assert(
      fc.property(fc.constantFrom<DateRangeOption>('today', 'this-week', 'this-month', 'this-year'), instant, zone, (opt, ref, tz) => {
        const r = ok(dateRange(opt, ref, tz));
        expect(r.start.getTime() <= ref.getTime() && ref.getTime() < r.end.getTime()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: previous, this and next periods tile time without gap or overlap', () => {
    const triples: Array<[DateRangeOption, DateRangeOption, DateRangeOption]> = [
      ['yesterday', 'today', 'tomorrow'],
      ['previous-week', 'this-week', 'next-week'],
      ['previous-month', 'this-month', 'next-month'],
      ['previous-year', 'this-year', 'next-year'],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...triples), instant, zone, ([p, c, n], ref, tz) => {
        const [a, b, d] = [p, c, n].map((o) => ok(dateRange(o, ref, tz)));
        expect(a.end.getTime()).toBe(b.start.getTime());
        expect(b.end.getTime()).toBe(d.start.getTime());
      }),
      { numRuns: 300 },
    );
  });

  it('property: a week range begins on a Monday and spans 7 local days', () => {
    fc.assert(
      fc.property(fc.constantFrom<DateRangeOption>('previous-week', 'this-week', 'next-week'), instant, zone, (opt, ref, tz) => {
        const r = ok(dateRange(opt, ref, tz));
        const from = civilDateOf(r.start, tz);
        expect(isoWeekday(from)).toBe(1);
        expect(formatCivil(civilDateOf(r.end, tz))).toBe(formatCivil(addDays(from, 7)));
      }),
      { numRuns: 300 },
    );
  });

  it('property: a local wall time converts to an instant and back unchanged, except inside a DST gap', () => {
    fc.assert(
      fc.property(instant, zone, (ref, tz) => {
        const w = wallTimeOf(ref, tz);
        expect(instantOfWallTime(w, tz).getTime() <= ref.getTime()).toBe(true);
        expect(wallTimeOf(instantOfWallTime(w, tz), tz)).toEqual(w);
      }),
      { numRuns: 300 },
    );
  });
});

describe('day filter: years 1801 to 2199 only (spec 001 section 2)', () => {
  it.each([
    [1800, false],
    [1801, true],
    [2024, true],
    [2199, true],
    [2200, false],
  ])('year %i accepted: %s', (year, accepted) => {
    expect(E.isRight(checkDayFilterDate({ year, month: 6, day: 1 }))).toBe(accepted);
  });

  it('the day 2024-03-31 in Bratislava is its 23 hours', () => {
    expect(iso(ok(dayRange({ year: 2024, month: 3, day: 31 }, 'Europe/Bratislava')))).toEqual([
      '2024-03-30T23:00:00.000Z',
      '2024-03-31T22:00:00.000Z',
    ]);
  });

  it('property: a day outside 1801-2199 is refused with the limits in the message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 1, max: 1800 }), fc.integer({ min: 2200, max: 9999 })), (year) => {
        const r = dayRange({ year, month: 1, day: 1 }, 'UTC');
        expect(E.isLeft(r) && r.left.message).toBe('The year must be between 1801 and 2199');
      }),
    );
  });
});

describe('week numbers run 1 to 53 (ISO weeks, Monday start)', () => {
  it.each([
    [2024, 0, false],
    [2024, 1, true],
    [2024, 52, true],
    [2024, 53, false],
    [2020, 53, true],
    [2026, 53, true],
    [2024, 54, false],
  ])('year %i week %i accepted: %s', (year, week, accepted) => {
    expect(E.isRight(weekNumberRange(year, week))).toBe(accepted);
  });

  it('week 1 of 2025 starts on Monday 30 December 2024', () => {
    expect(formatCivil(ok(weekNumberRange(2025, 1)).from)).toBe('2024-12-30');
  });

  it('property: the Monday of ISO week (y, w) lies in week (y, w)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1801, max: 2199 }), fc.integer({ min: 1, max: 53 }), (year, week) => {
        fc.pre(week <= isoWeeksInYear(year));
        expect(isoWeek(mondayOfIsoWeek(year, week))).toEqual({ year, week });
      }),
    );
  });
});

describe('age quick filter: options 0 to 99 (spec 002 section 9)', () => {
  it('offers exactly the ages 0 to 99', () => {
    expect(AGE_OPTIONS).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(E.isLeft(ageBirthRange(100, { year: 2024, month: 1, day: 1 }))).toBe(true);
    expect(E.isLeft(ageBirthRange(-1, { year: 2024, month: 1, day: 1 }))).toBe(true);
  });

  it('aged 30 on 2024-03-13 means born from 1993-03-14 to 1994-03-13', () => {
    const r = ok(ageBirthRange(30, { year: 2024, month: 3, day: 13 }));
    expect([formatCivil(r.from), formatCivil(addDays(r.to, -1))]).toEqual(['1993-03-14', '1994-03-13']);
  });

  const civil = fc
    .record({ year: fc.integer({ min: 1801, max: 2199 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
    .chain((d) => fc.constantFrom(d, { ...d, day: d.month === 2 ? 29 : 30 }, { ...d, day: d.month === 2 ? 28 : 31 }))
    .filter((d) => !(d.month === 2 && d.day === 29 && !((d.year % 4 === 0 && d.year % 100 !== 0) || d.year % 400 === 0)))
    .filter((d) => !([4, 6, 9, 11].includes(d.month) && d.day === 31));

  it('property: a birth date is in the range of age n exactly when the person is n years old', () => {
    fc.assert(
      fc.property(civil, civil, (birth, today) => {
        fc.pre(compareCivil(birth, today) <= 0);
        const age = ageInYears(birth, today);
        fc.pre(age <= 99);
        const r = ok(ageBirthRange(age, today));
        expect(compareCivil(r.from, birth) <= 0 && compareCivil(birth, r.to) < 0).toBe(true);
        if (age > 0) {
          const younger = ok(ageBirthRange(age - 1, today));
          expect(compareCivil(younger.from, r.to)).toBe(0);
        }
      }),
    );
  });

  it('a 29 February birthday counts from 1 March in a common year', () => {
    expect(ageInYears({ year: 2000, month: 2, day: 29 }, { year: 2001, month: 2, day: 28 })).toBe(0);
    expect(ageInYears({ year: 2000, month: 2, day: 29 }, { year: 2001, month: 3, day: 1 })).toBe(1);
  });
});
