import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directionsRequestOf, MAX_WAYPOINTS } from '@tessera/adapters-http';
import { TOKEN_RENEW_MARGIN_MS } from '@tessera/adapters-graph';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer, type RunningServer } from '@tessera/cli';
import { Api, isLeft, MemoryMailer, ShiftedClock, testHasher } from './http-harness.js';

/**
 * GET /api/azure/accesstoken and POST /api/distance (spec 001 "Cloud token and calendar", spec
 * 002 section 7 "Travel report", "Drive and blob") against stand-ins of the outside services on
 * loopback: a token endpoint answering like the Microsoft identity platform, and a directions
 * endpoint answering like the Google Directions API.
 */

const listen = (server: Server): Promise<number> =>
  new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port));
  });

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

type Tessera = { server: RunningServer; url: string; dataDir: string; api: Api };

const startTessera = async (env: Record<string, string>, clock?: ShiftedClock): Promise<Tessera> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-graph-'));
  const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent' };
  const server = await startServer(
    { ...config, port: 0, host: '127.0.0.1', staticDir: join(dataDir, 'no-ui'), env },
    { mailer: new MemoryMailer(), logger: pino({ level: 'silent' }), hasher: testHasher, clock },
  );
  const orgs = resolve(server.container, CliTokens.Organizations);
  const created = await orgs.createWithPacks({ orgName: 'travel', admin: { name: 'Tina', email: 'tina@travel.test', password: 'tina-password' } }, packsFor([]));
  if (isLeft(created)) throw new Error(created.left.message);
  const url = `http://127.0.0.1:${server.port}`;
  const api = new Api(url);
  expect((await api.login('travel', 'tina@travel.test', 'tina-password')).status).toBe(200);
  return { server, url, dataDir, api };
};

const stopTessera = async (t: Tessera): Promise<void> => {
  await t.server.close();
  rmSync(t.dataDir, { recursive: true, force: true });
};

