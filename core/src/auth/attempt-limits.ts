/**
 * The rules of every limit on attempts (issue 22 items 3, 4 and 8): sign-ins, mailed links,
 * trials and survey submissions. A limit keeps one tally per key (an account, an address, a
 * recipient, a survey link); the tally lives behind the AttemptLedger port (the catalog
 * database), so a restart does not clear it and several server processes share it.
 *
 * Two kinds of rule:
 * - backoff (sign-in failures, as OWASP advises): a few attempts are free, then each further one
 *   waits twice as long as the one before, up to a cap. There is no hard lockout: an attacker who
 *   knows a user's e-mail delays that user by at most the cap, and sign-in links still work.
 * - window (mail, trials, surveys): at most `limit` attempts per fixed window.
 *
 * An attempt is counted BEFORE the slow work it guards (the password hash, the mail, the new
 * organization), so parallel requests cannot all pass a check made before any of them counted;
 * a sign-in that succeeds gives its attempt back (releasedTally).
 */

export type BackoffRule = {
  kind: 'backoff';
  /** Attempts counted before the first delay. */
  freeAttempts: number;
  /** The first delay; each further attempt doubles it. */
  baseDelayMs: number;
  /** No delay is longer than this. */
  maxDelayMs: number;
  /** A tally without attempts for this long starts over. */
  forgetAfterMs: number;
};

export type WindowRule = { kind: 'window'; limit: number; windowMs: number };

export type AttemptRule = BackoffRule | WindowRule;

/** What the ledger keeps per key: how many attempts count, since when (window start) and the latest. */
export type AttemptTally = { count: number; started: number; last: number };

export type AttemptDecision = { _tag: 'Allowed'; next: AttemptTally } | { _tag: 'Refused'; retryAfterMs: number };

/** The wait a backoff rule asks after `count` counted attempts: none while free, then base, 2 base, 4 base, ... up to the cap. */
export const backoffDelayMs = (rule: BackoffRule, count: number): number => {
  if (count < rule.freeAttempts) return 0;
  const doublings = count - rule.freeAttempts;
  // 2^40 ms is 35 years: past it only the cap matters (and Math.pow stays finite).
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** Math.min(doublings, 40));
};

const stale = (rule: AttemptRule, tally: AttemptTally, nowMs: number): boolean =>
  rule.kind === 'backoff' ? nowMs - tally.last >= rule.forgetAfterMs : nowMs - tally.started >= rule.windowMs;

/**
 * Whether one more attempt may go ahead at `nowMs`, and the tally that counts it. A refused
 * attempt changes nothing, so retrying while refused never lengthens the wait.
 */
export const decideAttempt = (rule: AttemptRule, tally: AttemptTally | null, nowMs: number): AttemptDecision => {
  const current = tally && !stale(rule, tally, nowMs) ? tally : null;
  if (!current) return { _tag: 'Allowed', next: { count: 1, started: nowMs, last: nowMs } };
  if (rule.kind === 'window') {
    if (current.count < rule.limit) return { _tag: 'Allowed', next: { ...current, count: current.count + 1, last: nowMs } };
    return { _tag: 'Refused', retryAfterMs: Math.max(1, current.started + rule.windowMs - nowMs) };
  }
  const until = current.last + backoffDelayMs(rule, current.count);
  if (nowMs < until) return { _tag: 'Refused', retryAfterMs: until - nowMs };
  return { _tag: 'Allowed', next: { ...current, count: current.count + 1, last: nowMs } };
};

/** The tally after an attempt that turned out fine is given back (null: nothing left to keep). */
export const releasedTally = (tally: AttemptTally): AttemptTally | null => (tally.count <= 1 ? null : { ...tally, count: tally.count - 1 });

/** Retry-After is whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The limits of signing in and of mailed links (issue 22 items 3 and 8). */
export type SignInLimits = {
  /** Failed sign-ins per account (organization + e-mail). */
  account: BackoffRule;
  /** Failed sign-ins per client address: an office behind one NAT shares it, so it gets more room. */
  address: BackoffRule;
  /** Sign-in links, invitations and reset links mailed to one recipient. */
  linkRecipient: WindowRule;
  /** Link requests from one address (whoever they are for). */
  linkAddress: WindowRule;
};

/** The limits of the public, anonymous calls (issue 22 items 4 and 8). */
export type PublicLimits = {
  /** Trial organizations created from one address. */
  trialAddress: WindowRule;
  /** Trial organizations created in all, whoever asks. */
  trialGlobal: WindowRule;
  /** Submissions of one survey link. */
  surveyLink: WindowRule;
  /** Survey submissions from one address. */
  surveyAddress: WindowRule;
};

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  account: { kind: 'backoff', freeAttempts: 10, baseDelayMs: 1000, maxDelayMs: 5 * MINUTE, forgetAfterMs: HOUR },
  address: { kind: 'backoff', freeAttempts: 100, baseDelayMs: 1000, maxDelayMs: 5 * MINUTE, forgetAfterMs: HOUR },
  linkRecipient: { kind: 'window', limit: 5, windowMs: 15 * MINUTE },
  linkAddress: { kind: 'window', limit: 50, windowMs: 15 * MINUTE },
};

export const DEFAULT_PUBLIC_LIMITS: PublicLimits = {
  trialAddress: { kind: 'window', limit: 3, windowMs: HOUR },
  trialGlobal: { kind: 'window', limit: 30, windowMs: HOUR },
  surveyLink: { kind: 'window', limit: 30, windowMs: MINUTE },
  surveyAddress: { kind: 'window', limit: 10, windowMs: MINUTE },
};

/** The keys of the ledger, one namespace per limit so two limits never share a tally. */
export const AttemptKeys = {
  account: (org: string, email: string) => `signin:account:${org}/${email}`,
  address: (ip: string) => `signin:address:${ip}`,
  linkRecipient: (org: string, email: string) => `link:recipient:${org}/${email}`,
  linkAddress: (ip: string) => `link:address:${ip}`,
  trialAddress: (ip: string) => `trial:address:${ip}`,
  trialGlobal: () => 'trial:all',
  surveyLink: (org: string, key: string) => `survey:link:${org}/${key.slice(0, 200)}`,
  surveyAddress: (ip: string) => `survey:address:${ip}`,
} as const;
