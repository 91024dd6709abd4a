/**
 * A loopback stand-in for Nominatim that answers as its documentation shows (format=jsonv2 with
 * addressdetails): /search an array of places (lat and lon as decimal texts), /reverse one place or
 * `{ "error": "Unable to geocode" }`. `mode` switches it to an empty answer, a 429 or a slow answer;
 * `requests` records what came (path, query, User-Agent, time) for the usage-policy checks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMode = 'normal' | 'empty' | 'busy' | 'slow';
export type FakeRequest = { path: string; query: URLSearchParams; userAgent: string | undefined; at: number };

type Place = { lat: string; lon: string; display_name: string; address: Record<string, string> };

const LICENCE = 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright';

/** Places in and around Trnava (the product's default map centre is nearby). */
export const FAKE_PLACES: Place[] = [
  // A street named like the city, elsewhere first: the best match must prefer the city asked for.
  { lat: '48.1455', lon: '17.1077', display_name: 'Trnavská cesta, Ružinov, Bratislava, 821 08, Slovensko', address: { road: 'Trnavská cesta', suburb: 'Ružinov', city: 'Bratislava', postcode: '821 08', country: 'Slovensko' } },
  { lat: '48.3774279', lon: '17.5872286', display_name: 'Hlavná 12, Trnava, okres Trnava, 917 01, Slovensko', address: { house_number: '12', road: 'Hlavná', city: 'Trnava', county: 'okres Trnava', postcode: '917 01', country: 'Slovensko', country_code: 'sk' } },
  { lat: '48.4421', lon: '17.5309', display_name: 'Hlavná, Boleráz, okres Trnava, 919 08, Slovensko', address: { road: 'Hlavná', village: 'Boleráz', postcode: '919 08', country: 'Slovensko' } },
  { lat: '48.6202', lon: '17.8326', display_name: 'Hlavná, Piešťany, 921 01, Slovensko', address: { road: 'Hlavná', town: 'Piešťany', postcode: '921 01', country: 'Slovensko' } },
];

const words = (q: string): string[] => q.toLowerCase().split(/[\s,]+/).filter((w) => w !== '');

export type FakeNominatim = { url: string; mode: FakeMode; slowMs: number; requests: FakeRequest[]; close(): Promise<void> };

export const startFakeNominatim = async (): Promise<FakeNominatim> => {
  const fake = { mode: 'normal' as FakeMode, slowMs: 3000, requests: [] as FakeRequest[] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    fake.requests.push({ path: url.pathname, query: url.searchParams, userAgent: req.headers['user-agent'], at: Date.now() });
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const answer = (): void => {
      if (fake.mode === 'busy') {
        res.writeHead(429, { 'content-type': 'text/html' });
        res.end('<html><body>Too Many Requests</body></html>');
        return;
      }
      if (url.pathname === '/search') {
        const q = words(url.searchParams.get('q') ?? '');
        const found = fake.mode === 'empty' || q.length === 0 ? [] : FAKE_PLACES.filter((p) => q.every((w) => p.display_name.toLowerCase().includes(w)));
        return json(200, found.map((p, i) => ({ place_id: 1000 + i, licence: LICENCE, osm_type: 'way', osm_id: 4000 + i, category: 'highway', type: 'residential', place_rank: 26, importance: 0.1, addresstype: 'road', name: p.address.road, ...p, boundingbox: [p.lat, p.lat, p.lon, p.lon] })));
      }
      if (url.pathname === '/reverse') {
        const lat = Number(url.searchParams.get('lat'));
        const lon = Number(url.searchParams.get('lon'));
        const near = FAKE_PLACES.find((p) => Math.abs(Number(p.lat) - lat) < 0.01 && Math.abs(Number(p.lon) - lon) < 0.01);
        if (fake.mode === 'empty' || !near) return json(200, { error: 'Unable to geocode' });
        return json(200, { place_id: 2000, licence: LICENCE, osm_type: 'node', osm_id: 5000, category: 'place', type: 'house', place_rank: 30, addresstype: 'place', ...near });
      }
      json(404, { error: { code: 404, message: 'Unknown endpoint' } });
    };
    if (fake.mode === 'slow') setTimeout(answer, fake.slowMs);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
};
