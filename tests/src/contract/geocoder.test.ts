import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { GeocodeCandidate, Geocoder } from '@tessera/core/internal';
import { InMemoryGeocoder, NominatimGeocoder, RequestSpacing } from '@tessera/adapters-graph';
import { FAKE_PLACES, startFakeNominatim, type FakeNominatim } from '../fakes/fake-nominatim.js';

/**
 * The Geocoder port's contract (core/src/ports/geocoder.ts; spec 001 "Geocoding", issue 14), one body
 * for every implementation: Nominatim against a loopback server that answers as Nominatim documents,
 * and the in-memory geocoder over the same places.
 */
type Fixture = { geocoder: Geocoder; close(): Promise<void> };

let fake: FakeNominatim;
beforeAll(async () => {
  fake = await startFakeNominatim();
});
afterAll(async () => fake?.close());

const nominatim = (minIntervalMs = 0, timeoutMs = 2000) => new NominatimGeocoder({ baseUrl: fake.url, userAgent: 'Tessera-test/1 (contract)', minIntervalMs, timeoutMs });

const fixtures: Array<[string, () => Promise<Fixture>]> = [
  ['NominatimGeocoder (loopback fake)', async () => ({ geocoder: nominatim(), close: async () => undefined })],
  [
    'InMemoryGeocoder',
    async () => {
      const places: GeocodeCandidate[] = FAKE_PLACES.map((p) => ({
        lat: Number(p.lat),
        lon: Number(p.lon),
        label: p.display_name,
        address: {
          ...(p.address.road ? { street: p.address.road } : {}),
          ...(p.address.house_number ? { houseNumber: p.address.house_number } : {}),
          city: p.address.city ?? p.address.town ?? p.address.village,
          postcode: p.address.postcode,
          country: p.address.country,
        },
        settlements: [p.address.city, p.address.town, p.address.village].filter((s): s is string => s !== undefined),
      }));
      return { geocoder: new InMemoryGeocoder(places), close: async () => undefined };
    },
  ],
];

describe.each(fixtures)('Geocoder contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    fake.mode = 'normal';
    f = await make();
  });
  afterAll(async () => f?.close());

  it('forward: an address gives its coordinates and address parts (street, house number, city, postcode, country)', async () => {
    const r = await f.geocoder.forward({ q: 'Hlavná 12, Trnava' });
    expect(isRight(r) && r.right).toMatchObject({
      lat: 48.3774279,
      lon: 17.5872286,
      address: { street: 'Hlavná', houseNumber: '12', city: 'Trnava', postcode: '917 01', country: 'Slovensko' },
    });
  });

  it('forward: the best match prefers a city, town or village equal to the city asked for', async () => {
    const town = await f.geocoder.forward({ q: 'Hlavná', city: 'piešťany' });
    expect(isRight(town) && town.right?.address.city).toBe('Piešťany');
    const village = await f.geocoder.forward({ q: 'Hlavná', city: 'Boleráz' });
    expect(isRight(village) && village.right?.address.city).toBe('Boleráz');
    // A street named after Trnava in Bratislava ranks first; the city asked for wins.
    const city = await f.geocoder.forward({ q: 'Trnav', city: 'Trnava' });
    expect(isRight(city) && city.right?.address.city).toBe('Trnava');
    const first = await f.geocoder.forward({ q: 'Trnav' });
    expect(isRight(first) && first.right?.address.city).toBe('Bratislava');
  });

  it('forward: an address nobody knows is null (the client says Address not found)', async () => {
    const r = await f.geocoder.forward({ q: 'Nowhere street 99, Atlantis' });
    expect(r).toEqual({ _tag: 'Right', right: null });
  });

  it('reverse: a point gives the address parts there; open sea is null', async () => {
    const r = await f.geocoder.reverse({ lat: 48.3774, lon: 17.5872 });
    expect(isRight(r) && r.right?.address).toMatchObject({ street: 'Hlavná', houseNumber: '12', city: 'Trnava', postcode: '917 01', country: 'Slovensko' });
    const sea = await f.geocoder.reverse({ lat: 40, lon: -30 });
    expect(sea).toEqual({ _tag: 'Right', right: null });
  });
});

