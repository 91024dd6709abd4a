import { decideAttempt, releasedTally, type AttemptRule, type AttemptTally } from '../auth/attempt-limits.js';
import type { AttemptLedger } from '../ports/attempt-ledger.js';
import type { Clock } from '../ports/clock.js';

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Compare-and-set rounds before giving up; only hundreds of parallel attempts on one key ever need more than a few. */
const MAX_ROUNDS = 64;

const same = (a: AttemptTally | null, b: AttemptTally | null): boolean =>
  a === b || (a !== null && b !== null && a.count === b.count && a.started === b.started && a.last === b.last);

/**
 * Counts attempts against the limits of attempt-limits.ts on an AttemptLedger: read the tally,
 * decide with the core's rule, write it back only if nobody changed it meanwhile (else decide
 * again). So a limit holds under any concurrency, across processes sharing the ledger.
 */
export class AttemptLimiter {
  constructor(
    private readonly ledger: AttemptLedger,
    private readonly clock: Clock,
  ) {}

  /** Counts one attempt of `key` now, unless the rule refuses it (then nothing is counted). */
  async reserve(key: string, rule: AttemptRule): Promise<AttemptVerdict> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const tally = await this.ledger.read(key);
      const decision = decideAttempt(rule, tally, this.clock.now().getTime());
      if (decision._tag === 'Refused') return { allowed: false, retryAfterMs: decision.retryAfterMs };
      if (await this.ledger.swap(key, tally, decision.next)) return { allowed: true };
    }
    // Contention this high is an attack on the key itself: refuse rather than let it through.
    return { allowed: false, retryAfterMs: 1000 };
  }

  /** Counts several keys at once (an account and an address): all or none; the longest wait answers. */
  async reserveAll(entries: ReadonlyArray<readonly [string, AttemptRule]>): Promise<AttemptVerdict> {
    const done: string[] = [];
    for (const [key, rule] of entries) {
      const v = await this.reserve(key, rule);
      if (!v.allowed) {
        for (const k of done) await this.release(k);
        return v;
      }
      done.push(key);
    }
    return { allowed: true };
  }

  /** Gives back one counted attempt (it succeeded, so it was no failure). */
  async release(key: string): Promise<void> {
    await this.update(key, releasedTally);
  }

  /** Forgets every counted attempt of `key` (the account signed in). */
  async clear(key: string): Promise<void> {
    await this.update(key, () => null);
  }

  private async update(key: string, change: (t: AttemptTally) => AttemptTally | null): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const tally = await this.ledger.read(key);
      if (!tally) return;
      const next = change(tally);
      if (same(tally, next) || (await this.ledger.swap(key, tally, next))) return;
    }
  }
}

/** The AttemptLedger in memory: for tests and for hosts with one process (a restart clears it). */
export class InMemoryAttemptLedger implements AttemptLedger {
  private readonly tallies = new Map<string, AttemptTally>();

  async read(key: string): Promise<AttemptTally | null> {
    const t = this.tallies.get(key);
    return t ? { ...t } : null;
  }

  async swap(key: string, expected: AttemptTally | null, next: AttemptTally | null): Promise<boolean> {
    if (!same(this.tallies.get(key) ?? null, expected)) return false;
    if (next) this.tallies.set(key, { ...next });
    else this.tallies.delete(key);
    return true;
  }
}
