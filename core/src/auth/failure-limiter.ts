/**
 * Counts failed attempts per key (an account, an address) in a sliding window. Past the limit
 * the caller is refused until the oldest counted failure leaves the window (issue 6: at most
 * 100 failed sign-ins per hour per account, plus a per-address limit; 429 with Retry-After).
 */
export type LimitRule = { limit: number; windowMs: number };

export const ACCOUNT_FAILURE_LIMIT: LimitRule = { limit: 100, windowMs: 60 * 60 * 1000 };
/** An address may serve many users (an office behind one NAT), so it gets more room than an account. */
export const ADDRESS_FAILURE_LIMIT: LimitRule = { limit: 300, windowMs: 60 * 60 * 1000 };

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private checks = 0;

  constructor(private readonly rule: LimitRule) {}

  private recent(key: string, nowMs: number): number[] {
    const list = this.failures.get(key);
    if (!list) return [];
    const from = nowMs - this.rule.windowMs;
    let i = 0;
    while (i < list.length && list[i] <= from) i++;
    if (i > 0) list.splice(0, i);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }

  check(key: string, now: Date): LimitVerdict {
    const nowMs = now.getTime();
    if (++this.checks % 1000 === 0) this.prune(nowMs);
    const list = this.recent(key, nowMs);
    if (list.length < this.rule.limit) return { allowed: true };
    const oldest = list[list.length - this.rule.limit];
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.rule.windowMs - nowMs) / 1000)) };
  }

  fail(key: string, now: Date): void {
    const nowMs = now.getTime();
    const list = this.recent(key, nowMs);
    list.push(nowMs);
    // Only the newest `limit` failures can matter for a verdict.
    if (list.length > this.rule.limit) list.splice(0, list.length - this.rule.limit);
    this.failures.set(key, list);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Forgets windows that have passed, so memory stays bounded by recent attackers. */
  private prune(nowMs: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, nowMs);
  }
}
