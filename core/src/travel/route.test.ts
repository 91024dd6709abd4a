import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  addStop,
  applyOwnerHome,
  applyTravelDurations,
  changeLegDate,
  deleteLeg,
  dietDays,
  legDistance,
  legExpense,
  newReportLegs,
  routeDateBounds,
  routeTotals,
  STOP_OFFSET_MS,
  syncReturnLocation,
  type Leg,
} from './route.js';
import { formatCivil } from '../dates/civil.js';
import { wallTimeOf } from '../dates/zoned.js';

const tz = 'Europe/Bratislava';
const ok = <A>(e: E.Either<{ message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message);
  return e.right;
};
const ids = (): (() => string) => {
  let n = 0;
  return () => `leg-${++n}`;
};
const leg = (id: string, start: string, end: string, extra: Partial<Leg> = {}): Leg => ({ id, startdate: start, enddate: end, masstransit: 'no', ...extra });

describe('a new travel report starts with two legs (spec 002 section 4)', () => {
  it('on the report date: leg 1 08:00 to 08:00, leg 2 08:00 to 18:00, distance 0, transport no', () => {
    const legs = ok(newReportLegs('2024-03-13', { year: 2024, month: 3, day: 20 }, tz, ids()));
    expect(legs).toEqual([
      { id: 'leg-1', startdate: '2024-03-13T07:00:00.000Z', enddate: '2024-03-13T07:00:00.000Z', distance: 0, masstransit: 'no' },
      { id: 'leg-2', startdate: '2024-03-13T07:00:00.000Z', enddate: '2024-03-13T17:00:00.000Z', distance: 0, masstransit: 'no' },
    ]);
  });

  it('on today when today is outside the report month', () => {
    const legs = ok(newReportLegs('2024-03-13', { year: 2024, month: 4, day: 2 }, tz, ids()));
    expect(legs.map((l) => [l.startdate, l.enddate])).toEqual([
      ['2024-04-02T06:00:00.000Z', '2024-04-02T06:00:00.000Z'],
      ['2024-04-02T06:00:00.000Z', '2024-04-02T16:00:00.000Z'],
    ]);
  });
});

