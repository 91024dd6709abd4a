import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  LOCAL_PASSWORD_PARAMS,
  constantTimeEqual,
  createLocalPassword,
  fromHex,
  verifyLocalPassword,
  type PasswordKdf,
} from '@tessera/core/internal';

const pbkdf2Async = promisify(pbkdf2);

/** The PasswordKdf port on node:crypto (the browser's is Web Crypto deriveBits with the same parameters). */
const nodeKdf: PasswordKdf = {
  derive: async (password, salt, p) => new Uint8Array(await pbkdf2Async(password, salt, p.iterations, p.keyBytes, 'sha256')),
};

describe('local passwords for offline sign-in (issue 21: PBKDF2 with SHA-256, 100000 iterations, 32-byte random salt, 256-bit output)', () => {
  it('the parameters are those of the issue', () => {
    expect(LOCAL_PASSWORD_PARAMS).toEqual({ algorithm: 'PBKDF2', hash: 'SHA-256', iterations: 100_000, saltBytes: 32, keyBytes: 32 });
  });

  it('the stored hash is PBKDF2-SHA256 with those parameters (checked against node:crypto directly)', async () => {
    const salt = new Uint8Array(randomBytes(32));
    const stored = await createLocalPassword(nodeKdf, salt, 'org1', 'eva@example.com', 'Heslo 123!');
    const expected = await pbkdf2Async('Heslo 123!', salt, 100_000, 32, 'sha256');
    expect(stored.hash).toBe(expected.toString('hex'));
    expect(fromHex(stored.salt)).toHaveLength(32);
    expect(fromHex(stored.hash)).toHaveLength(32); // 256 bits
    expect(JSON.stringify(stored)).not.toContain('Heslo'); // only the hash is kept
  });

  it('verify: the last user with the right password unlocks; a wrong password or another user does not', async () => {
    const stored = await createLocalPassword(nodeKdf, new Uint8Array(randomBytes(32)), 'org1', 'eva@example.com', 'Heslo 123!');
    expect(await verifyLocalPassword(nodeKdf, stored, 'org1', 'Eva@Example.com', 'Heslo 123!')).toBe(true);
    expect(await verifyLocalPassword(nodeKdf, stored, 'org1', 'eva@example.com', 'heslo 123!')).toBe(false);
    expect(await verifyLocalPassword(nodeKdf, stored, 'org2', 'eva@example.com', 'Heslo 123!')).toBe(false);
    expect(await verifyLocalPassword(nodeKdf, stored, 'org1', 'jan@example.com', 'Heslo 123!')).toBe(false);
  });

  it('a salt of another length is refused', async () => {
    await expect(createLocalPassword(nodeKdf, new Uint8Array(16), 'o', 'e', 'p')).rejects.toThrow(/32 bytes/);
  });

  it('constantTimeEqual agrees with node timingSafeEqual', () => {
    for (let i = 0; i < 200; i++) {
      const a = new Uint8Array(randomBytes(8));
      const b = i % 2 === 0 ? a.slice() : new Uint8Array(randomBytes(8));
      expect(constantTimeEqual(a, b)).toBe(timingSafeEqual(a, b));
    }
    expect(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 0]))).toBe(false);
  });
});
