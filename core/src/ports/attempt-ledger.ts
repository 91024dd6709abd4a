import type { AttemptTally } from '../auth/attempt-limits.js';

/**
 * The tallies of the attempt limits (issue 22 items 3, 4, 8), kept where every server process
 * sees them and a restart does not clear them (the catalog database). The rules are the core's
 * (decideAttempt); the ledger only stores, and decides nothing but an atomic compare-and-set.
 */
export interface AttemptLedger {
  /** The tally of a key, or null when it has none. */
  read(key: string): Promise<AttemptTally | null>;
  /**
   * Replaces the tally of `key` by `next` (null: forget the key), but only if it still is
   * `expected` (null: the key has no tally); true when it did. Of parallel swaps from the same
   * `expected`, exactly one succeeds, in this process or in another sharing the database.
   */
  swap(key: string, expected: AttemptTally | null, next: AttemptTally | null): Promise<boolean>;
}
