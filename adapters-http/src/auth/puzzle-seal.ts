import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** What a sign-up puzzle carries between /api/formpuzzle and /api/signup. */
export type SealedPuzzleState = { id: string; salt: string; hash: string; difficulty: number; expires: number };

/**
 * Seals the puzzle's state into the `cookie` and `iv` of /api/formpuzzle (AES-256-GCM under a
 * key only this server knows), so the server keeps no state per puzzle handed out and the
 * client can change nothing: not the hash, not the difficulty, not the expiry.
 */
export class PuzzleSeal {
  private readonly key: Buffer;

  constructor(secret: Buffer = randomBytes(32)) {
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(state: SealedPuzzleState): { cookie: string; iv: string } {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return { cookie: body.toString('base64url'), iv: iv.toString('base64url') };
  }

  /** null when the cookie was not sealed here, or was changed. */
  open(cookie: string, iv: string): SealedPuzzleState | null {
    try {
      const body = Buffer.from(cookie, 'base64url');
      const ivBytes = Buffer.from(iv, 'base64url');
      if (ivBytes.length !== 12 || body.length < 17 || body.length > 4096) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes);
      decipher.setAuthTag(body.subarray(body.length - 16));
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
      const s = JSON.parse(plain) as SealedPuzzleState;
      return typeof s.id === 'string' && typeof s.salt === 'string' && typeof s.hash === 'string' ? s : null;
    } catch {
      return null;
    }
  }
}
