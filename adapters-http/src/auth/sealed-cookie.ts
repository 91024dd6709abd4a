import { createHash, randomBytes } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { systemClock, type Clock } from '@tessera/core/internal';

/** Values past this many characters are refused unread (a cookie or form field cannot hold more). */
const MAX_SEALED_LENGTH = 4096;

export type SealOptions = {
  /** The server's secret; by default one per process (a restart voids what was sealed, which is intended). */
  secret?: Uint8Array;
  clock?: Clock;
};

/**
 * The one seal of state the server hands to a browser and must get back unchanged (the sign-up
 * puzzle, a provider sign-in in progress): a compact JWE (`dir`, `A256GCM`) under a key only this
 * server knows, with `exp`, so the server keeps no state per value handed out and the browser can
 * neither read nor change it. `purpose` goes into the key and the audience, so a value sealed for
 * one use never opens as another. On open the payload is decoded with `codec`; anything else
 * (changed, expired, another key, another purpose, another shape) opens to null.
 */
export class SealedCookie<A> {
  private readonly key: Uint8Array;
  private readonly clock: Clock;

  constructor(
    private readonly purpose: string,
    private readonly codec: t.Type<A, unknown, unknown>,
    options: SealOptions = {},
  ) {
    this.key = createHash('sha256').update(`tessera ${purpose}`).update(options.secret ?? randomBytes(32)).digest();
    this.clock = options.clock ?? systemClock;
  }

  /** Seals `value` until `expires` (epoch milliseconds). */
  seal(value: A, expires: number): Promise<string> {
    return new EncryptJWT({ v: this.codec.encode(value) })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setAudience(this.purpose)
      .setExpirationTime(Math.ceil(expires / 1000))
      .encrypt(this.key);
  }

  /** The sealed value, or null when it was not sealed here for this purpose, was changed, or has expired. */
  async open(sealed: string): Promise<A | null> {
    if (sealed === '' || sealed.length > MAX_SEALED_LENGTH) return null;
    try {
      const { payload } = await jwtDecrypt(sealed, this.key, {
        audience: this.purpose,
        currentDate: this.clock.now(),
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const decoded = this.codec.decode(payload.v);
      return isRight(decoded) ? decoded.right : null;
    } catch {
      return null;
    }
  }
}
