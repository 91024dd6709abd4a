// What the HTTP benchmarks share: a Tessera server on a fresh data folder with one organization
// (demo packs) filled by the caller, signed in; and an autocannon run on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { isLeft } from 'fp-ts/lib/Either.js';
import { systemCaller, Tokens, type RecordStore, type WriteItem } from '@tessera/core/internal';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer } from '@tessera/cli';

export type BenchResult = { rps: number; p50: number; p99: number; max: number; errors: number; non2xx: number };
export type BenchServer = { url: string; token: string; file: string; close(): Promise<void> };
export type Fill = (write: (items: WriteItem[]) => Promise<string[]>, store: RecordStore) => Promise<void>;

/** A Tessera server with the organization `bench`; `sqlWorkers` 0 runs SQLite on the request thread. */
export const startBenchServer = async (options: { sqlWorkers?: number; fill: Fill }): Promise<BenchServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-http-bench-'));
  const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent', limits: { sqlWorkers: options.sqlWorkers } };
  const server = await startServer({ ...config, port: 0, host: '127.0.0.1', staticDir: join(dataDir, 'none') }, { logger: pino({ level: 'silent' }) });
  const create = resolve(server.container, CliTokens.Organizations).createWithPacks;
  const org = await create({ orgName: 'bench', admin: { name: 'Bench', email: 'bench@bench.test', password: 'bench-password' } }, packsFor(['demo']));
  if (isLeft(org)) throw new Error(org.left.message);
  const { store } = await resolve(server.container, Tokens.TenantRegistry).open('bench');
  // Atomic batches of at most 1000 (MAX_BATCH_SIZE), as an import writes.
  const write = async (items: WriteItem[]): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < items.length; i += 1000) {
      const made = await store.executeMultiple(systemCaller(org.right.adminId), items.slice(i, i + 1000), { atomic: true });
      if (isLeft(made)) throw new Error(made.left.message);
      ids.push(...made.right.flatMap((r) => ('id' in r && r.id ? [r.id] : [])));
    }
    return ids;
  };
  await options.fill(write, store);
  const login = await fetch(`http://127.0.0.1:${server.port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ organization: 'bench', username: 'bench@bench.test', password: 'bench-password' }).toString(),
  });
  const token = login.headers.get('x-accessptoken');
  if (!token) throw new Error(`login failed: ${login.status}`);
  return {
    url: `http://127.0.0.1:${server.port}`,
    token,
    file: join(dataDir, 'orgs', 'bench.sqlite'),
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** `connections` clients for `seconds` of POSTs, the i-th request's path and body from `request(i)`. */
export const loadTest = async (
  url: string,
  headers: Record<string, string>,
  request: (i: number) => { path: string; body: string },
  seconds: number,
  connections = 50,
): Promise<BenchResult> => {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, setupRequest: (req) => ({ ...req, ...request(n++) }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
};

/** Slices of one server's runs as one figure (the machine's load drifts: servers alternate in slices). */
export const combined = (rs: BenchResult[]): BenchResult => ({
  rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length,
  p50: Math.round((rs.reduce((a, r) => a + r.p50, 0) / rs.length) * 10) / 10,
  p99: Math.round((rs.reduce((a, r) => a + r.p99, 0) / rs.length) * 10) / 10,
  max: Math.max(...rs.map((r) => r.max)),
  errors: rs.reduce((a, r) => a + r.errors, 0),
  non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
});

export const figures = (r: BenchResult): string =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, errors ${r.errors + r.non2xx}`;

export const benchLine = (name: string, value: number | string, unit: string, goal: string, ok: boolean): void => {
  process.stdout.write(`bench ${name}: ${value} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}\n`);
};
