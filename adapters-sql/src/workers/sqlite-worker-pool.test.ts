import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../sqlite/open-sqlite.js';
import { SqliteWorkerPool, SqlTimeout } from './sqlite-worker-pool.js';

/** A statement that keeps SQLite busy for about a second (a recursive count, no table). */
/** About half a second on a quiet machine: long enough that b's trivial read, on another worker, answers first even on a loaded one. */
const SLOW = { sql: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000000) SELECT COUNT(*) AS c FROM n', params: [] };

describe('the SQLite worker pool (issue 22 item 1)', () => {
  let dir: string;
  let a: string;
  let b: string;
  let pool: SqliteWorkerPool;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-pool-'));
    a = join(dir, 'a.sqlite');
    b = join(dir, 'b.sqlite');
    for (const f of [a, b]) {
      const db = openSqlite(f);
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      db.close();
    }
    pool = new SqliteWorkerPool({ size: 2 });
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("one file's slow read leaves a worker to another file: b is answered while a's read runs", async () => {
    // both workers loaded (two reads at once go to two workers)
    await Promise.all([pool.read(b, [{ sql: 'SELECT 1 AS x', params: [] }]), pool.read(a, [{ sql: 'SELECT 1 AS x', params: [] }])]);
    let slowDone = false;
    const SLOWER = { sql: SLOW.sql.replace('5000000', '30000000'), params: [] };
    const slow = pool.read(a, [SLOWER]).then((r) => ((slowDone = true), r));
    await new Promise((r) => setTimeout(r, 20));
    // a second read of a waits for a's turn (one file reads on all workers but one) ...
    const queued = pool.read(a, [{ sql: 'SELECT 2 AS x', params: [] }]);
    // ... while b is served at once
    expect(await pool.read(b, [{ sql: 'SELECT 3 AS x', params: [] }])).toEqual([[{ x: 3 }]]);
    expect(slowDone).toBe(false);
    expect((await slow)[0][0]).toEqual({ c: 30000000 });
    expect(await queued).toEqual([[{ x: 2 }]]);
  });

  it('transactions of one file run one at a time, each on one connection, and a rollback leaves nothing', async () => {
    const insert = (v: string) => ({ sql: 'INSERT INTO t (v) VALUES (?)', params: [v] });
    const runs = Array.from({ length: 10 }, (_, i) =>
      pool.transact(a, async (tx) => {
        const before = (await tx.exec({ sql: 'SELECT COUNT(*) AS n FROM t', params: [] })).rows[0].n as number;
        await new Promise((r) => setTimeout(r, 1));
        await tx.exec(insert(`v${before}`));
        await tx.end(i % 2 === 0);
      }),
    );
    await Promise.all(runs);
    // Serialized: each transaction saw the count its predecessors committed, so the values are distinct.
    const rows = (await pool.read(a, [{ sql: 'SELECT v FROM t ORDER BY id', params: [] }]))[0].map((r) => r.v);
    expect(rows).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  });

  it('a read past its budget fails with SqlTimeout at once; its worker is replaced and the pool goes on', async () => {
    const t0 = performance.now();
    await expect(pool.read(b, [SLOW], 50)).rejects.toBeInstanceOf(SqlTimeout);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(await pool.read(b, [{ sql: 'SELECT 4 AS x', params: [] }], 5000)).toEqual([[{ x: 4 }]]);
    expect(await pool.read(a, [{ sql: 'SELECT COUNT(*) AS n FROM t', params: [] }], 5000)).toEqual([[{ n: 5 }]]);
  });

  it('a write queued on a worker that is replaced after an overdue read fails with ERR_TIMEOUT (503 over HTTP, not 500) and writes nothing', async () => {
    // both workers loaded and idle
    await Promise.all([pool.read(a, [{ sql: 'SELECT 1 AS x', params: [] }], 5000), pool.read(b, [{ sql: 'SELECT 1 AS x', params: [] }], 5000)]);
    const overdue = pool.read(b, [SLOW], 50); // the first worker: replaced after 50 ms
    const busy = pool.read(a, [SLOW]); // the second worker, no budget
    // Equal load: the write goes to the first worker and waits behind the overdue read.
    const write = pool.transact(a, async (tx) => {
      await tx.exec({ sql: "INSERT INTO t (v) VALUES ('lost')", params: [] });
      await tx.end(true);
    });
    await expect(overdue).rejects.toBeInstanceOf(SqlTimeout);
    await expect(write).rejects.toMatchObject({ code: 'ERR_TIMEOUT' });
    await busy;
    expect(await pool.read(a, [{ sql: "SELECT COUNT(*) AS n FROM t WHERE v = 'lost'", params: [] }], 5000)).toEqual([[{ n: 0 }]]);
  });
});
