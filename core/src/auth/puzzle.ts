import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/**
 * The sign-up proof of work (spec 000 section 9): find a suffix built from letters and digits, so
 * that the SHA-256 hex of salt plus suffix starts with the first 4 characters of the given hash.
 * The hash function is a parameter (SubtleCrypto in the browser, node:crypto on the server), so the
 * core stays pure; it may answer synchronously or with a promise.
 */
export type Sha256Hex = (text: string) => string | Promise<string>;

export const PUZZLE_PREFIX_LENGTH = 4;
/** The suffix alphabet: digits, then upper- and lower-case letters. */
export const PUZZLE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const SUFFIX = /^[0-9A-Za-z]+$/;

const targetOf = (hash: string): E.Either<InputError, string> => {
  const target = hash.slice(0, PUZZLE_PREFIX_LENGTH).toLowerCase();
  return /^[0-9a-f]{4}$/.test(target) ? E.right(target) : E.left(inputError('The puzzle hash must start with 4 hexadecimal digits'));
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

/** At 1 in 65536 per try, giving up after 2^27 tries misses with probability below e^-2048. */
export const PUZZLE_MAX_ATTEMPTS = 2 ** 27;

/**
 * solvePuzzle: the first suffix (shortest first, in PUZZLE_ALPHABET order) whose SHA-256 hex of
 * salt + suffix starts with the first 4 characters of `hash` (compared case-insensitively).
 */
export const solvePuzzle = async (
  salt: string,
  hash: string,
  sha256Hex: Sha256Hex,
  maxAttempts: number = PUZZLE_MAX_ATTEMPTS,
): Promise<E.Either<InputError, string>> => {
  const target = targetOf(hash);
  if (E.isLeft(target)) return target;
  for (let n = 0; n < maxAttempts; n += 1) {
    const suffix = puzzleSuffix(n);
    const digest = await sha256Hex(salt + suffix);
    if (digest.slice(0, PUZZLE_PREFIX_LENGTH).toLowerCase() === target.right) return E.right(suffix);
  }
  return E.left(inputError('No puzzle solution found'));
};

/** verifyPuzzle: whether `suffix` is letters and digits only and SHA-256 hex of salt + suffix starts with the first 4 characters of `hash`. */
export const verifyPuzzle = async (salt: string, hash: string, suffix: string, sha256Hex: Sha256Hex): Promise<boolean> => {
  const target = targetOf(hash);
  if (E.isLeft(target) || !SUFFIX.test(suffix)) return false;
  const digest = await sha256Hex(salt + suffix);
  return digest.slice(0, PUZZLE_PREFIX_LENGTH).toLowerCase() === target.right;
};
