import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { clampToBounds, followStart, legDay, sameTimeOnDay, parseDiet, parseLegs, reportFields, setLegEnd, setLegStart } from './report.js';
import { routeDateBounds, type Leg } from './route.js';
import { compareCivil } from '../dates/civil.js';

const tz = 'Europe/Bratislava';
const leg = (id: string, start: string, end: string, extra: Partial<Leg> = {}): Leg => ({ id, startdate: start, enddate: end, masstransit: 'no', ...extra });
const ok = <A>(e: E.Either<{ message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message);
  return e.right;
};
const home = { location: { id: 'l1', name: 'route_location', label: 'Bratislava' }, address: 'Mlynské nivy 5', latitude: 48.14, longitude: 17.12 };

describe('the report record (spec 002 section 3: legs_json, diet_json, name_locations, totals, start and end)', () => {
  it('legs_json and diet_json are read back; empty text is none; broken text is an error value', () => {
    const legs = [leg('a', '2024-05-06T06:00:00.000Z', '2024-05-06T06:00:00.000Z', { distance: '12,5 km' })];
    expect(ok(parseLegs(JSON.stringify(legs)))).toEqual(legs);
    expect(ok(parseLegs(''))).toEqual([]);
    expect(ok(parseDiet(null))).toEqual([]);
    expect(E.isLeft(parseLegs('{'))).toBe(true);
    expect(E.isLeft(parseLegs('[{"id":1}]'))).toBe(true);
    expect(E.isLeft(parseDiet('[{"date":"2024-05-06"}]'))).toBe(true);
  });

  it('the fields saved with the record follow the legs and diet', () => {
    const legs = [
      leg('a', '2024-05-06T05:00:00.000Z', '2024-05-06T05:00:00.000Z', home),
      leg('b', '2024-05-06T05:00:00.000Z', '2024-05-06T13:00:00.000Z', { address: 'Hlavná 12, Trnava', distance: 47.1, travel_cost: '7.5', food_cost: 12 }),
      leg('c', '2024-05-06T13:00:00.000Z', '2024-05-06T16:00:00.000Z', { ...home, distance: 47.1, masstransit: 'bus', other_cost: '1.2' }),
    ];
    const diet = [{ date: '2024-05-06', hours: 11, meals: 2, claim: 1, maxClaim: 8.8 }];
    const f = reportFields(legs, diet);
    expect(f).toMatchObject({
      name_locations: 'Bratislava - Hlavná 12, Trnava - Bratislava',
      total_distance: 47.1,
      total_expense: 20.7,
      startdate: '2024-05-06T05:00:00.000Z',
      enddate: '2024-05-06T16:00:00.000Z',
      start_locationid: home.location,
      end_locationid: home.location,
    });
    expect(JSON.parse(String(f.legs_json))).toEqual(legs);
    expect(JSON.parse(String(f.diet_json))).toEqual(diet);
  });
});

describe('leg dates in the grid (spec 002 sections 4 and 5)', () => {
  const legs = [
    leg('a', '2024-05-06T06:00:00.000Z', '2024-05-06T06:00:00.000Z'),
    leg('b', '2024-05-06T06:00:00.000Z', '2024-05-06T16:00:00.000Z'),
    leg('c', '2024-05-06T09:00:00.000Z', '2024-05-06T16:00:00.000Z'),
  ];

  it('a start moved to another day shifts the later legs of that day', () => {
    const out = ok(setLegStart(legs, 1, '2024-05-07T07:00:00.000Z', tz));
    expect(out.map((l) => [l.startdate, l.enddate])).toEqual([
      ['2024-05-06T06:00:00.000Z', '2024-05-06T06:00:00.000Z'],
      ['2024-05-07T07:00:00.000Z', '2024-05-07T16:00:00.000Z'],
      ['2024-05-07T09:00:00.000Z', '2024-05-07T16:00:00.000Z'],
    ]);
    expect(ok(setLegStart(legs, 0, '2024-05-06T07:00:00.000Z', tz))[0]).toMatchObject({ startdate: '2024-05-06T07:00:00.000Z', enddate: '2024-05-06T06:00:00.000Z' });
    expect(E.isLeft(setLegStart(legs, 1, 'tomorrow', tz))).toBe(true);
  });

  it('an end is set as picked; no date is refused', () => {
    expect(E.isLeft(setLegEnd(legs, 1, 'soon'))).toBe(true);
    expect(ok(setLegEnd(legs, 1, '2024-05-06T17:00:00.000Z'))[1].enddate).toBe('2024-05-06T17:00:00.000Z');
  });

  it('the date part changes with the time of day kept', () => {
    expect(sameTimeOnDay('2024-05-06T06:30:00.000Z', { year: 2024, month: 6, day: 2 }, tz)).toBe('2024-06-02T06:30:00.000Z');
    expect(legDay(legs[2], tz)).toBe('2024-05-06');
  });

  it('property: a date the picker gives stays from the first of the report month to the 7th of the next', () => {
    const day = fc.record({ year: fc.integer({ min: 1990, max: 2100 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) });
    fc.assert(
      fc.property(day, day, (report, picked) => {
        const b = routeDateBounds(report);
        const c = clampToBounds(picked, b);
        expect(compareCivil(c, b.min)).toBeGreaterThanOrEqual(0);
        expect(compareCivil(c, b.max)).toBeLessThanOrEqual(0);
        if (compareCivil(picked, b.min) >= 0 && compareCivil(picked, b.max) <= 0) expect(c).toEqual(picked);
        expect(clampToBounds(c, b)).toEqual(c);
      }),
    );
  });
});

describe('the end location (spec 002 section 4)', () => {
  it('locked, the last leg takes the first leg’s location, address and coordinates', () => {
    const legs = [leg('a', 'x', 'x', home), leg('b', 'x', 'x', { address: 'Trnava', latitude: 48.3, longitude: 17.5 }), leg('c', 'x', 'x', { address: 'elsewhere' })];
    const out = followStart(legs, true);
    expect(out[2]).toMatchObject({ location: home.location, address: home.address, latitude: home.latitude, longitude: home.longitude });
    expect(out[1]).toEqual(legs[1]);
  });
  it('unlocked, only an equal location copies the address and coordinates', () => {
    const legs = [leg('a', 'x', 'x', home), leg('c', 'x', 'x', { address: 'elsewhere' })];
    expect(followStart(legs, false)).toEqual(legs);
    const same = [leg('a', 'x', 'x', home), leg('c', 'x', 'x', { location: home.location, address: 'old' })];
    expect(followStart(same, false)[1]).toMatchObject({ address: home.address, latitude: home.latitude });
  });
});
