/**
 * The ChangeFeed port: what changed, published after commit (issue 5, API.md "Realtime").
 * One feed per organization; the realtime stream of /api/stream reads it.
 */
export type ChangeOperation = 'create' | 'update' | 'delete' | 'restore';

/** One committed change; `stamp` is the commit time as ISO 8601 UTC. */
export type Change = { entity: string; id: string; operation: ChangeOperation; stamp: string };

export interface ChangeFeed {
  publish(change: Change): void;
  /**
   * Listens to later changes; with `since` (ISO) first replays the kept changes stamped after it.
   * Returns the unsubscribe function.
   */
  subscribe(listener: (change: Change) => void, since?: string): () => void;
}

/** How many recent changes an in-memory feed keeps for `since` replays. */
export const CHANGE_FEED_HISTORY = 1000;

/** A process-local feed: enough for one server process and for tests. */
export class InMemoryChangeFeed implements ChangeFeed {
  private readonly history: Change[] = [];
  private readonly listeners = new Set<(change: Change) => void>();

  constructor(private readonly keep: number = CHANGE_FEED_HISTORY) {}

  publish(change: Change): void {
    this.history.push(change);
    if (this.history.length > this.keep) this.history.splice(0, this.history.length - this.keep);
    for (const l of [...this.listeners]) l(change);
  }

  subscribe(listener: (change: Change) => void, since?: string): () => void {
    if (since !== undefined) for (const c of this.history) if (c.stamp > since) listener(c);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The kept changes, oldest first (for tests and diagnostics). */
  recent(): readonly Change[] {
    return this.history;
  }
}