describe('leg operations', () => {
  const base = [leg('a', '2024-03-13T07:00:00.000Z', '2024-03-13T07:00:00.000Z'), leg('b', '2024-03-13T07:00:00.000Z', '2024-03-13T17:00:00.000Z', { masstransit: 'train' })];

  it('adding a stop starts it 3 hours (10800000 ms) after the previous leg, ends 18:00 that day, distance 0, same transport', () => {
    expect(STOP_OFFSET_MS).toBe(10_800_000);
    const legs = ok(addStop(base, 1, tz, () => 'new'));
    expect(legs.map((l) => l.id)).toEqual(['a', 'b', 'new']);
    expect(legs[2]).toEqual({ id: 'new', startdate: '2024-03-13T10:00:00.000Z', enddate: '2024-03-13T17:00:00.000Z', distance: 0, masstransit: 'train' });
    expect(ok(addStop(base, 0, tz, () => 'mid')).map((l) => l.id)).toEqual(['a', 'mid', 'b']);
  });

  it('a stop starting after 18:00 ends when it starts, never before', () => {
    const late = [leg('a', '2024-03-13T15:30:00.000Z', '2024-03-13T15:30:00.000Z')];
    const s = ok(addStop(late, 0, tz, () => 'x'))[1];
    expect([s.startdate, s.enddate]).toEqual(['2024-03-13T18:30:00.000Z', '2024-03-13T18:30:00.000Z']);
  });

  it('any leg except the first can be deleted', () => {
    const three = ok(addStop(base, 1, tz, () => 'c'));
    expect(E.isLeft(deleteLeg(three, 0))).toBe(true);
    expect(ok(deleteLeg(three, 1)).map((l) => l.id)).toEqual(['a', 'c']);
    expect(ok(deleteLeg(three, 2)).map((l) => l.id)).toEqual(['a', 'b']);
    expect(E.isLeft(deleteLeg(three, 3))).toBe(true);
  });

  it("changing a leg's date shifts the later legs of the same day, keeping local times", () => {
    const legs = [
      leg('a', '2024-03-13T07:00:00.000Z', '2024-03-13T07:00:00.000Z'),
      leg('b', '2024-03-13T10:00:00.000Z', '2024-03-13T12:00:00.000Z'),
      leg('c', '2024-03-13T15:00:00.000Z', '2024-03-13T17:00:00.000Z'),
      leg('d', '2024-03-14T15:00:00.000Z', '2024-03-14T17:00:00.000Z'),
    ];
    // To 1 April: summer time, so 08:00 local is 06:00 UTC.
    const moved = ok(changeLegDate(legs, 1, { year: 2024, month: 4, day: 1 }, tz));
    expect(moved.map((l) => l.startdate)).toEqual(['2024-03-13T07:00:00.000Z', '2024-04-01T09:00:00.000Z', '2024-04-01T14:00:00.000Z', '2024-03-14T15:00:00.000Z']);
    expect(moved[2].enddate).toBe('2024-04-01T16:00:00.000Z');
  });

  it("a leg's enddate is the previous leg's start plus its travel duration", () => {
    const legs = applyTravelDurations([leg('a', '2024-03-13T07:00:00.000Z', '2024-03-13T07:00:00.000Z'), leg('b', '2024-03-13T09:00:00.000Z', '2024-03-13T17:00:00.000Z', { duration: 5400 })]);
    expect(legs[1].enddate).toBe('2024-03-13T08:30:00.000Z');
    expect(legs[0].enddate).toBe('2024-03-13T07:00:00.000Z');
  });

  it('when the first and last locations are the same the last copies the first address and coordinates', () => {
    const home = { id: 'loc-1', name: 'route_location', label: 'Nitra' };
    const legs = syncReturnLocation([
      leg('a', '', '', { location: home, address: 'Main 1', latitude: 48.3, longitude: 18.1 }),
      leg('b', '', '', { location: { ...home }, address: 'old', latitude: 0, longitude: 0 }),
    ]);
    expect(legs[1]).toMatchObject({ address: 'Main 1', latitude: 48.3, longitude: 18.1 });
    const other = syncReturnLocation([legs[0], leg('b', '', '', { location: { id: 'loc-2', name: 'route_location' }, address: 'x' })]);
    expect(other[1].address).toBe('x');
  });

  it("when the owner changes the first and last legs take the owner's home location", () => {
    const three = ok(addStop(base, 0, tz, () => 'm'));
    const legs = applyOwnerHome(three, { address: 'Home 2', latitude: 1, longitude: 2 });
    expect(legs.map((l) => l.address ?? null)).toEqual(['Home 2', null, 'Home 2']);
  });

  it('the route date picker runs from the first day of the report month to the 7th of the next', () => {
    const b = routeDateBounds({ year: 2024, month: 12, day: 15 });
    expect([formatCivil(b.min), formatCivil(b.max)]).toEqual(['2024-12-01', '2025-01-07']);
  });

  it('property: adding a stop then deleting it restores the legs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 }), (i) => {
        const legs = ok(addStop(base, i, tz, () => 'tmp'));
        expect(ok(deleteLeg(legs, i + 1))).toEqual(base);
      }),
    );
  });
});

