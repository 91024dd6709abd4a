import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { PUZZLE_BASE_BITS, PUZZLE_MAX_BITS, verifyPuzzle, type Sha256Hex } from '../auth/puzzle.js';

/** A puzzle as this server handed it out (GET /api/formpuzzle), opened from its seal; `difficulty` in bits (puzzle.ts). */
export type IssuedPuzzle = { id: string; salt: string; hash: string; difficulty: number; expires: number };

/**
 * Spec 000 section 9, the sign-up proof of work, for /api/signup and the provider sign-up alike:
 * the puzzle must be one this server sealed (null: it was not, or was changed), unexpired at
 * `now`, at least as hard as the spec's rule, and solved by `solved` at the difficulty it was
 * issued with (sealed, so no client can lower it). Using it up once is the next step
 * (SessionStore.usePuzzle), at the moment the organization is created. For /api/signup, /api/trial
 * and the provider sign-up alike.
 */
export const checkSignUpPuzzle = async (issued: IssuedPuzzle | null, solved: string, now: Date, sha256Hex: Sha256Hex): Promise<Either<InputError, IssuedPuzzle>> => {
  if (!issued || issued.expires <= now.getTime() || !(issued.difficulty >= PUZZLE_BASE_BITS && issued.difficulty <= PUZZLE_MAX_BITS)) return left(inputError('the puzzle is invalid or expired'));
  if (!(await verifyPuzzle(issued.salt, issued.hash, solved, sha256Hex, issued.difficulty))) return left(inputError('the puzzle is not solved'));
  return right(issued);
};