describe('NominatimGeocoder against the documented API (issue 14)', () => {
  it('asks GET /search with q, format=jsonv2 and addressdetails=1, and /reverse with lat, lon, format=jsonv2, with an identifying User-Agent', async () => {
    fake.mode = 'normal';
    fake.requests.length = 0;
    await nominatim().forward({ q: 'Hlavná 12, Trnava' });
    await nominatim().reverse({ lat: 48.3774, lon: 17.5872 });
    const [search, reverse] = fake.requests;
    expect(search?.path).toBe('/search');
    expect(Object.fromEntries(search!.query)).toEqual({ q: 'Hlavná 12, Trnava', format: 'jsonv2', addressdetails: '1' });
    expect(reverse?.path).toBe('/reverse');
    expect(Object.fromEntries(reverse!.query)).toMatchObject({ lat: '48.3774', lon: '17.5872', format: 'jsonv2' });
    expect(search?.userAgent).toBe('Tessera-test/1 (contract)');
  });

  it('an empty answer is null, not a failure', async () => {
    fake.mode = 'empty';
    expect(await nominatim().forward({ q: 'Hlavná 12, Trnava' })).toEqual({ _tag: 'Right', right: null });
    expect(await nominatim().reverse({ lat: 48.3774, lon: 17.5872 })).toEqual({ _tag: 'Right', right: null });
    fake.mode = 'normal';
  });

  it('a 429 (the usage policy refused) is an UPSTREAM failure naming it', async () => {
    fake.mode = 'busy';
    const r = await nominatim().forward({ q: 'Hlavná 12, Trnava' });
    fake.mode = 'normal';
    expect(isLeft(r) && r.left).toEqual({ kind: 'UPSTREAM', message: 'the geocoding service refused: too many requests (429)' });
  });

  it('a slow answer is a timeout failure, not a hang', async () => {
    fake.mode = 'slow';
    fake.slowMs = 1500;
    const started = Date.now();
    const r = await nominatim(0, 300).forward({ q: 'Hlavná 12, Trnava' });
    fake.mode = 'normal';
    expect(Date.now() - started).toBeLessThan(1200);
    expect(isLeft(r) && r.left).toEqual({ kind: 'UPSTREAM', message: 'the geocoding service did not answer in 300 ms' });
  });

  it('an answer that does not decode (no lat) is an UPSTREAM failure', async () => {
    const { createServer } = await import('node:http');
    const bad = createServer((_req, res) => res.end(JSON.stringify([{ display_name: 'x' }])));
    await new Promise<void>((ok) => bad.listen(0, '127.0.0.1', () => ok()));
    const port = (bad.address() as import('node:net').AddressInfo).port;
    const g = new NominatimGeocoder({ baseUrl: `http://127.0.0.1:${port}`, userAgent: 't', minIntervalMs: 0, timeoutMs: 1000 });
    const r = await g.forward({ q: 'x' });
    bad.close();
    expect(isLeft(r) && r.left.message).toBe('the geocoding service answered an unexpected search body');
  });

  it('at most one request a second: three lookups at once reach the service 1 s apart, in order', async () => {
    fake.mode = 'normal';
    fake.requests.length = 0;
    const g = nominatim(1000);
    const answers = await Promise.all(['Hlavná 12, Trnava', 'Boleráz', 'Piešťany'].map((q) => g.forward({ q })));
    expect(answers.every(isRight)).toBe(true);
    const at = fake.requests.map((r) => r.at);
    expect(fake.requests.map((r) => r.query.get('q'))).toEqual(['Hlavná 12, Trnava', 'Boleráz', 'Piešťany']);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(950);
  });
});

describe('RequestSpacing', () => {
  it('a failed task does not stop the queue', async () => {
    const s = new RequestSpacing(0);
    await expect(s.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await s.run(async () => 7)).toBe(7);
  });
});
