import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { orgDatabasePath } from '@tessera/adapters-sql';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 22 item 1: one fetch stalls every organization. Database work runs off the request
 * thread (the SQLite worker pool), links follow relationships only, a read has a time budget and
 * counts stop at a cap. Each test is a probe of the issue.
 */

const ADMIN = { email: 'admin@load.test', password: 'admin-password-1' };
const BIG_ROWS = 600_000;
const COUNT_CAP = 1000;

/** Fills a table of an organization's file with `n` rows directly (the API would take minutes). */
const fillTable = (dataDir: string, org: string, table: string, n: number): void => {
  const db = new Database(orgDatabasePath(dataDir, org));
  try {
    const columns = db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>;
    const filled = columns.filter((c) => c.name === 'name' || (c.notnull === 1 && c.dflt_value === null && c.pk === 0));
    const value = (c: { name: string; type: string }) =>
      c.name === 'name' ? `'bulk ' || n` : /INT|REAL|NUM/i.test(c.type) ? '0' : `'x'`;
    db.exec(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n}) ` +
        `INSERT INTO "${table}" (${filled.map((c) => `"${c.name}"`).join(', ')}) SELECT ${filled.map(value).join(', ')} FROM seq`,
    );
  } finally {
    db.close();
  }
};

/** A group-by over every row, each joined to itself (a legal link): about a second of SQLite work on the big table. */
const slowQuery = {
  entity: {
    name: 'team',
    attributes: [{ attribute: 'name', aggregate: 'count', alias: 'n' }],
    links: [{ name: 'team', from: 'id', to: 'id', alias: 'me', attributes: [{ attribute: 'name', groupBy: true }] }],
  },
  pageSize: 1,
};
const trivialQuery = { entity: { name: 'systemuser', attributes: [{ attribute: 'name' }] }, pageSize: 1 };

const timed = async <T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
};

describe('no request stalls the server (issue 22 item 1)', () => {
  let h: Harness;
  let a: Api;
  let b: Api;

  beforeAll(async () => {
    h = await startHarness({ limits: { sqlWorkers: 2, countCap: COUNT_CAP, readBudgetMs: 10_000 } });
    await h.createOrg('slowa', ADMIN, ['demo']);
    await h.createOrg('quickb', ADMIN);
    fillTable(h.dataDir, 'slowa', 'team', BIG_ROWS);
    a = new Api(h.url);
    b = new Api(h.url);
    await a.login('slowa', ADMIN.email, ADMIN.password);
    await b.login('quickb', ADMIN.email, ADMIN.password);
  }, 120_000);
  afterAll(async () => h?.close());

  it("the issue's cartesian link (contact.ownerid to account.ownerid) answers 400 ERR_INPUT naming the link", async () => {
    const body = JSON.parse(
      '{"entity":{"name":"contact","attributes":[{"attribute":"name"}],"links":[{"name":"account","from":"ownerid","to":"ownerid","alias":"a","type":"inner","attributes":[{"attribute":"name"}]}]},"pageSize":1,"count":true}',
    );
    const r = await a.post('fetch', body);
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/^ERR_INPUT: Link a does not follow a relationship: contact\.ownerid to account\.ownerid/);
  });

  it('a slow query in organization A does not delay organization B beyond 100 ms', async () => {
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const bRequests = async (n: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await timed(() => b.fetchRecords(trivialQuery))).ms);
      return out;
    };
    await bRequests(3); // warm: B's database opened, statements prepared
    const baseline = median(await bRequests(5));
    const slow = timed(async () => (await a.post('fetch', slowQuery)).status);
    // B asks 50 ms after A, while A's query runs. The server shares this thread with the test: B's
    // time counts from when it was meant to ask, so a stalled thread (a late timer) counts too.
    const planned = performance.now() + 50;
    await new Promise((r) => setTimeout(r, 50));
    await b.fetchRecords(trivialQuery);
    const bDone = performance.now() - planned;
    const aDone = await slow;
    expect(aDone.value).toBe(200);
    // The probe is meaningful only if A's query outlasted B's request.
    expect(aDone.ms).toBeGreaterThan(50 + bDone + 50);
    expect(bDone).toBeLessThan(baseline + 100);
  });

  it('a count beyond the count cap answers the cap and countIsCapped: true, quickly', async () => {
    const r = await timed(() => a.post('fetch', { entity: { name: 'team', attributes: [{ attribute: 'name' }] }, pageSize: 1, count: true }));
    expect(r.value.status).toBe(200);
    const page = (await r.value.json()) as { count: number; countIsCapped?: boolean; moreRecords: boolean };
    expect([page.count, page.countIsCapped, page.moreRecords]).toEqual([COUNT_CAP, true, true]);
    const small = (await b.fetchRecords({ ...trivialQuery, count: true })) as { count: number; countIsCapped?: boolean };
    expect(small.count).toBe(1);
    expect('countIsCapped' in small).toBe(false);
  });
});

describe('a read past its time budget (issue 22 item 1)', () => {
  let h: Harness;
  let a: Api;

  beforeAll(async () => {
    h = await startHarness({ limits: { sqlWorkers: 2, readBudgetMs: 150 } });
    await h.createOrg('slowa', ADMIN);
    fillTable(h.dataDir, 'slowa', 'team', BIG_ROWS);
    a = new Api(h.url);
    await a.login('slowa', ADMIN.email, ADMIN.password);
  }, 120_000);
  afterAll(async () => h?.close());

  it('answers 503 ERR_TIMEOUT once the budget is spent, and the next request is served', async () => {
    await a.fetchRecords(trivialQuery);
    const r = await timed(() => a.post('fetch', slowQuery));
    expect(r.value.status).toBe(503);
    expect(await r.value.text()).toMatch(/^ERR_TIMEOUT: /);
    expect(r.ms).toBeLessThan(1000);
    const next = await timed(() => a.fetchRecords(trivialQuery));
    expect(next.value.records).toHaveLength(1);
    expect(next.ms).toBeLessThan(1000);
  });
});

describe('a large PDF export does not block the server (issue 22 item 2)', () => {
  let h: Harness;
  let a: Api;
  let b: Api;
  type Job = { id: string; state: 'running' | 'ready' | 'failed'; rows: number; total: number | null };

  beforeAll(async () => {
    h = await startHarness({ limits: { sqlWorkers: 2 } });
    await h.createOrg('pdfa', ADMIN);
    await h.createOrg('quickb', ADMIN);
    fillTable(h.dataDir, 'pdfa', 'team', 30_000);
    a = new Api(h.url);
    b = new Api(h.url);
    await a.login('pdfa', ADMIN.email, ADMIN.password);
    await b.login('quickb', ADMIN.email, ADMIN.password);
  }, 120_000);
  afterAll(async () => h?.close());

  it("another organization's fetches are answered as fast as before while a 30,000-row PDF is drawn", async () => {
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const bRequests = async (n: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await timed(() => b.fetchRecords(trivialQuery))).ms);
      return out;
    };
    await bRequests(3);
    const baseline = median(await bRequests(5));
    const started = (await (await a.post('export/start', { query: { entity: { name: 'team', attributes: [{ attribute: 'name' }] } }, format: 'pdf' })).json()) as Job;
    const job = async (): Promise<Job> => (await (await a.get(`export/job?id=${started.id}`)).json()) as Job;
    // wait until the drawing has begun (its first pages were read)
    while ((await job()).rows === 0) await new Promise((r) => setTimeout(r, 20));
    const during = await bRequests(10);
    const afterwards = await job();
    // The probe means something only if the PDF was still being drawn while B asked.
    expect(afterwards.state).toBe('running');
    expect(median(during)).toBeLessThan(baseline + 100);
    while ((await job()).state === 'running') await new Promise((r) => setTimeout(r, 100));
    expect(await job()).toMatchObject({ state: 'ready', rows: 30_000 });
  }, 120_000);
});
