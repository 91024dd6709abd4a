import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { likeMatches, parseLikePattern } from '@tessera/core/internal';
import { dialectPattern, prefixRange } from './sql-query.js';

const fold = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** Code-point order: SQLite's BINARY (and NOCASE after folding) over UTF-8. */
const below = (a: string, b: string): boolean => {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i];
  return x.length < y.length;
};

describe('like patterns in each dialect', () => {
  it('escapes literals with \\ on SQLite and with brackets on SQL Server', () => {
    const tokens = parseLikePattern('50\\%[x]\\__%');
    expect(dialectPattern('sqlite', tokens)).toBe('50\\%[x]\\__%');
    expect(dialectPattern('mssql', tokens)).toBe('50[%][[]x][_]_%');
    expect(dialectPattern('sqlite', parseLikePattern('a\\\\b'))).toBe('a\\\\b');
    expect(dialectPattern('mssql', parseLikePattern('a\\\\b'))).toBe('a\\b');
  });

  it('a starts-with range holds exactly the texts the pattern matches (case folded, by code point)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 4 }), fc.string({ maxLength: 6 }), fc.boolean(), (prefix, rest, extend) => {
        const range = prefixRange(prefix);
        if (!range) return true;
        const text = extend ? prefix.toUpperCase() + rest : rest;
        const inRange = !below(fold(text), range.low) && below(fold(text), range.high);
        const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
        return inRange === likeMatches(parseLikePattern(`${escaped}%`), text);
      }),
      { numRuns: 500 },
    );
  });
});
