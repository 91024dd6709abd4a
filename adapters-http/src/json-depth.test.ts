import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonNestsDeeperThan } from './json-depth.js';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/** The nesting of a parsed value, by plain recursion (fine for the shallow values generated here). */
const depthOf = (v: unknown): number =>
  v !== null && typeof v === 'object' ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf)) : 0;

describe('issue 22 item 5: the depth of a JSON body is read from its raw bytes before parsing', () => {
  it('agrees with the depth of the parsed value, for any JSON value and any limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, max) => {
        const text = JSON.stringify(v);
        expect(jsonNestsDeeperThan(bytes(text), max)).toBe(depthOf(v) > max);
      }),
    );
  });

  it('strings made of quotes, backslashes and brackets never move the depth', () => {
    const tricky = fc.array(fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', 'ž'), { maxLength: 30 }).map((cs) => cs.join(''));
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, tricky, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(tricky, tie('v'), { maxKeys: 3 })),
    })).v;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (v, max) => {
        expect(jsonNestsDeeperThan(bytes(JSON.stringify(v)), max)).toBe(depthOf(v) > max);
      }),
    );
  });

  it('brackets inside strings, escaped quotes and non-ASCII text do not count', () => {
    expect(jsonNestsDeeperThan(bytes(JSON.stringify({ a: '[[[[{{{{\\"[[[' + 'ž€😀'.repeat(3) })), 1)).toBe(false);
    expect(jsonNestsDeeperThan(bytes('{"a":"\\\\"}'), 1)).toBe(false);
    expect(jsonNestsDeeperThan(bytes('{"a":"\\\\",  "b": [1]}'), 1)).toBe(true);
  });

  it('a body nested 1,000,000 deep is answered in one linear pass, without recursion', () => {
    const d = 1_000_000;
    expect(jsonNestsDeeperThan(bytes('['.repeat(d) + ']'.repeat(d)), 64)).toBe(true);
    expect(jsonNestsDeeperThan(bytes('['.repeat(64) + ']'.repeat(64)), 64)).toBe(false);
    expect(jsonNestsDeeperThan(bytes('['.repeat(65) + ']'.repeat(65)), 64)).toBe(true);
  });
});