describe('routeTotals (spec 002 sections 4 and 9)', () => {
  const legs: Leg[] = [
    leg('a', '2024-03-13T07:00:00.000Z', '2024-03-13T07:00:00.000Z', { location: { id: 'l1', name: 'route_location', label: 'Nitra' }, distance: '0' }),
    leg('b', '2024-03-13T09:00:00.000Z', '2024-03-13T10:00:00.000Z', { address: 'Trnava', distance: '45,3 km', travel_cost: 10.1, food_cost: '5.20', sleep_cost: null, other_cost: 0.1, required_cost: 0.2 }),
    leg('c', '2024-03-13T12:00:00.000Z', '2024-03-13T14:00:00.000Z', { address: 'Wien', masstransit: 'train', distance: '90', travel_cost: 19.9 }),
    leg('d', '2024-03-13T15:00:00.000Z', '2024-03-13T17:00:00.000Z', { location: { id: 'l1', name: 'route_location', label: 'Nitra' }, distance: '100', custom_distance: '120.5' }),
  ];

  it('total_distance counts only legs with transport no, and custom_distance overrides', () => {
    expect(routeTotals(legs).total_distance).toBe(165.8);
    expect(legs.map(legDistance)).toEqual([0, 45.3, 0, 120.5]);
  });

  it("a leg's expense is travel + food + sleep + other + required, exact to the cent", () => {
    expect(legExpense(legs[1])).toBe(15.6);
    expect(routeTotals(legs).total_expense).toBe(35.5);
  });

  it('start and end come from the first and last legs; names join the stops', () => {
    const t = routeTotals(legs);
    expect([t.startdate, t.enddate, t.start_locationid?.id, t.end_locationid?.id]).toEqual(['2024-03-13T07:00:00.000Z', '2024-03-13T17:00:00.000Z', 'l1', 'l1']);
    expect(t.name_locations).toBe('Nitra - Trnava - Wien - Nitra');
  });

  it('property: the total expense is the exact sum of cent amounts, and only car legs add distance', () => {
    const arb = fc.array(
      fc.record({
        cents: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 5, maxLength: 5 }),
        km: fc.integer({ min: 0, max: 100_000 }),
        transport: fc.constantFrom<Leg['masstransit']>('no', 'bus', 'train'),
      }),
      { maxLength: 10 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const ls = raw.map((r, i) =>
          leg(`l${i}`, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', {
            masstransit: r.transport,
            distance: String(r.km / 100),
            travel_cost: r.cents[0] / 100,
            food_cost: r.cents[1] / 100,
            sleep_cost: r.cents[2] / 100,
            other_cost: r.cents[3] / 100,
            required_cost: r.cents[4] / 100,
          }),
        );
        const t = routeTotals(ls);
        expect(Math.round(t.total_expense * 100)).toBe(raw.reduce((s, r) => s + r.cents.reduce((a, b) => a + b, 0), 0));
        expect(Math.round(t.total_distance * 100)).toBe(raw.filter((r) => r.transport === 'no').reduce((s, r) => s + r.km, 0));
      }),
    );
  });
});

describe('the days of a route become diet entries (date, hours, meals, claim, maxClaim)', () => {
  it('a one-day trip 08:00-18:00 is 10 hours, band 1', () => {
    const legs = ok(newReportLegs('2024-03-13', { year: 2024, month: 3, day: 13 }, tz, ids()));
    expect(dietDays(legs, tz)).toEqual([{ date: '2024-03-13', hours: 10, meals: 0, claim: 8.8, maxClaim: 8.8 }]);
  });

  it('a trip over midnight splits into local days; meals chosen before are kept', () => {
    const legs = [leg('a', '2024-03-13T05:00:00.000Z', '2024-03-13T05:00:00.000Z'), leg('b', '2024-03-14T05:00:00.000Z', '2024-03-14T16:30:00.000Z')];
    const days = dietDays(legs, tz, [{ date: '2024-03-14', hours: 0, meals: 1, claim: 0, maxClaim: 0 }]);
    expect(days).toEqual([
      { date: '2024-03-13', hours: 18, meals: 0, claim: 19.5, maxClaim: 19.5 },
      { date: '2024-03-14', hours: 17.5, meals: 1, claim: 8.23, maxClaim: 13.1 },
    ]);
  });

  it('the DST day counts real hours: 00:00-24:00 local on 31 March 2024 is 23 hours', () => {
    const legs = [leg('a', '2024-03-30T23:00:00.000Z', '2024-03-30T23:00:00.000Z'), leg('b', '2024-03-31T12:00:00.000Z', '2024-03-31T22:00:00.000Z')];
    expect(dietDays(legs, tz)).toEqual([{ date: '2024-03-31', hours: 23, meals: 0, claim: 19.5, maxClaim: 19.5 }]);
  });

  it('property: the hours of the days add up to the trip length, each day at most 25 hours', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2030, 0, 1) }), fc.integer({ min: 1, max: 10 * 24 * 60 }), (start, minutes) => {
        const s = new Date(start - (start % 60_000)).toISOString();
        const e = new Date(start - (start % 60_000) + minutes * 60_000).toISOString();
        const days = dietDays([leg('a', s, s), leg('b', s, e)], tz);
        const total = days.reduce((sum, d) => sum + Math.round(d.hours * 60), 0);
        expect(Math.abs(total - minutes)).toBeLessThanOrEqual(days.length);
        for (const d of days) {
          expect(d.hours).toBeLessThanOrEqual(25);
          expect(d.claim).toBeLessThanOrEqual(d.maxClaim);
        }
        expect(days[0].date).toBe(formatCivil(wallTimeOf(new Date(s), tz)));
      }),
    );
  });
});
