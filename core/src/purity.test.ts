import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.ts$/.test(n) && !/\.test\.ts$/.test(n) ? [p] : [];
  });

describe('ARCHITECTURE.md: the core imports only io-ts, fp-ts and itself', () => {
  it('no module of core/src imports anything else', () => {
    const offenders: string[] = [];
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from|import\(|require\()\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1];
        if (!/^(\.{1,2}\/|io-ts(\/|$)|fp-ts(\/|$))/.test(spec)) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the core package depends on io-ts and fp-ts only', () => {
    const pkg = JSON.parse(readFileSync(join(root, '..', 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(['fp-ts', 'io-ts']);
  });

  it('no decorators in the core', () => {
    const withDecorators = sources(root).filter((f) => /^\s*@[A-Za-z]+\(/m.test(readFileSync(f, 'utf8')));
    expect(withDecorators).toEqual([]);
  });

  // Time and randomness come through ports (Clock, IdGenerator), so every rule is deterministic
  // under test. `new Date(x)` with an argument parses and is pure; reading the clock is not.
  it('no module of core/src reads the clock or randomness: no new Date(), Date.now, Math.random or crypto', () => {
    /** The Clock port's default implementation is the one place that reads the clock. */
    const exempt = new Set([join(root, 'ports', 'clock.ts')]);
    const banned: Array<[RegExp, string]> = [
      [/\bnew\s+Date\s*\(\s*\)/, 'new Date()'],
      [/\bDate\s*\.\s*now\b/, 'Date.now'],
      [/\bMath\s*\.\s*random\b/, 'Math.random'],
      [/\bcrypto\b/, 'crypto'],
    ];
    const offenders: string[] = [];
    for (const file of sources(root)) {
      if (exempt.has(file)) continue;
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const [pattern, name] of banned) if (pattern.test(code)) offenders.push(`${file}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the clock check sees what it bans and lets parsing through', () => {
    const hits = (code: string): boolean => /\bnew\s+Date\s*\(\s*\)|\bDate\s*\.\s*now\b|\bMath\s*\.\s*random\b|\bcrypto\b/.test(withoutComments(code));
    expect(hits('const t = new Date();')).toBe(true);
    expect(hits('const t = Date.now();')).toBe(true);
    expect(hits('crypto.randomUUID()')).toBe(true);
    expect(hits('const t = new Date(text);')).toBe(false);
    expect(hits('// node:crypto on the server')).toBe(false);
  });
});

/** Source text without its comments (a comment may name what the code must not call). */
const withoutComments = (code: string): string => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
