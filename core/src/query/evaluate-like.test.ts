import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { likeMatches, likePrefix, parseLikePattern } from './evaluate-like.js';
import { dateGroupKey } from './evaluate-query.js';

/** Makes any text a pattern that matches exactly that text. */
const escape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

describe('like patterns: % any run, _ one character, \\ escapes, [ is literal, ASCII case folded', () => {
  it('an escaped text matches itself, whatever characters it holds', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => likeMatches(parseLikePattern(escape(s)), s)));
  });

  it('an escaped text followed by % matches every text that starts with it, and is a starts-with pattern', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', minLength: 1 }), fc.string(), (prefix, rest) => {
        const tokens = parseLikePattern(`${escape(prefix)}%`);
        return likeMatches(tokens, prefix + rest) && likePrefix(tokens) === prefix;
      }),
    );
  });

  it('folds ASCII letters only', () => {
    expect(likeMatches(parseLikePattern('ACME%'), 'acme labs')).toBe(true);
    expect(likeMatches(parseLikePattern('É'), 'é')).toBe(false);
    expect(likeMatches(parseLikePattern('[a]'), 'a')).toBe(false);
    expect(likeMatches(parseLikePattern('[a]'), '[A]')).toBe(true);
    expect(likeMatches(parseLikePattern('a_c'), 'a😀c')).toBe(true);
  });
});

describe('date grouping keys (UTC, weeks from Monday)', () => {
  it('gives the ISO week of the Thursday of the week', () => {
    expect(dateGroupKey('2024-12-30T10:00:00.000Z', 'week')).toBe('2025-W01');
    expect(dateGroupKey('2021-01-03T23:59:59.000Z', 'week')).toBe('2020-W53');
    expect(dateGroupKey('2024-01-01', 'week')).toBe('2024-W01');
    expect(dateGroupKey('2024-05-17T00:00:00.000Z', 'quarter')).toBe('2024-Q2');
  });
});
