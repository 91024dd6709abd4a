import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { metadataExpired, newerBuildOut } from './freshness.js';
import { isFresh, objectChangedEvent } from './realtime.js';

describe('session freshness (spec 000 section 4)', () => {
  it('reloads metadata only when its age exceeds 12 h', () => {
    const loadedAt = Date.UTC(2026, 0, 1);
    expect(metadataExpired({ loadedAt }, loadedAt + 43_200_000)).toBe(false);
    expect(metadataExpired({ loadedAt }, loadedAt + 43_200_001)).toBe(true);
  });

  it('sees a newer build when its date is later than the page load and already past', () => {
    const page = Date.UTC(2026, 0, 1, 10);
    expect(newerBuildOut(new Date(page + 1000).toISOString(), page, page + 2000)).toBe(true);
    expect(newerBuildOut(new Date(page - 1000).toISOString(), page, page + 2000)).toBe(false);
    expect(newerBuildOut(new Date(page + 5000).toISOString(), page, page + 2000)).toBe(false);
    expect(newerBuildOut('not a date', page, page + 2000)).toBe(false);
  });

  it('raises objectChanged:{entity} only for changes not older than the stream start', () => {
    expect(objectChangedEvent('account')).toBe('objectChanged:account');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), (stamp, since) => {
        const e = { entity: 'account', id: 'x', operation: 'update' as const, stamp: new Date(stamp).toISOString() };
        return isFresh(e, new Date(since).toISOString()) === stamp >= since;
      }),
    );
  });
});
