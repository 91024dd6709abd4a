import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { applyDirections, directionsUrl, formatLegDuration, kmOfMetres, readDirectionsLegs, routeStops } from './directions.js';
import { routeTotals, type Leg } from './route.js';

const leg = (id: string, start: string, end: string, extra: Partial<Leg> = {}): Leg => ({ id, startdate: start, enddate: end, masstransit: 'no', ...extra });
const at = (lat: number, lon: number): Partial<Leg> => ({ latitude: lat, longitude: lon });
const BA = at(48.1486, 17.1077);
const TT = at(48.3774, 17.5872);
const NR = at(48.3069, 18.0864);

/** Google's documented directions answer (routes[0].legs with distance.value metres, duration.value seconds). */
const answer = (legs: Array<[number, number]>) => ({
  status: 'OK',
  geocoded_waypoints: [],
  routes: [{ summary: 'D1', legs: legs.map(([m, s]) => ({ distance: { text: `${m / 1000} km`, value: m }, duration: { text: `${Math.round(s / 60)} mins`, value: s }, steps: [] })) }],
});

describe('route distances come from a directions service (spec 002 sections 4 and 7)', () => {
  it('only when all legs have coordinates and there are at least 2 distinct stops', () => {
    expect(routeStops([leg('a', 'x', 'x', BA), leg('b', 'x', 'x', TT)])).toEqual([{ lat: 48.1486, lon: 17.1077 }, { lat: 48.3774, lon: 17.5872 }]);
    expect(routeStops([leg('a', 'x', 'x', BA), leg('b', 'x', 'x')])).toBeNull();
    expect(routeStops([leg('a', 'x', 'x', BA), leg('b', 'x', 'x', BA)])).toBeNull();
    expect(routeStops([leg('a', 'x', 'x', BA)])).toBeNull();
    expect(routeStops([leg('a', 'x', 'x', BA), leg('b', 'x', 'x', { latitude: Number.NaN, longitude: 1 })])).toBeNull();
  });

  it('the request names origin, destination and the waypoints pipe-separated as lat,lon', () => {
    const url = new URL(directionsUrl([{ lat: 48.1, lon: 17.1 }, { lat: 48.3, lon: 17.5 }, { lat: 48.2, lon: 18 }, { lat: 48.1, lon: 17.1 }]));
    expect(url.searchParams.get('origin')).toBe('48.1,17.1');
    expect(url.searchParams.get('destination')).toBe('48.1,17.1');
    expect(url.searchParams.get('waypoints')).toBe('48.3,17.5|48.2,18');
    expect(new URL(directionsUrl([{ lat: 1, lon: 2 }, { lat: 3, lon: 4 }])).searchParams.has('waypoints')).toBe(false);
  });

  it('reads routes[0].legs: distance.value metres and duration.value seconds; other statuses are no route', () => {
    expect(readDirectionsLegs(answer([[47123, 3000]]))).toEqual(E.right([{ distanceMetres: 47123, durationSeconds: 3000 }]));
    expect(E.isLeft(readDirectionsLegs({ status: 'ZERO_RESULTS', routes: [] }))).toBe(true);
    expect(E.isLeft(readDirectionsLegs({ status: 'OK', routes: [{ legs: [{ distance: { text: '1 km' } }] }] }))).toBe(true);
    expect(E.isLeft(readDirectionsLegs(null))).toBe(true);
  });

  it("each leg after the first gets its distance and duration, and its end is the previous leg's start plus the duration", () => {
    const legs = [leg('a', '2024-05-06T06:00:00.000Z', '2024-05-06T06:00:00.000Z', BA), leg('b', '2024-05-06T09:00:00.000Z', '2024-05-06T16:00:00.000Z', TT), leg('c', '2024-05-06T12:00:00.000Z', '2024-05-06T16:00:00.000Z', BA)];
    const out = E.getOrElseW(() => [] as Leg[])(applyDirections(legs, [{ distanceMetres: 47_126, durationSeconds: 2700 }, { distanceMetres: 47_004, durationSeconds: 3000 }]));
    expect(out.map((l) => [l.distance, l.duration, l.enddate])).toEqual([
      [0, null, '2024-05-06T06:00:00.000Z'],
      [47.13, 2700, '2024-05-06T06:45:00.000Z'],
      [47, 3000, '2024-05-06T09:50:00.000Z'],
    ]);
    expect(routeTotals(out).total_distance).toBe(94.13);
    expect(E.isLeft(applyDirections(legs, [{ distanceMetres: 1, durationSeconds: 1 }]))).toBe(true);
  });

  it('duration is shown as h:mm', () => {
    expect(formatLegDuration(0)).toBe('0:00');
    expect(formatLegDuration(2700)).toBe('0:45');
    expect(formatLegDuration(3 * 3600 + 5 * 60 + 59)).toBe('3:05');
    expect(formatLegDuration(null)).toBe('');
  });

  it('property: h:mm reads back as the whole minutes of the duration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * 3600 }), (s) => {
        const [h, m] = formatLegDuration(s).split(':').map(Number);
        expect(m).toBeLessThan(60);
        expect(h * 60 + m).toBe(Math.floor(s / 60));
      }),
    );
  });

  it('property: the route distance is the sum of the answered metres in km, within 5 m a leg', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000_000 }), { minLength: 1, maxLength: 10 }), (metres) => {
        const legs = [leg('0', '2024-05-06T06:00:00.000Z', '2024-05-06T06:00:00.000Z', NR), ...metres.map((_, i) => leg(String(i + 1), '2024-05-06T06:00:00.000Z', '2024-05-06T16:00:00.000Z', i % 2 ? NR : TT))];
        const out = applyDirections(legs, metres.map((m) => ({ distanceMetres: m, durationSeconds: 60 })));
        if (E.isLeft(out)) throw new Error(out.left.message);
        const km = routeTotals(out.right).total_distance;
        expect(Math.abs(km * 1000 - metres.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(5 * metres.length + 1e-6);
        expect(kmOfMetres(metres[0])).toBe(Math.round(metres[0] / 10) / 100);
      }),
    );
  });
});
