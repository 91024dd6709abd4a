import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttemptLimiter, InMemoryAttemptLedger, type AttemptLedger, type AttemptTally, type BackoffRule, type Clock, type WindowRule } from '@tessera/core/internal';
import { KyselyAttemptLedger, openCatalog } from '@tessera/adapters-sql';

/**
 * The AttemptLedger port's contract (core/src/ports/attempt-ledger.ts; issue 22 items 3, 4, 8),
 * the same body for every implementation: in memory, the catalog on SQLite in memory and on disk,
 * and two catalogs open on one file (two server processes). The ledger is a compare-and-set
 * store: of parallel swaps from one expected tally exactly one wins, so a limit counted through
 * it holds under any concurrency.
 */
type Fixture = { ledger: AttemptLedger; other: AttemptLedger; close(): Promise<void> };
const T0 = Date.UTC(2026, 10, 24, 20);
const clock: Clock = { now: () => new Date(T0) };

const IMPLEMENTATIONS: Array<[string, () => Promise<Fixture>]> = [
  [
    'InMemoryAttemptLedger',
    async () => {
      const ledger = new InMemoryAttemptLedger();
      return { ledger, other: ledger, close: async () => undefined };
    },
  ],
  [
    'KyselyAttemptLedger on SQLite in memory',
    async () => {
      const db = await openCatalog(':memory:');
      const ledger = new KyselyAttemptLedger(db, clock);
      return { ledger, other: ledger, close: () => db.destroy() };
    },
  ],
  [
    'KyselyAttemptLedger on a SQLite file, two connections (two processes sharing the data folder)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tessera-attempts-'));
      const a = await openCatalog(join(dir, 'catalog.sqlite'));
      const b = await openCatalog(join(dir, 'catalog.sqlite'));
      return {
        ledger: new KyselyAttemptLedger(a, clock),
        other: new KyselyAttemptLedger(b, clock),
        close: async () => {
          await a.destroy();
          await b.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

const tally = (count: number, started = T0, last = T0): AttemptTally => ({ count, started, last });
const backoff: BackoffRule = { kind: 'backoff', freeAttempts: 10, baseDelayMs: 1000, maxDelayMs: 300_000, forgetAfterMs: 3_600_000 };
const window: WindowRule = { kind: 'window', limit: 5, windowMs: 900_000 };

describe.each(IMPLEMENTATIONS)('AttemptLedger contract: %s', (_name, make) => {
  let f: Fixture;
  afterEach(async () => f?.close());

  it('a key without a tally reads null; a swap from null creates it, and it reads back (from the other connection too)', async () => {
    f = await make();
    expect(await f.ledger.read('k')).toBeNull();
    expect(await f.ledger.swap('k', null, tally(1))).toBe(true);
    expect(await f.ledger.read('k')).toEqual(tally(1));
    expect(await f.other.read('k')).toEqual(tally(1));
  });

  it('a swap from a stale expectation changes nothing: null when a tally exists, another tally, a forgotten key', async () => {
    f = await make();
    await f.ledger.swap('k', null, tally(1));
    expect(await f.other.swap('k', null, tally(7))).toBe(false);
    expect(await f.other.swap('k', tally(2), tally(3))).toBe(false);
    expect(await f.other.swap('k', tally(1, T0, T0 + 1), tally(3))).toBe(false);
    expect(await f.ledger.read('k')).toEqual(tally(1));
    expect(await f.other.swap('k', tally(1), tally(2, T0, T0 + 5))).toBe(true);
    expect(await f.ledger.read('k')).toEqual(tally(2, T0, T0 + 5));
    expect(await f.ledger.swap('k', tally(2, T0, T0 + 5), null)).toBe(true);
    expect(await f.other.read('k')).toBeNull();
    expect(await f.other.swap('k', tally(2, T0, T0 + 5), null)).toBe(false);
  });

  it('keys are apart: a swap on one never touches another', async () => {
    f = await make();
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 2, maxLength: 6 }), async (keys) => {
        const prefix = `p${Math.random()}:`;
        for (const [i, k] of keys.entries()) expect(await f.ledger.swap(prefix + k, null, tally(i + 1))).toBe(true);
        for (const [i, k] of keys.entries()) expect(await f.other.read(prefix + k)).toEqual(tally(i + 1));
      }),
      { numRuns: 20 },
    );
  });

  it('of many parallel swaps from one expectation exactly one wins, over both connections', async () => {
    f = await make();
    await f.ledger.swap('k', null, tally(1));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? f.ledger : f.other).swap('k', tally(1), tally(2, T0, T0 + i))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('through the limiter, 200 parallel attempts over both connections: exactly the free 10 of a backoff, the 5 of a window', async () => {
    f = await make();
    const a = new AttemptLimiter(f.ledger, clock);
    const b = new AttemptLimiter(f.other, clock);
    const backoffs = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).reserve('account', backoff)));
    expect(backoffs.filter((v) => v.allowed)).toHaveLength(10);
    const windows = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).reserve('recipient', window)));
    expect(windows.filter((v) => v.allowed)).toHaveLength(5);
    expect(await f.ledger.read('recipient')).toEqual(tally(5));
  });
});
