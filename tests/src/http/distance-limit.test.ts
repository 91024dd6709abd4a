import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer, type RunningServer } from '@tessera/cli';
import { Api, isLeft, MemoryMailer, testHasher } from './http-harness.js';
import { startFakeDirections, type FakeDirections } from '../fakes/fake-directions.js';

/**
 * POST /api/distance spends the server's maps key: one user may have at most 3 requests waiting
 * (429 ERR_TOO_MANY_REQUESTS with Retry-After beyond), others are not held up by them, and the
 * service's refusals are a 502, never a 500 (issue 19, the travel report's route distances).
 */
let fake: FakeDirections;
let server: RunningServer;
let dataDir: string;
let url: string;

const signedIn = async (email: string, password: string): Promise<Api> => {
  const api = new Api(url);
  expect((await api.login('travel', email, password)).status).toBe(200);
  return api;
};
const body = { url: 'https://maps.googleapis.com/maps/api/directions/json?origin=48.1486,17.1077&destination=48.3774,17.5872' };

beforeAll(async () => {
  fake = await startFakeDirections();
  dataDir = mkdtempSync(join(tmpdir(), 'tessera-distance-'));
  const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent' };
  server = await startServer(
    { ...config, port: 0, host: '127.0.0.1', staticDir: join(dataDir, 'no-ui'), env: { TESSERA_DIRECTIONS_URL: fake.url, TESSERA_DIRECTIONS_KEY: 'server-key' } },
    { mailer: new MemoryMailer(), logger: pino({ level: 'silent' }), hasher: testHasher },
  );
  const orgs = resolve(server.container, CliTokens.Organizations);
  const created = await orgs.createWithPacks({ orgName: 'travel', admin: { name: 'Tina', email: 'tina@travel.test', password: 'tina-password' } }, packsFor([]));
  if (isLeft(created)) throw new Error(created.left.message);
  url = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /api/distance under load and failure', () => {
  it('a 4th request of one user waiting is refused with 429 and Retry-After; the first three are answered', async () => {
    const tina = await signedIn('tina@travel.test', 'tina-password');
    fake.mode = 'slow';
    fake.slowMs = 600;
    try {
      const answers = await Promise.all([0, 1, 2, 3].map(async (i) => {
        await new Promise((ok) => setTimeout(ok, i * 30));
        return tina.post('distance', body);
      }));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3].headers.get('retry-after')).toBe('5');
      expect(await answers[3].text()).toMatch(/^ERR_TOO_MANY_REQUESTS: at most 3 route distances/);
    } finally {
      fake.mode = 'normal';
    }
    // Once answered, the user may ask again.
    expect((await tina.post('distance', body)).status).toBe(200);
  });

  it("the service's refusals and failures are a 502 ERR_UPSTREAM; no route is the service's answer", async () => {
    const tina = await signedIn('tina@travel.test', 'tina-password');
    for (const mode of ['denied', 'overLimit', 'broken'] as const) {
      fake.mode = mode;
      const res = await tina.post('distance', body);
      expect([res.status, (await res.text()).slice(0, 13)]).toEqual([502, 'ERR_UPSTREAM:']);
    }
    fake.mode = 'zero';
    const zero = await tina.post('distance', body);
    expect([zero.status, ((await zero.json()) as { status: string }).status]).toEqual([200, 'ZERO_RESULTS']);
    fake.mode = 'normal';
  });
});
