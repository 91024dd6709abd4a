import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PuzzleSeal } from './puzzle-seal.js';

describe('the sealed sign-up puzzle', () => {
  it('opens to exactly what was sealed, and any change of cookie or iv fails to open', () => {
    const seal = new PuzzleSeal();
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{8,32}$/), fc.integer({ min: 0, max: 2 ** 40 }), fc.nat(), (salt, expires, flip) => {
        const state = { id: 'p1', salt, hash: 'abcd', difficulty: 4, expires };
        const { cookie, iv } = seal.seal(state);
        expect(seal.open(cookie, iv)).toEqual(state);
        const bytes = Buffer.from(cookie, 'base64url');
        bytes[flip % bytes.length] ^= 1;
        expect(seal.open(bytes.toString('base64url'), iv)).toBeNull();
        expect(new PuzzleSeal().open(cookie, iv)).toBeNull();
      }),
      { numRuns: 50 },
    );
  });
});
