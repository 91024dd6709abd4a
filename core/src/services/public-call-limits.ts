import { AttemptKeys, DEFAULT_PUBLIC_LIMITS, type PublicLimits } from '../auth/attempt-limits.js';
import type { AttemptLedger } from '../ports/attempt-ledger.js';
import type { Clock } from '../ports/clock.js';
import { AttemptLimiter, type AttemptVerdict } from './attempt-limiter.js';

/**
 * The limits of the anonymous calls (issue 22 items 4 and 8): trial organizations per address and
 * in all, survey submissions per link and per address. Each call is counted before its work (the
 * new organization, the survey's records), so a flood in parallel cannot slip past.
 */
export class PublicCallLimits {
  private readonly attempts: AttemptLimiter;

  constructor(
    ledger: AttemptLedger,
    clock: Clock,
    private readonly limits: PublicLimits = DEFAULT_PUBLIC_LIMITS,
  ) {
    this.attempts = new AttemptLimiter(ledger, clock);
  }

  /** One more trial organization from `ip`: within the address's and the global hourly caps. */
  trial(ip: string): Promise<AttemptVerdict> {
    return this.attempts.reserveAll([
      [AttemptKeys.trialAddress(ip), this.limits.trialAddress],
      [AttemptKeys.trialGlobal(), this.limits.trialGlobal],
    ]);
  }

  /** One more submission of survey `key` of `org` from `ip`. */
  survey(org: string, key: string, ip: string): Promise<AttemptVerdict> {
    return this.attempts.reserveAll([
      [AttemptKeys.surveyLink(org, key), this.limits.surveyLink],
      [AttemptKeys.surveyAddress(ip), this.limits.surveyAddress],
    ]);
  }
}
