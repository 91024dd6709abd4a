import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '@tessera/core/internal';

/** OWASP password storage cheat sheet: scrypt with N=2^17, r=8, p=1. */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

const derive = (password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    // scrypt needs 128 * N * r bytes; node's default maxmem (32 MiB) is below that for N=2^17.
    const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/**
 * The PasswordHasher port on node's scrypt. Stored as `scrypt$N$r$p$salt$key` (base64), so the
 * parameters travel with each hash and can be raised without invalidating old ones.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  constructor(private readonly params: { N: number; r: number; p: number } = SCRYPT_PARAMS) {}

  async hash(password: string): Promise<string> {
    const { N, r, p } = this.params;
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, N, r, p);
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number);
    // Refuse parameters no one here chose: a tampered hash must not make verification costly.
    if (![N, r, p].every(Number.isInteger) || N > 2 ** 20 || N < 2 || r > 32 || p > 16) return false;
    const salt = Buffer.from(parts[4], 'base64');
    const expected = Buffer.from(parts[5], 'base64');
    if (expected.length !== KEY_LENGTH) return false;
    const key = await derive(password, salt, N, r, p);
    return timingSafeEqual(key, expected);
  }
}
