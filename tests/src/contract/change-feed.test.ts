import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InMemoryChangeFeed, type Change, type ChangeFeed } from '@tessera/core/internal';

/**
 * The ChangeFeed port's contract (core/src/ports/change-feed.ts; API.md "Realtime"), the same body
 * for every implementation. A feed keeping `keep` changes for `since` replays.
 */
const IMPLEMENTATIONS: Array<[string, (keep: number) => ChangeFeed]> = [['InMemoryChangeFeed', (keep) => new InMemoryChangeFeed(keep)]];

const change = (n: number): Change => ({ entity: 'account', id: `id-${n}`, operation: 'update', stamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() });

describe.each(IMPLEMENTATIONS)('ChangeFeed contract: %s', (_name, make) => {
  it('every listener gets every later change once, in the order published', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 4 }), (count, listeners) => {
        const feed = make(1000);
        const seen = Array.from({ length: listeners }, () => [] as Change[]);
        seen.forEach((s) => feed.subscribe((c) => s.push(c)));
        const published = Array.from({ length: count }, (_, i) => change(i));
        published.forEach((c) => feed.publish(c));
        for (const s of seen) expect(s).toEqual(published);
      }),
    );
  });

  it('a listener hears nothing published before it subscribed (without since) or after it unsubscribed', () => {
    const feed = make(1000);
    feed.publish(change(1));
    const seen: Change[] = [];
    const stop = feed.subscribe((c) => seen.push(c));
    feed.publish(change(2));
    stop();
    feed.publish(change(3));
    expect(seen).toEqual([change(2)]);
  });

  it('with since, the kept changes stamped after it come first, then the live ones', () => {
    const feed = make(1000);
    [1, 2, 3].forEach((n) => feed.publish(change(n)));
    const seen: Change[] = [];
    feed.subscribe((c) => seen.push(c), change(1).stamp);
    feed.publish(change(4));
    expect(seen).toEqual([change(2), change(3), change(4)]);
  });

  it('only the last `keep` changes are kept for replays', () => {
    const feed = make(3);
    [1, 2, 3, 4, 5].forEach((n) => feed.publish(change(n)));
    const seen: Change[] = [];
    feed.subscribe((c) => seen.push(c), change(0).stamp);
    expect(seen).toEqual([change(3), change(4), change(5)]);
  });

  it('a listener that unsubscribes while a change is delivered does not keep others from it', () => {
    const feed = make(1000);
    const seen: string[] = [];
    const stop = feed.subscribe(() => {
      seen.push('first');
      stop();
    });
    feed.subscribe(() => seen.push('second'));
    feed.publish(change(1));
    feed.publish(change(2));
    expect(seen).toEqual(['first', 'second', 'second']);
  });
});
