// The HTTP list page at 100k rows (issue 24): 50 connections on loopback fetch a 50-row page of
// 100,000 accounts ordered by name (pages 1 to 20), with their parent account's name (a lookup
// label, "a category lookup") and the count (capped at 10,000: "50 of 10,000+"), from `tessera
// serve` (sessions, permissions, validation, the deferred join) and from a bare Express handler
// running the same page by hand over raw SQL on the same SQLite file and the same indexes, in
// alternating slices of the same run. Goal: tessera / bare >= 0.85 (requests per second).
// Run: node --import tsx tests/bench/list-http-bench.ts (BENCH_SECONDS, default 30; BENCH_ROWS, default 100000).
import type { AddressInfo } from 'node:net';
import express from 'express';
import Database from 'better-sqlite3';
import { DEFAULT_COUNT_CAP } from '@tessera/core/internal';
import { benchLine, combined, figures, loadTest, startBenchServer, type BenchResult } from './http-bench-kit.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PARENTS = 50;
const PAGE = 50;
const ROUNDS = 3;

const server = await startBenchServer({
  fill: async (write) => {
    const parents = await write(Array.from({ length: PARENTS }, (_, i) => ({ operation: 'create' as const, name: 'account', object: { name: `Group ${i}` } })));
    const rows = ROWS - PARENTS;
    for (let done = 0; done < rows; done += 10_000)
      await write(
        Array.from({ length: Math.min(10_000, rows - done) }, (_, k) => {
          const i = done + k;
          // Names in an order unlike the insert order, so the sort is the index's work.
          const name = `Account ${String((i * 7919) % rows).padStart(6, '0')}`;
          return { operation: 'create' as const, name: 'account', object: { name, industry: 1 + (i % 3), revenue: i, parentaccountid: parents[i % PARENTS] } };
        }),
      );
  },
});

const ATTRIBUTES = ['name', 'accountnumber', 'industry', 'revenue', 'parentaccountid', 'createdon'];
const page = (i: number) => 1 + (i % 20);
const request = (i: number) => ({
  path: '/api/fetch',
  body: JSON.stringify({ entity: { name: 'account', attributes: ATTRIBUTES.map((attribute) => ({ attribute })), orders: [{ attribute: 'name' }] }, page: page(i), pageSize: PAGE, count: true }),
});

/**
 * The page by hand: the keys of the page from the name index (name, then id: a total order), then
 * those 50 rows with their parent's name; the count stops at the cap, as Tessera's does.
 */
const bare = () => {
  const db = new Database(server.file);
  db.pragma('journal_mode = WAL');
  const rows = db.prepare(
    `SELECT t.id, t.name, t.accountnumber, t.industry, t.revenue, t.parentaccountid, p.name AS parentname, t.createdon, t.versionnumber
     FROM (SELECT id FROM account ORDER BY name, id LIMIT ? OFFSET ?) k CROSS JOIN account t ON t.id = k.id
     LEFT JOIN account p ON p.id = t.parentaccountid ORDER BY t.name, t.id`,
  );
  const count = db.prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM account LIMIT ?)`);
  const app = express();
  app.use(express.json());
  app.post('/api/fetch', (req, res) => {
    const p = Number(req.body.page ?? 1);
    const read = db.transaction(() => ({ rows: rows.all(PAGE, (p - 1) * PAGE) as Array<Record<string, unknown>>, n: (count.get(DEFAULT_COUNT_CAP + 1) as { n: number }).n }))();
    const records = read.rows.map((r) => ({
      id: r.id, name: r.name, accountnumber: r.accountnumber, industry: r.industry, revenue: r.revenue, createdon: r.createdon, versionnumber: r.versionnumber,
      parentaccountid: r.parentaccountid ? { id: r.parentaccountid, name: r.parentname, logicalName: 'account' } : null,
    }));
    res.json({ records, count: Math.min(read.n, DEFAULT_COUNT_CAP), countIsCapped: read.n > DEFAULT_COUNT_CAP, page: p, pageSize: PAGE, moreRecords: true });
  });
  return { app, db };
};

const b = bare();
const http = b.app.listen(0, '127.0.0.1');
await new Promise((ok) => http.once('listening', ok));
const bareUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
try {
  // Both answer the same page before anything is timed.
  const check = async (url: string, headers: Record<string, string>) => {
    const r = await fetch(`${url}/api/fetch`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: request(4).body });
    if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { records: Array<{ name: string }> }).records.map((x) => x.name);
  };
  const mine = await check(server.url, { 'x-accessptoken': server.token });
  const theirs = await check(bareUrl, {});
  if (JSON.stringify(mine) !== JSON.stringify(theirs)) throw new Error(`the pages differ: ${mine.slice(0, 3)} / ${theirs.slice(0, 3)}`);

  const slices = { tessera: [] as BenchResult[], bare: [] as BenchResult[] };
  for (let r = 0; r < ROUNDS; r++) {
    slices.tessera.push(await loadTest(server.url, { 'x-accessptoken': server.token }, request, SECONDS / ROUNDS));
    slices.bare.push(await loadTest(bareUrl, {}, request, SECONDS / ROUNDS));
  }
  const tessera = combined(slices.tessera);
  const baseline = combined(slices.bare);
  process.stdout.write(`# 50 connections, ${SECONDS} s each (${ROUNDS} alternating slices): a ${PAGE}-row page of ${ROWS} accounts by name, with the parent's name and the count\n`);
  process.stdout.write(`# bare express + raw SQL: ${figures(baseline)}\n# tessera: ${figures(tessera)}\n`);
  const ratio = tessera.rps / baseline.rps;
  benchLine(`http list page of ${ROWS / 1000}k rows, tessera / bare express`, ratio.toFixed(2), 'x', '>= 0.85', ratio >= 0.85);
  benchLine(`http list page of ${ROWS / 1000}k rows, errors`, tessera.errors + tessera.non2xx, 'count', '0', tessera.errors + tessera.non2xx === 0);
} finally {
  http.closeAllConnections();
  await new Promise((ok) => http.close(ok));
  b.db.close();
  await server.close();
}
