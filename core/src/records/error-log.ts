/** Spec 000 section 8, 001 section 8: the session error log stays under 1,000,000 characters. */
export const ERROR_LOG_LIMIT = 1_000_000;

/**
 * Appends an entry (one line) to the session error log. When the log would reach the limit,
 * its older half is trimmed, cut at a line start so no entry is left half (the newest entry is
 * always kept; one that alone reaches the limit keeps its newest half). The result is always
 * under the limit.
 */
export const appendErrorLog = (log: string, entry: string, limit = ERROR_LOG_LIMIT): string => {
  const line = entry.endsWith('\n') ? entry : `${entry}\n`;
  const next = log + line;
  if (next.length < limit) return next;
  // Drop whole entries from the start until at least half of the text is gone.
  const cut = next.indexOf('\n', Math.floor(next.length / 2) - 1) + 1;
  const kept = cut < next.length ? next.slice(cut) : line;
  return kept.length < limit ? kept : kept.slice(kept.length - Math.floor(limit / 2));
};
