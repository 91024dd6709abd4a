import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/**
 * The sign-up proof of work (spec 000 section 9): find a suffix built from letters and digits, so
 * that the SHA-256 hex of salt plus suffix starts with the first 4 characters of the given hash.
 * The hash function is a parameter (SubtleCrypto in the browser, node:crypto on the server), so the
 * core stays pure; it may answer synchronously or with a promise.
 *
 * The difficulty is counted in bits of the hash's prefix (issue 22 item 4): the spec's rule, 4 hex
 * characters, is 16 bits and the least a server asks; each bit more doubles the work. 16 bits took
 * a browser about 144 ms, so the default of 19 bits is about a second.
 */
export type Sha256Hex = (text: string) => string | Promise<string>;

export const PUZZLE_PREFIX_LENGTH = 4;
/** The spec's rule (4 hex characters) in bits: the base every difficulty starts from. */
export const PUZZLE_BASE_BITS = PUZZLE_PREFIX_LENGTH * 4;
/** About a second of a browser's work (issue 22 item 4). */
export const DEFAULT_PUZZLE_BITS = 19;
/** Past this a browser would work for hours. */
export const PUZZLE_MAX_BITS = 32;
/** The suffix alphabet: digits, then upper- and lower-case letters. */
export const PUZZLE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const SUFFIX = /^[0-9A-Za-z]+$/;

/** What a digest must start with: whole hex characters, then the high bits of one more. */
type Target = { hex: string; rest: number; restBits: number };

const bitsOf = (bits: number): number => Math.min(PUZZLE_MAX_BITS, Math.max(PUZZLE_BASE_BITS, Math.floor(bits)));

const targetOf = (hash: string, bits: number): E.Either<InputError, Target> => {
  const b = bitsOf(bits);
  const chars = Math.ceil(b / 4);
  const prefix = hash.slice(0, chars).toLowerCase();
  if (!new RegExp(`^[0-9a-f]{${chars}}$`).test(prefix)) return E.left(inputError(`The puzzle hash must start with ${chars} hexadecimal digits`));
  const whole = Math.floor(b / 4);
  const restBits = b - whole * 4;
  return E.right({ hex: prefix.slice(0, whole), rest: restBits > 0 ? parseInt(prefix[whole], 16) >> (4 - restBits) : 0, restBits });
};

const matches = (digest: string, t: Target): boolean => {
  const d = digest.toLowerCase();
  if (!d.startsWith(t.hex)) return false;
  return t.restBits === 0 || parseInt(d[t.hex.length], 16) >> (4 - t.restBits) === t.rest;
};

/** The n-th suffix (0 -> '0', 61 -> 'z', 62 -> '00', ...): every letters-and-digits text exactly once, shortest first. */
export const puzzleSuffix = (n: number): string => {
  const base = PUZZLE_ALPHABET.length;
  let length = 1;
  let count = base;
  let rest = n;
  while (rest >= count) {
    rest -= count;
    count *= base;
    length += 1;
  }
  let out = '';
  for (let i = 0; i < length; i += 1) {
    out = PUZZLE_ALPHABET[rest % base] + out;
    rest = Math.floor(rest / base);
  }
  return out;
};

/** At 1 in 65536 per try, giving up after 2^27 tries misses with probability below e^-2048 (at 19 bits, below e^-256). */
export const PUZZLE_MAX_ATTEMPTS = 2 ** 27;

const PUZZLE_BATCH = 256;

/**
 * solvePuzzle: the first suffix (shortest first, in PUZZLE_ALPHABET order) whose SHA-256 hex of
 * salt + suffix starts with the first `bits` bits of `hash` (16: its first 4 characters, compared
 * case-insensitively).
 */
export const solvePuzzle = async (
  salt: string,
  hash: string,
  sha256Hex: Sha256Hex,
  maxAttempts: number = PUZZLE_MAX_ATTEMPTS,
  bits: number = PUZZLE_BASE_BITS,
): Promise<E.Either<InputError, string>> => {
  const target = targetOf(hash, bits);
  if (E.isLeft(target)) return target;
  // Hashes are asked for in batches: an asynchronous SHA-256 (SubtleCrypto) costs a round trip
  // per call, and a batch in flight at once is about 3 times faster. The first match in suffix
  // order wins, as one by one.
  for (let from = 0; from < maxAttempts; from += PUZZLE_BATCH) {
    const suffixes = Array.from({ length: Math.min(PUZZLE_BATCH, maxAttempts - from) }, (_, i) => puzzleSuffix(from + i));
    const digests = await Promise.all(suffixes.map((suffix) => sha256Hex(salt + suffix)));
    const found = digests.findIndex((d) => matches(d, target.right));
    if (found >= 0) return E.right(suffixes[found]);
  }
  return E.left(inputError('No puzzle solution found'));
};

/** verifyPuzzle: whether `suffix` is letters and digits only and SHA-256 hex of salt + suffix starts with the first `bits` bits of `hash`. */
export const verifyPuzzle = async (salt: string, hash: string, suffix: string, sha256Hex: Sha256Hex, bits: number = PUZZLE_BASE_BITS): Promise<boolean> => {
  const target = targetOf(hash, bits);
  if (E.isLeft(target) || !SUFFIX.test(suffix)) return false;
  return matches(await sha256Hex(salt + suffix), target.right);
};