describe('cloud token and distances through configured outside services', () => {
  const clock = new ShiftedClock();
  /** What the fake token endpoint received. */
  const tokenRequests: URLSearchParams[] = [];
  let tokenAnswer: { status: number; body: unknown } = { status: 200, body: {} };
  /** What the fake directions endpoint received. */
  const directionsRequests: URL[] = [];
  let directionsAnswer: ((u: URL) => { status: number; body: unknown }) | null = null;
  let fakes: Server;
  let fakeUrl: string;
  let tessera: Tessera;
  let bare: Tessera;

  /** The identity platform's success shape (token_type, expires_in, ext_expires_in, access_token). */
  const issued = (n: number) => ({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: `eyJ0eXAiOiJKV1Qi.graph-token-${n}` });

  /** Google Directions: one leg per pair of consecutive stops, distance and duration as text and value. */
  const route = (u: URL) => {
    const stops = 2 + (u.searchParams.get('waypoints')?.split('|').length ?? 0);
    const legs = Array.from({ length: stops - 1 }, (_, i) => ({
      distance: { text: `${10 + i} km`, value: 10_000 + i * 1000 + 34 },
      duration: { text: `${15 + i} mins`, value: 900 + i * 60 + 1 },
      start_address: `stop ${i}`,
      end_address: `stop ${i + 1}`,
      steps: [],
    }));
    return { status: 200, body: { geocoded_waypoints: [], routes: [{ summary: 'D1', legs, overview_polyline: { points: 'abc' }, warnings: [], waypoint_order: [] }], status: 'OK' } };
  };

  beforeAll(async () => {
    fakes = createServer((req, res) => {
      void (async () => {
        const u = new URL(req.url ?? '/', fakeUrl);
        let answer: { status: number; body: unknown };
        if (req.method === 'POST' && u.pathname === '/tenant-1/oauth2/v2.0/token') {
          tokenRequests.push(new URLSearchParams(await bodyOf(req)));
          // Concurrent callers must share one request: answer slowly enough for them to meet.
          await new Promise((ok) => setTimeout(ok, 50));
          answer = tokenAnswer.status === 200 ? { status: 200, body: issued(tokenRequests.length) } : tokenAnswer;
        } else if (req.method === 'GET' && u.pathname === '/maps/api/directions/json') {
          directionsRequests.push(u);
          answer = (directionsAnswer ?? route)(u);
        } else answer = { status: 404, body: { error: 'not here' } };
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(answer.body));
      })();
    });
    fakeUrl = `http://127.0.0.1:${await listen(fakes)}`;
    tessera = await startTessera(
      {
        TESSERA_GRAPH_TOKEN_URL: `${fakeUrl}/tenant-1/oauth2/v2.0/token`,
        TESSERA_GRAPH_CLIENT_ID: 'graph-client',
        TESSERA_GRAPH_CLIENT_SECRET: 'graph-secret',
        TESSERA_DIRECTIONS_URL: `${fakeUrl}/maps/api/directions/json`,
        TESSERA_DIRECTIONS_KEY: 'server-maps-key',
      },
      clock,
    );
    bare = await startTessera({});
  });

  afterAll(async () => {
    await stopTessera(tessera);
    await stopTessera(bare);
    await new Promise<void>((ok) => fakes.close(() => ok()));
  });

  it('both calls need a session: 401 NOT AUTHORIZED without one', async () => {
    const anonymous = new Api(tessera.url);
    const token = await anonymous.get('azure/accesstoken');
    const distance = await anonymous.post('distance', { url: '?origin=48.1,17.1&destination=48.2,17.2' });
    expect([token.status, token.statusText, distance.status, distance.statusText]).toEqual([401, 'NOT AUTHORIZED', 401, 'NOT AUTHORIZED']);
  });

  it('the access token comes by the client-credentials grant and is answered as { access_token, expires_on }', async () => {
    const before = Math.floor(clock.now().getTime() / 1000);
    const res = await tessera.api.get('azure/accesstoken');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_on: number };
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_on']);
    expect(body.access_token).toBe('eyJ0eXAiOiJKV1Qi.graph-token-1');
    expect(body.expires_on).toBeGreaterThanOrEqual(before + 3599);
    expect(body.expires_on).toBeLessThanOrEqual(before + 3600);
    expect(Object.fromEntries(tokenRequests[0])).toEqual({
      grant_type: 'client_credentials',
      client_id: 'graph-client',
      client_secret: 'graph-secret',
      scope: 'https://graph.microsoft.com/.default',
    });
  });

  it('the token is kept until shortly before it expires, and concurrent callers share one request', async () => {
    const again = await Promise.all(Array.from({ length: 10 }, () => tessera.api.get('azure/accesstoken').then((r) => r.json() as Promise<{ access_token: string }>)));
    expect(new Set(again.map((b) => b.access_token))).toEqual(new Set(['eyJ0eXAiOiJKV1Qi.graph-token-1']));
    expect(tokenRequests.length).toBe(1);
    // Just inside the renewal margin the next caller gets a new token, fetched once for all.
    clock.offsetMs += 3599_000 - TOKEN_RENEW_MARGIN_MS + 1000;
    const renewed = await Promise.all(Array.from({ length: 10 }, () => tessera.api.get('azure/accesstoken').then((r) => r.json() as Promise<{ access_token: string }>)));
    expect(new Set(renewed.map((b) => b.access_token))).toEqual(new Set(['eyJ0eXAiOiJKV1Qi.graph-token-2']));
    expect(tokenRequests.length).toBe(2);
  });

  it('a refusal of the token service answers 502 ERR_UPSTREAM with its error, and the next call tries again', async () => {
    clock.offsetMs += 3600_000;
    tokenAnswer = {
      status: 401,
      body: { error: 'invalid_client', error_description: "AADSTS7000215: Invalid client secret provided.\r\nTrace ID: 1\r\nTimestamp: 2026-11-21", error_codes: [7000215] },
    };
    const refused = await tessera.api.get('azure/accesstoken');
    expect([refused.status, await refused.text()]).toEqual([502, 'ERR_UPSTREAM: the token service refused (401 invalid_client: AADSTS7000215: Invalid client secret provided.)']);
    tokenAnswer = { status: 200, body: {} };
    const ok = await tessera.api.get('azure/accesstoken');
    expect(ok.status).toBe(200);
  });

  it('distance: the stops of the maps request are sent to the configured directions service with the server key, and its JSON is answered', async () => {
    const before = directionsRequests.length;
    const res = await tessera.api.post('distance', {
      url: 'https://maps.googleapis.com/maps/api/directions/json?origin=48.1486,17.1077&destination=48.7164,21.2611&waypoints=48.3061,18.0764|48.7363,19.1462&key=CLIENT-KEY&mode=driving',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; routes: Array<{ legs: Array<{ distance: { value: number }; duration: { value: number } }> }> };
    expect(body.status).toBe('OK');
    expect(body.routes[0].legs.map((l) => [l.distance.value, l.duration.value])).toEqual([
      [10034, 901],
      [11034, 961],
      [12034, 1021],
    ]);
    expect(directionsRequests.length).toBe(before + 1);
    const sent = directionsRequests.at(-1)!;
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      origin: '48.1486,17.1077',
      destination: '48.7164,21.2611',
      waypoints: '48.3061,18.0764|48.7363,19.1462',
      key: 'server-maps-key',
    });
  });

  it('distance never fetches the address of the request: another host, path or parameter in the url reaches only the configured service', async () => {
    const before = directionsRequests.length;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/?origin=48.1,17.1&destination=48.2,17.2',
      `http://127.0.0.1:${tessera.server.port}/api/cache_debug?origin=48.1,17.1&destination=48.2,17.2`,
      'file:///etc/passwd?origin=48.1,17.1&destination=48.2,17.2',
    ]) {
      const res = await tessera.api.post('distance', { url });
      expect(res.status).toBe(200);
    }
    expect(directionsRequests.length).toBe(before + 3);
    for (const u of directionsRequests.slice(before)) expect(`${u.origin}${u.pathname}`).toBe(`${fakeUrl}/maps/api/directions/json`);
    // A stop that is not lat,lon never leaves the server.
    for (const url of ['?origin=http://evil.example&destination=48.2,17.2', '?origin=48.1,17.1&destination=91,17.2', '?origin=48.1,17.1&destination=48.2,17.2&waypoints=48.1,17.1|Bratislava']) {
      const res = await tessera.api.post('distance', { url });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/^ERR_INPUT: /);
    }
    const many = Array.from({ length: MAX_WAYPOINTS + 1 }, (_, i) => `48.${i},17.1`).join('|');
    const tooMany = await tessera.api.post('distance', { url: `?origin=48.1,17.1&destination=48.2,17.2&waypoints=${many}` });
    expect([tooMany.status, await tooMany.text()]).toEqual([400, 'ERR_INPUT: at most 25 waypoints']);
    expect(directionsRequests.length).toBe(before + 3);
  });

  it('distance: no route is an answer (ZERO_RESULTS, 200); a refused request is 502 ERR_UPSTREAM with the service status', async () => {
    directionsAnswer = () => ({ status: 200, body: { geocoded_waypoints: [], routes: [], status: 'ZERO_RESULTS' } });
    const none = await tessera.api.post('distance', { origin: '48.1,17.1', destination: '40.7,-74.0' });
    expect([none.status, await none.json()]).toEqual([200, { geocoded_waypoints: [], routes: [], status: 'ZERO_RESULTS' }]);
    directionsAnswer = () => ({ status: 200, body: { error_message: 'The provided API key is invalid.', routes: [], status: 'REQUEST_DENIED' } });
    const denied = await tessera.api.post('distance', { origin: '48.1,17.1', destination: '48.2,17.2' });
    expect([denied.status, await denied.text()]).toEqual([502, 'ERR_UPSTREAM: the directions service answered REQUEST_DENIED: The provided API key is invalid.']);
    directionsAnswer = () => ({ status: 500, body: {} });
    const broken = await tessera.api.post('distance', { origin: '48.1,17.1', destination: '48.2,17.2' });
    expect([broken.status, await broken.text()]).toEqual([502, 'ERR_UPSTREAM: the directions service answered 500']);
    directionsAnswer = null;
  });

  it('without configuration both calls answer 501 ERR_NOT_CONFIGURED', async () => {
    const token = await bare.api.get('azure/accesstoken');
    expect([token.status, await token.text()]).toEqual([501, 'ERR_NOT_CONFIGURED: the cloud drive and calendar are not configured on this server']);
    const distance = await bare.api.post('distance', { origin: '48.1,17.1', destination: '48.2,17.2' });
    expect([distance.status, await distance.text()]).toEqual([501, 'ERR_NOT_CONFIGURED: the directions service is not configured on this server']);
  });

  it('the stops read from any maps URL are exactly its coordinates, in order', () => {
    const coordinate = fc.record({
      lat: fc.integer({ min: -90_000_000, max: 90_000_000 }).map((n) => n / 1_000_000 + 0),
      lon: fc.integer({ min: -180_000_000, max: 180_000_000 }).map((n) => n / 1_000_000 + 0),
    });
    fc.assert(
      fc.property(fc.webUrl(), coordinate, coordinate, fc.array(coordinate, { maxLength: MAX_WAYPOINTS }), (base, origin, destination, waypoints) => {
        const u = new URL(base);
        u.search = '';
        u.hash = '';
        u.searchParams.set('origin', `${origin.lat},${origin.lon}`);
        u.searchParams.set('destination', `${destination.lat},${destination.lon}`);
        if (waypoints.length > 0) u.searchParams.set('waypoints', waypoints.map((w) => `${w.lat},${w.lon}`).join('|'));
        const parsed = directionsRequestOf({ url: u.href });
        expect(parsed).toEqual({ _tag: 'Right', right: { origin, destination, waypoints } });
      }),
      { numRuns: 500 },
    );
  });
});
