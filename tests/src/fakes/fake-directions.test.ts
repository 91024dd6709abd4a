import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { GoogleDirectionsService } from '@tessera/adapters-graph';
import { directionsUrl, readDirectionsLegs } from '@tessera/core/internal';
import { expectedLeg, startFakeDirections, type FakeDirections } from './fake-directions.js';

/** The directions adapter against Google's documented answers on loopback (spec 002 section 7). */
let fake: FakeDirections;
beforeAll(async () => {
  fake = await startFakeDirections();
});
afterAll(() => fake.close());

const BA = { lat: 48.1486, lon: 17.1077 };
const TT = { lat: 48.3774, lon: 17.5872 };
const service = () => new GoogleDirectionsService({ baseUrl: fake.url, apiKey: 'test-key' }, 2000);

describe('the directions service reads routes[0].legs (distance.value metres, duration.value seconds)', () => {
  it('OK: one leg per pair of stops, as the client reads it too', async () => {
    fake.mode = 'normal';
    const answer = await service().directions({ origin: BA, destination: BA, waypoints: [TT] });
    if (!isRight(answer)) throw new Error(answer.left.message);
    const there = expectedLeg({ lat: BA.lat, lng: BA.lon }, { lat: TT.lat, lng: TT.lon });
    expect(answer.right.legs).toEqual([
      { distanceMetres: there.metres, durationSeconds: there.seconds },
      { distanceMetres: there.metres, durationSeconds: there.seconds },
    ]);
    expect(readDirectionsLegs(answer.right.body)).toEqual({ _tag: 'Right', right: answer.right.legs });
    const asked = fake.requests.at(-1)!.query;
    expect([asked.get('origin'), asked.get('destination'), asked.get('waypoints'), asked.get('key')]).toEqual(['48.1486,17.1077', '48.1486,17.1077', '48.3774,17.5872', 'test-key']);
    expect(new URL(directionsUrl([BA, TT, BA])).searchParams.get('waypoints')).toBe(asked.get('waypoints'));
  });

  it('ZERO_RESULTS is an answer without legs; REQUEST_DENIED, OVER_QUERY_LIMIT and a 500 are failures', async () => {
    fake.mode = 'zero';
    const zero = await service().directions({ origin: BA, destination: TT, waypoints: [] });
    expect(isRight(zero) && zero.right.legs).toEqual([]);
    for (const mode of ['denied', 'overLimit', 'broken'] as const) {
      fake.mode = mode;
      const failed = await service().directions({ origin: BA, destination: TT, waypoints: [] });
      expect(isLeft(failed) && failed.left.kind).toBe('UPSTREAM');
    }
    fake.mode = 'normal';
  });
});
