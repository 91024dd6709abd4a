// List edit benchmark (issue 13 section 1 and 5): a batch save of 200 edited rows of the list through
// HTTP. Each round reads the page the list shows (200 accounts), edits a field on every row through
// the core's ListEdits, builds the batch (buildBatch) and sends it as ONE atomic POST
// /api/executemultiple to `tessera serve`'s stack (sessions, permissions, validation, the worker
// pool, the change feed). The timed part is what the user waits for after Save: building the batch,
// the request and its answer. Goal: under 300 ms (median). The same 200 updates through the record
// store's executeMultiple in the same process (no HTTP, no JSON) are reported beside it.
// Run: node --import tsx tests/bench/list-edit-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { isLeft } from 'fp-ts/lib/Either.js';
import { buildBatch, emptyEdits, setCell, systemCaller, Tokens, type EntityRecord, type ListEdits } from '@tessera/core/internal';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer } from '@tessera/cli';

const ROWS = 200;
const ROUNDS = 15;

const line = (name: string, value: number, unit: string, goal: string, ok: boolean) =>
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = mkdtempSync(join(tmpdir(), 'tessera-list-edit-bench-'));
const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent' };
const server = await startServer({ ...config, port: 0, host: '127.0.0.1', staticDir: join(dataDir, 'none') }, { logger: pino({ level: 'silent' }) });
try {
  const create = resolve(server.container, CliTokens.Organizations).createWithPacks;
  const org = await create({ orgName: 'bench', admin: { name: 'Bench', email: 'bench@bench.test', password: 'bench-password' } }, packsFor(['demo']));
  if (isLeft(org)) throw new Error(org.left.message);
  const { store } = await resolve(server.container, Tokens.TenantRegistry).open('bench');
  const caller = systemCaller(org.right.adminId);
  const made = await store.executeMultiple(
    caller,
    Array.from({ length: ROWS }, (_, i) => ({ operation: 'create' as const, name: 'account', object: { name: `Account ${String(i).padStart(4, '0')}`, address1_city: 'Praha', numberofemployees: i } })),
    { atomic: true },
  );
  if (isLeft(made)) throw new Error(made.left.message);

  const url = `http://127.0.0.1:${server.port}`;
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ organization: 'bench', username: 'bench@bench.test', password: 'bench-password' }).toString(),
  });
  const token = login.headers.get('x-accessptoken');
  if (!token) throw new Error(`login failed: ${login.status}`);
  const headers = { 'content-type': 'application/json', 'x-accessptoken': token };

  /** The page the list shows: 200 accounts with the view's columns and their versions. */
  const page = async (): Promise<EntityRecord[]> => {
    const r = await fetch(`${url}/api/fetch`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ entity: { name: 'account', attributes: ['name', 'address1_city', 'numberofemployees', 'versionnumber'].map((attribute) => ({ attribute })), orders: [{ attribute: 'name' }] }, page: 1, pageSize: ROWS, count: true }),
    });
    return ((await r.json()) as { records: EntityRecord[] }).records;
  };
  /** The user's edits: a new city on every row. */
  const edited = (rows: EntityRecord[], round: number): ListEdits => rows.reduce((e, r) => setCell(e, String(r.id), 'address1_city', `City ${round}`, r), emptyEdits);

  const http: number[] = [];
  // Round 0 warms up the server (prepared statements, JIT) and is not counted.
  for (let round = 0; round <= ROUNDS; round++) {
    const rows = await page();
    const t0 = performance.now();
    const { items } = buildBatch(edited(rows, round), 'account', {});
    const res = await fetch(`${url}/api/executemultiple`, { method: 'POST', headers, body: JSON.stringify({ records: items, atomic: true }) });
    const answer = (await res.json()) as Array<{ id?: string; error?: string }>;
    if (round > 0) http.push(performance.now() - t0);
    if (!res.ok || answer.length !== ROWS || answer.some((a) => a.error)) throw new Error(`batch failed: ${res.status} ${JSON.stringify(answer.find((a) => a.error))}`);
  }

  const direct: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const rows = await page();
    const { items } = buildBatch(edited(rows, 100 + round), 'account', {});
    const t0 = performance.now();
    const r = await store.executeMultiple(caller, items, { atomic: true });
    direct.push(performance.now() - t0);
    if (isLeft(r) || r.right.some((x) => 'error' in x)) throw new Error('store batch failed');
  }

  const httpMs = median(http);
  line(`list batch save of ${ROWS} edited rows through HTTP (one atomic executemultiple), median`, httpMs, 'ms', '< 300 ms', httpMs < 300);
  line(`list batch save of ${ROWS} edited rows through HTTP, slowest of ${ROUNDS}`, Math.max(...http), 'ms', 'info', true);
  line(`executemultiple of ${ROWS} updates in the record store (no HTTP), median`, median(direct), 'ms', 'info', true);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
