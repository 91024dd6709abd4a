import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { verifyPuzzle, type Sha256Hex } from '../auth/puzzle.js';
import { PUZZLE_DIFFICULTY } from '../auth/sign-in-rules.js';

/** A puzzle as this server handed it out (GET /api/formpuzzle), opened from its seal. */
export type IssuedPuzzle = { id: string; salt: string; hash: string; difficulty: number; expires: number };

/**
 * Spec 000 section 9, the sign-up proof of work, for /api/signup and the provider sign-up alike:
 * the puzzle must be one this server sealed (null: it was not, or was changed), unexpired at
 * `now`, of the right difficulty, and solved by `solved`. Using it up once is the next step
 * (SessionStore.usePuzzle), at the moment the organization is created.
 */
export const checkSignUpPuzzle = async (issued: IssuedPuzzle | null, solved: string, now: Date, sha256Hex: Sha256Hex): Promise<Either<InputError, IssuedPuzzle>> => {
  if (!issued || issued.expires <= now.getTime() || issued.difficulty !== PUZZLE_DIFFICULTY) return left(inputError('the puzzle is invalid or expired'));
  if (!(await verifyPuzzle(issued.salt, issued.hash, solved, sha256Hex))) return left(inputError('the puzzle is not solved'));
  return right(issued);
};
