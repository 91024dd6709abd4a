import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelayMs, decideAttempt, releasedTally, type AttemptTally, type BackoffRule, type WindowRule } from './attempt-limits.js';
import { AttemptLimiter, InMemoryAttemptLedger } from '../services/attempt-limiter.js';

const backoff: BackoffRule = { kind: 'backoff', freeAttempts: 10, baseDelayMs: 1000, maxDelayMs: 300_000, forgetAfterMs: 3_600_000 };
const window: WindowRule = { kind: 'window', limit: 5, windowMs: 900_000 };
const T0 = Date.UTC(2026, 10, 24);

/** Runs attempts at the given times through the rule; the outcomes, in order. */
const run = (rule: BackoffRule | WindowRule, times: number[]): boolean[] => {
  let tally: AttemptTally | null = null;
  return times.map((t) => {
    const d = decideAttempt(rule, tally, t);
    if (d._tag === 'Allowed') tally = d.next;
    return d._tag === 'Allowed';
  });
};

describe('issue 22 item 3: failed sign-ins wait longer and longer (OWASP backoff), with a cap and no lockout', () => {
  it('the delay is 0 while free, then doubles from the base, and never passes the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (n) => {
        const d = backoffDelayMs(backoff, n);
        if (n < backoff.freeAttempts) expect(d).toBe(0);
        else expect(d).toBe(Math.min(backoff.maxDelayMs, 1000 * 2 ** (n - backoff.freeAttempts)));
        expect(backoffDelayMs(backoff, n + 1)).toBeGreaterThanOrEqual(d);
        expect(d).toBeLessThanOrEqual(backoff.maxDelayMs);
      }),
    );
  });

  it('all at once, exactly the free attempts go ahead; a refusal counts nothing and names the wait', () => {
    const outcomes = run(backoff, Array.from({ length: 200 }, () => T0));
    expect(outcomes.filter(Boolean)).toHaveLength(10);
    expect(outcomes.slice(0, 10).every(Boolean)).toBe(true);
    let tally: AttemptTally | null = null;
    for (let i = 0; i < 10; i++) tally = (decideAttempt(backoff, tally, T0) as { next: AttemptTally }).next;
    expect(decideAttempt(backoff, tally, T0 + 400)).toEqual({ _tag: 'Refused', retryAfterMs: 600 });
    expect(decideAttempt(backoff, tally, T0 + 1000)._tag).toBe('Allowed');
  });

  it('whoever keeps failing, the account is never refused for longer than the cap after its last attempt', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600_000 }), { minLength: 1, maxLength: 80 }), (gaps) => {
        let tally: AttemptTally | null = null;
        let t = T0;
        for (const g of gaps) {
          t += g;
          const d = decideAttempt(backoff, tally, t);
          if (d._tag === 'Allowed') tally = d.next;
          else expect(d.retryAfterMs).toBeLessThanOrEqual(backoff.maxDelayMs);
        }
        expect(decideAttempt(backoff, tally, (tally?.last ?? t) + backoff.maxDelayMs)._tag).toBe('Allowed');
      }),
    );
  });

  it('after an hour without attempts the tally starts over; a success gives its attempt back', () => {
    const tally: AttemptTally = { count: 40, started: T0, last: T0 };
    expect(decideAttempt(backoff, tally, T0 + 3_600_000)).toEqual({ _tag: 'Allowed', next: { count: 1, started: T0 + 3_600_000, last: T0 + 3_600_000 } });
    expect(releasedTally(tally)).toEqual({ ...tally, count: 39 });
    expect(releasedTally({ ...tally, count: 1 })).toBeNull();
  });
});

describe('issue 22 items 4 and 8: at most `limit` attempts per window (mail, trials, surveys)', () => {
  it('within one window the first `limit` go ahead, the rest wait for the window to end', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 899_999 }), { maxLength: 40 }), (offsets) => {
        const times = offsets.map((o) => T0 + o).sort((a, b) => a - b);
        const outcomes = run(window, times);
        expect(outcomes.filter(Boolean)).toHaveLength(Math.min(5, times.length));
        let tally: AttemptTally | null = null;
        for (const t of times) {
          const d = decideAttempt(window, tally, t);
          if (d._tag === 'Allowed') tally = d.next;
          else expect(t + d.retryAfterMs).toBe(times[0] + window.windowMs);
        }
      }),
    );
  });
});

describe('the limiter counts before the work: parallel attempts cannot all pass', () => {
  it('200 parallel reservations on one key: exactly the free 10 are allowed (in-memory ledger)', async () => {
    const limiter = new AttemptLimiter(new InMemoryAttemptLedger(), { now: () => new Date(T0) });
    const verdicts = await Promise.all(Array.from({ length: 200 }, () => limiter.reserve('k', backoff)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('reserving an account and an address is all or none: a refused address gives the account its attempt back', async () => {
    const ledger = new InMemoryAttemptLedger();
    const limiter = new AttemptLimiter(ledger, { now: () => new Date(T0) });
    const oneFree: BackoffRule = { ...backoff, freeAttempts: 1 };
    expect((await limiter.reserveAll([['acct', backoff], ['addr', oneFree]])).allowed).toBe(true);
    expect((await limiter.reserveAll([['acct', backoff], ['addr', oneFree]])).allowed).toBe(false);
    expect((await ledger.read('acct'))?.count).toBe(1);
  });
});
