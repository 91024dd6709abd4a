import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import { PUZZLE_BASE_BITS, puzzleSuffix, solvePuzzle, verifyPuzzle, type Sha256Hex } from '../auth/puzzle.js';
import { checkSignUpPuzzle, type IssuedPuzzle } from './sign-up-puzzle.js';

/** A stand-in digest (the real one is SHA-256, passed in by the host): deterministic and spread out. */
const digest: Sha256Hex = (text) => {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return (h.toString(16).padStart(8, '0') + '0'.repeat(56)).slice(0, 64);
};
const NOW = new Date('2026-11-24T10:00:00Z');
const issued: IssuedPuzzle = { id: 'p1', salt: 's', hash: 'abcd0000', difficulty: PUZZLE_BASE_BITS, expires: NOW.getTime() + 60_000 };
const messageOf = async (p: IssuedPuzzle | null, solved: string, now = NOW) => {
  const r = await checkSignUpPuzzle(p, solved, now, digest);
  return isRight(r) ? 'ok' : r.left.message;
};

describe('spec 000 section 9: a sign-up needs a puzzle this server handed out, unexpired, of the right difficulty, solved', () => {
  it('a solved puzzle passes', async () => {
    const solved = await solvePuzzle(issued.salt, issued.hash, digest);
    expect(isRight(solved)).toBe(true);
    if (isRight(solved)) expect(await messageOf(issued, solved.right)).toBe('ok');
  });
  it('not sealed here, expired (at its expiry), or of another difficulty: invalid or expired', async () => {
    expect(await messageOf(null, 'x')).toBe('the puzzle is invalid or expired');
    expect(await messageOf(issued, 'x', new Date(issued.expires))).toBe('the puzzle is invalid or expired');
    expect(await messageOf({ ...issued, difficulty: 1 }, 'x')).toBe('the puzzle is invalid or expired');
  });
  it('issue 22 item 4: a puzzle issued harder (19 bits) needs a solution of those bits; a 16-bit one is not enough', async () => {
    const hard = { ...issued, difficulty: 19 };
    const solved = await solvePuzzle(hard.salt, hard.hash, digest, 2 ** 22, 19);
    expect(isRight(solved)).toBe(true);
    if (isRight(solved)) expect(await messageOf(hard, solved.right)).toBe('ok');
    // A solution of the spec's 4 characters that misses the 3 further bits is refused.
    let easy = '';
    for (let n = 0; !easy; n++)
      if ((await verifyPuzzle(hard.salt, hard.hash, puzzleSuffix(n), digest, 16)) && !(await verifyPuzzle(hard.salt, hard.hash, puzzleSuffix(n), digest, 19))) easy = puzzleSuffix(n);
    expect(await messageOf(hard, easy)).toBe('the puzzle is not solved');
  });
  it('a wrong solution: not solved', async () => {
    expect(await messageOf(issued, 'wrong')).toBe('the puzzle is not solved');
  });
});
