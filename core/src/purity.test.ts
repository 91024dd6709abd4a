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
});
