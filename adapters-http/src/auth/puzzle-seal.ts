import * as t from 'io-ts';
import { SealedCookie, type SealOptions } from './sealed-cookie.js';

/** What a sign-up puzzle carries between /api/formpuzzle and /api/signup. */
export const SealedPuzzleState = t.type({ id: t.string, salt: t.string, hash: t.string, difficulty: t.number, expires: t.number }, 'SealedPuzzleState');
export type SealedPuzzleState = t.TypeOf<typeof SealedPuzzleState>;

/** The JWE's initialization vector: its third part (`header..iv.ciphertext.tag` for `dir`). */
const ivOf = (jwe: string): string => jwe.split('.')[2] ?? '';

/**
 * Seals the puzzle's state into the `cookie` and `iv` of /api/formpuzzle (SealedCookie: a JWE
 * that expires with the puzzle), so the server keeps no state per puzzle handed out and the
 * client can change nothing: not the hash, not the difficulty, not the expiry. `cookie` is the
 * JWE and `iv` repeats its initialization vector: the client sends both back, as it always did,
 * and both must match.
 */
export class PuzzleSeal {
  private readonly sealed: SealedCookie<SealedPuzzleState>;

  constructor(options: SealOptions = {}) {
    this.sealed = new SealedCookie('sign-up puzzle', SealedPuzzleState, options);
  }

  async seal(state: SealedPuzzleState): Promise<{ cookie: string; iv: string }> {
    const cookie = await this.sealed.seal(state, state.expires);
    return { cookie, iv: ivOf(cookie) };
  }

  /** null when the cookie was not sealed here, was changed, has expired, or does not go with `iv`. */
  async open(cookie: string, iv: string): Promise<SealedPuzzleState | null> {
    if (iv === '' || ivOf(cookie) !== iv) return null;
    return this.sealed.open(cookie);
  }
}
