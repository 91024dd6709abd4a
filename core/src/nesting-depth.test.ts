import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decode } from './decode.js';
import { FetchRequest } from './query/query.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting-depth.js';

const depthOf = (v: unknown): number =>
  v !== null && typeof v === 'object' ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf)) : 0;

/** A value nested `d` deep, built without recursion. */
const nested = (d: number, wrap: (inner: unknown) => unknown): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < d; i++) v = wrap(v);
  return v;
};

describe('issue 22 item 5: decoded data is bounded in depth before any recursive codec sees it', () => {
  it('nestsDeeperThan agrees with the depth of the value, for any JSON value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, max) => {
        expect(nestsDeeperThan(v, max)).toBe(depthOf(v) > max);
      }),
    );
  });

  it('a filter nested 10,000 deep is ERR_INPUT naming the limit, not a stack overflow', () => {
    const filter = nested(10_000, (inner) => ({ type: 'and', filters: [inner] }));
    const r = decode(FetchRequest, { entity: { name: 'account', filter } }, 'fetch request');
    expect(isLeft(r) && r.left).toMatchObject({ code: 'ERR_INPUT', message: `Invalid fetch request: nested deeper than ${MAX_NESTING_DEPTH} levels (limit maxNestingDepth)` });
    expect(nestsDeeperThan(nested(1_000_000, (inner) => [inner]), MAX_NESTING_DEPTH)).toBe(true);
  });

  it('data within the limit decodes as before', () => {
    const r = decode(t.unknown, nested(MAX_NESTING_DEPTH, (inner) => [inner]));
    expect(isLeft(r)).toBe(false);
  });
});
