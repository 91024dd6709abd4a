import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startHarness, type Harness } from './http-harness.js';
import { startFakeNominatim, type FakeNominatim } from '../fakes/fake-nominatim.js';

/**
 * POST /api/geocode (issue 14, spec 001 "Geocoding"): the address editor's lookups go through the
 * server's Geocoder, configured by TESSERA_GEOCODER_URL (here a loopback stand-in of Nominatim).
 */
describe('POST /api/geocode through the configured geocoder', () => {
  let fake: FakeNominatim;
  let h: Harness;
  let api: Api;

  beforeAll(async () => {
    fake = await startFakeNominatim();
    h = await startHarness({ env: { TESSERA_GEOCODER_URL: fake.url } });
    await h.createOrg('geo', { email: 'gina@geo.test', password: 'gina-password-1' });
    api = new Api(h.url);
    await api.login('geo', 'gina@geo.test', 'gina-password-1');
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('an address answers its best match: coordinates and address parts (the city asked for wins)', async () => {
    const r = await api.post('geocode', { q: 'Hlavná', city: 'Piešťany' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      match: { lat: 48.6202, lon: 17.8326, label: 'Hlavná, Piešťany, 921 01, Slovensko', address: { street: 'Hlavná', city: 'Piešťany', postcode: '921 01', country: 'Slovensko' } },
    });
  });

  it('a point answers the address there; nothing known is match null (Address not found)', async () => {
    const r = await api.post('geocode', { lat: 48.3774, lon: 17.5872 });
    expect((await r.json()).match.address).toEqual({ street: 'Hlavná', houseNumber: '12', city: 'Trnava', postcode: '917 01', country: 'Slovensko' });
    const none = await api.post('geocode', { q: 'Nowhere 1, Atlantis' });
    expect([none.status, await none.json()]).toEqual([200, { match: null }]);
  });

  it('the service refusing (429) or not answering is 502 ERR_UPSTREAM, never 500', async () => {
    fake.mode = 'busy';
    const r = await api.post('geocode', { q: 'Hlavná 12, Trnava' });
    fake.mode = 'normal';
    expect([r.status, await r.text()]).toEqual([502, 'ERR_UPSTREAM: the geocoding service refused: too many requests (429)']);
  });

  it('one user has at most 3 lookups waiting: the first three are answered, more get 429 ERR_TOO_MANY_REQUESTS', async () => {
    fake.mode = 'slow';
    fake.slowMs = 300;
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post('geocode', { q: 'Hlavná 12, Trnava' })));
    fake.mode = 'normal';
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.text()).toBe('ERR_TOO_MANY_REQUESTS: at most 3 address lookups of one user wait at once; try again shortly');
  }, 20_000);

  it('without a session: 401; malformed, huge or out-of-range input: 400 ERR_INPUT naming it, and the service is not asked', async () => {
    const anonymous = await fetch(`${h.url}/api/geocode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q: 'Trnava' }) });
    expect(anonymous.status).toBe(401);
    const asked = fake.requests.length;
    for (const body of [{}, { q: '' }, { q: 'x'.repeat(501) }, { lat: 91, lon: 17 }, { lat: 48, lon: '17' }, { q: 5 }, { lat: 48 }]) {
      const r = await api.post('geocode', body);
      expect([JSON.stringify(body).slice(0, 40), r.status]).toEqual([JSON.stringify(body).slice(0, 40), 400]);
      expect(await r.text()).toMatch(/^ERR_INPUT: Invalid geocode body: /);
    }
    expect(fake.requests.length).toBe(asked);
  });
});
