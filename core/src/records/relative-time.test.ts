import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { relativeTime, relativeTimeText } from './relative-time.js';

/** Spec 001 "Activity feed": under 60 seconds '1 min ago', under 1 hour in minutes, under 1 day in hours, otherwise the date. */
describe('relative time of the activity feed: thresholds at their boundaries (spec 001 section 2)', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const text = (agoMs: number, lang: 'en' | 'sk' | 'cz' | 'de' = 'en') => relativeTimeText(relativeTime(now - agoMs, now)!, (d) => d.toISOString().slice(0, 10), lang);
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;

  it("59.999 s is still '1 min ago'; 60 s is 1 minute; 119 s is 1 minute; 120 s is 2", () => {
    expect(text(0)).toBe('1 min ago');
    expect(text(59_999)).toBe('1 min ago');
    expect(text(60 * S)).toBe('1 min ago');
    expect(text(119 * S)).toBe('1 min ago');
    expect(text(120 * S)).toBe('2 min ago');
  });

  it('59 min 59 s is minutes; 1 h exactly is hours', () => {
    expect(text(H - 1)).toBe('59 min ago');
    expect(text(H)).toBe('1 hour ago');
    expect(text(2 * H)).toBe('2 hours ago');
  });

  it('23 h 59 min 59.999 s is hours; 24 h exactly is the date', () => {
    expect(text(24 * H - 1)).toBe('23 hours ago');
    expect(text(24 * H)).toBe('2026-11-24');
    expect(text(400 * 24 * H)).toBe('2025-10-21');
  });

  it('a time in the future (clock skew between browser and server) counts as just now', () => {
    expect(text(-5 * M)).toBe('1 min ago');
  });

  it('through the catalogue with plurals: Slovak and Czech hours, German minutes', () => {
    expect(text(5 * M, 'sk')).toBe('pred 5 min');
    expect(text(H, 'sk')).toBe('pred 1 hodinou');
    expect(text(3 * H, 'sk')).toBe('pred 3 hodinami');
    expect(text(H, 'cz')).toBe('před 1 hodinou');
    expect(text(10 * M, 'de')).toBe('vor 10 Min.');
    expect(text(5 * H, 'de')).toBe('vor 5 Stunden');
  });

  it('property: the unit never shrinks as time passes, and counts stay within their ranges', () => {
    const rank = { minutes: 0, hours: 1, date: 2 } as const;
    fc.assert(
      fc.property(fc.integer({ min: -H, max: 3 * 24 * H }), fc.integer({ min: 0, max: 3 * 24 * H }), (a, d) => {
        const x = relativeTime(now - a, now)!;
        const y = relativeTime(now - a - d, now)!;
        expect(rank[y.unit]).toBeGreaterThanOrEqual(rank[x.unit]);
        if (x.unit === 'minutes') expect(x.count >= 1 && x.count <= 59).toBe(true);
        if (x.unit === 'hours') expect(x.count >= 1 && x.count <= 23).toBe(true);
      }),
    );
  });
});
