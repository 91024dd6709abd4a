/**
 * A loopback stand-in for the Google Directions API that answers as its documentation shows
 * (GET /maps/api/directions/json?origin=lat,lng&destination=lat,lng&waypoints=a|b&key=...):
 * `{ geocoded_waypoints, routes: [{ legs: [{ distance: { text, value }, duration: { text, value },
 * start_location, end_location, ... }], ... }], status: 'OK' }`, distance in metres and duration in
 * seconds. Distances are the great circle times 1.25 (roads wind), driven at 70 km/h, so a test can
 * compute what to expect (`expectedLeg`). `mode` switches it to the documented failures:
 * ZERO_RESULTS, REQUEST_DENIED (with error_message), OVER_QUERY_LIMIT, a 500 or a slow answer;
 * `requests` records what came.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeDirectionsMode = 'normal' | 'zero' | 'denied' | 'overLimit' | 'broken' | 'slow';
export type FakeDirectionsRequest = { path: string; query: URLSearchParams; at: number };
type Point = { lat: number; lng: number };

export const ROAD_FACTOR = 1.25;
export const SPEED_KMH = 70;
export const DIRECTIONS_PATH = '/maps/api/directions/json';

const rad = (d: number): number => (d * Math.PI) / 180;
/** Great-circle metres between two points. */
const haversine = (a: Point, b: Point): number => {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
};

/** The leg the fake answers between two points: metres and seconds, whole numbers as Google gives them. */
export const expectedLeg = (a: Point, b: Point): { metres: number; seconds: number } => {
  const metres = Math.round(haversine(a, b) * ROAD_FACTOR);
  return { metres, seconds: Math.round(metres / ((SPEED_KMH * 1000) / 3600)) };
};

const point = (text: string | null): Point | null => {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text ?? '');
  return m ? { lat: Number(m[1]), lng: Number(m[2]) } : null;
};

const minutesText = (s: number): string => {
  const min = Math.round(s / 60);
  return min < 60 ? `${min} mins` : `${Math.floor(min / 60)} hour${min >= 120 ? 's' : ''} ${min % 60} mins`;
};

export type FakeDirections = { url: string; mode: FakeDirectionsMode; slowMs: number; requests: FakeDirectionsRequest[]; close(): Promise<void> };

export const startFakeDirections = async (): Promise<FakeDirections> => {
  const fake = { mode: 'normal' as FakeDirectionsMode, slowMs: 3000, requests: [] as FakeDirectionsRequest[] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    fake.requests.push({ path: url.pathname, query: url.searchParams, at: Date.now() });
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body, null, 3));
    };
    const answer = (): void => {
      if (url.pathname !== DIRECTIONS_PATH) return json(404, { error_message: 'Not Found', routes: [], status: 'INVALID_REQUEST' });
      if (fake.mode === 'broken') {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<html><body>Server Error</body></html>');
        return;
      }
      if (!url.searchParams.get('key') || fake.mode === 'denied') return json(200, { error_message: 'The provided API key is invalid. ', routes: [], status: 'REQUEST_DENIED' });
      if (fake.mode === 'overLimit') return json(200, { error_message: 'You have exceeded your rate-limit for this API.', routes: [], status: 'OVER_QUERY_LIMIT' });
      const origin = point(url.searchParams.get('origin'));
      const destination = point(url.searchParams.get('destination'));
      const waypoints = (url.searchParams.get('waypoints') ?? '').split('|').filter((w) => w !== '').map(point);
      if (!origin || !destination || waypoints.some((w) => w === null)) return json(200, { geocoded_waypoints: [], routes: [], status: 'NOT_FOUND' });
      const stops = [origin, ...(waypoints as Point[]), destination];
      if (fake.mode === 'zero') return json(200, { geocoded_waypoints: stops.map(() => ({ geocoder_status: 'OK', place_id: 'fake', types: ['street_address'] })), routes: [], status: 'ZERO_RESULTS' });
      const legs = stops.slice(1).map((to, i) => {
        const from = stops[i];
        const { metres, seconds } = expectedLeg(from, to);
        return {
          distance: { text: `${(metres / 1000).toFixed(1)} km`, value: metres },
          duration: { text: minutesText(seconds), value: seconds },
          end_address: `${to.lat},${to.lng}`,
          end_location: to,
          start_address: `${from.lat},${from.lng}`,
          start_location: from,
          steps: [],
          traffic_speed_entry: [],
          via_waypoint: [],
        };
      });
      json(200, {
        geocoded_waypoints: stops.map((_, i) => ({ geocoder_status: 'OK', place_id: `fake-place-${i}`, types: ['street_address'] })),
        routes: [
          {
            bounds: { northeast: { lat: Math.max(...stops.map((s) => s.lat)), lng: Math.max(...stops.map((s) => s.lng)) }, southwest: { lat: Math.min(...stops.map((s) => s.lat)), lng: Math.min(...stops.map((s) => s.lng)) } },
            copyrights: 'Map data ©2024 Fake',
            legs,
            overview_polyline: { points: '' },
            summary: 'D1',
            warnings: [],
            waypoint_order: waypoints.map((_, i) => i),
          },
        ],
        status: 'OK',
      });
    };
    if (fake.mode === 'slow') setTimeout(answer, fake.slowMs);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}${DIRECTIONS_PATH}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
};
