/// <reference lib="webworker" />
import { solvePuzzle } from '@tessera/core/internal';

/**
 * The sign-up proof of work (spec 000 section 9), solved off the main thread with the core's
 * rule (the server verifies with the same one): SubtleCrypto supplies the SHA-256.
 */
const sha256Hex = async (text: string): Promise<string> =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** `difficulty`: the bits the server asks for (issue 22 item 4); absent, the spec's 4 characters. */
self.onmessage = async (e: MessageEvent<{ salt: string; hash: string; difficulty?: number }>) => {
  const result = await solvePuzzle(e.data.salt, e.data.hash, sha256Hex, undefined, e.data.difficulty);
  (self as unknown as Worker).postMessage(result._tag === 'Right' ? { solved: result.right } : { error: result.left.message });
};
