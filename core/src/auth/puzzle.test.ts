import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { createHash } from 'node:crypto';
import { DEFAULT_PUZZLE_BITS, PUZZLE_ALPHABET, PUZZLE_BASE_BITS, puzzleSuffix, solvePuzzle, verifyPuzzle } from './puzzle.js';

const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const asyncSha = async (s: string): Promise<string> => sha256Hex(s);

describe('sign-up puzzle: a letters-and-digits suffix whose SHA-256 hex of salt + suffix starts with the hash prefix (spec 000 section 9)', () => {
  it('solves a puzzle and the solution verifies', async () => {
    const salt = 'a1b2c3';
    const hash = sha256Hex('server-secret');
    const r = await solvePuzzle(salt, hash, sha256Hex);
    expect(E.isRight(r)).toBe(true);
    if (E.isRight(r)) {
      expect(r.right).toMatch(/^[0-9A-Za-z]+$/);
      expect(sha256Hex(salt + r.right).slice(0, 4)).toBe(hash.slice(0, 4));
      expect(await verifyPuzzle(salt, hash, r.right, asyncSha)).toBe(true);
    }
  });

  it('takes an asynchronous hash function (SubtleCrypto style)', async () => {
    const r = await solvePuzzle('salt', 'ABCD' + '0'.repeat(60), asyncSha);
    expect(E.isRight(r) && sha256Hex('salt' + r.right).startsWith('abcd')).toBe(true);
  });

  it('refuses a wrong suffix, a suffix with other characters and a hash without 4 hex digits', async () => {
    const salt = 'x';
    const found = await solvePuzzle(salt, '1234', sha256Hex);
    const suffix = E.isRight(found) ? found.right : '';
    expect(await verifyPuzzle(salt, '1235', suffix, sha256Hex)).toBe(false);
    expect(await verifyPuzzle(salt, '1234', `${suffix}!`, sha256Hex)).toBe(false);
    expect(await verifyPuzzle(salt, '1234', '', sha256Hex)).toBe(false);
    expect(E.isLeft(await solvePuzzle(salt, 'xyz!', sha256Hex))).toBe(true);
  });

  it('gives up after maxAttempts with an error value', async () => {
    const r = await solvePuzzle('s', 'ffff', () => '0000', 10);
    expect(E.isLeft(r) && r.left.message).toBe('No puzzle solution found');
  });

  it('property: suffixes enumerate letters-and-digits texts without repeats, shortest first', () => {
    fc.assert(
      fc.property(fc.nat(62 ** 3 + 62 ** 2 + 61), (n) => {
        const s = puzzleSuffix(n);
        expect([...s].every((c) => PUZZLE_ALPHABET.includes(c))).toBe(true);
        expect(puzzleSuffix(n + 1)).not.toBe(s);
        expect(puzzleSuffix(n + 1).length).toBeGreaterThanOrEqual(s.length);
      }),
    );
    expect([puzzleSuffix(0), puzzleSuffix(61), puzzleSuffix(62), puzzleSuffix(62 + 62 * 62)]).toEqual(['0', 'z', '00', '000']);
  });

  it('property: whatever the salt and hash, the found suffix verifies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), fc.stringMatching(/^[0-9a-f]{4}/), async (salt, hash) => {
        const r = await solvePuzzle(salt, hash, sha256Hex);
        expect(E.isRight(r)).toBe(true);
        if (E.isRight(r)) expect(await verifyPuzzle(salt, hash, r.right, sha256Hex)).toBe(true);
      }),
      { numRuns: 5 },
    );
  });
});

describe('issue 22 item 4: the difficulty in bits, the spec rule (4 hex characters) as its base', () => {
  it('16 bits is exactly the spec rule; a solution at b bits holds at every lower difficulty down to 16', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9a-z]{1,8}$/), fc.stringMatching(/^[0-9a-f]{8}$/), fc.integer({ min: 16, max: 17 }), async (salt, hash, bits) => {
        const r = await solvePuzzle(salt, hash, sha256Hex, 2 ** 22, bits);
        expect(E.isRight(r)).toBe(true);
        if (!E.isRight(r)) return;
        const digest = sha256Hex(salt + r.right);
        for (let b = PUZZLE_BASE_BITS; b <= bits; b++) expect(await verifyPuzzle(salt, hash, r.right, sha256Hex, b)).toBe(true);
        // The base rule is the spec's: the first 4 hex characters match.
        expect(digest.slice(0, 4)).toBe(hash.slice(0, 4));
      }),
      { numRuns: 5 },
    );
  });
  it('a difficulty below the base counts as the base: no server asks less than the spec', async () => {
    expect(await verifyPuzzle('s', 'abcd', 'x', () => 'abc0', 1)).toBe(false);
    expect(await verifyPuzzle('s', 'abcd', 'x', () => 'abcd', 1)).toBe(true);
    expect(DEFAULT_PUZZLE_BITS).toBe(19);
  });
});
