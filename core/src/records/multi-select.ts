import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/** Spec 001 sections 3 and 9: multi-select bitmaps cover 32 bits (option values 0 to 31). */
export const BITMAP_BITS = 32;

/**
 * The bitmap of chosen option values (bit n set = option value n chosen, API.md). It is a
 * signed 32-bit integer so that it fits the int column: choosing value 31 makes it negative.
 */
export const toBitmap = (values: readonly number[]): Either<InputError, number> => {
  const bad = values.find((v) => !Number.isInteger(v) || v < 0 || v >= BITMAP_BITS);
  if (bad !== undefined) return left(inputError(`Invalid multi-select value: ${bad} (options 0 to ${BITMAP_BITS - 1})`));
  return right(values.reduce((m, v) => m | (1 << v), 0));
};

/** The chosen option values of a bitmap, ascending; signed and unsigned forms read the same. */
export const fromBitmap = (bitmap: number | null | undefined): number[] => {
  if (bitmap === null || bitmap === undefined || !Number.isFinite(bitmap)) return [];
  const bits = bitmap >>> 0;
  return Array.from({ length: BITMAP_BITS }, (_, i) => i).filter((i) => ((bits >>> i) & 1) === 1);
};

/** Toggles one option value (0 to 31) in a bitmap; other values leave it unchanged. */
export const toggleBit = (bitmap: number | null | undefined, value: number): number =>
  Number.isInteger(value) && value >= 0 && value < BITMAP_BITS ? ((bitmap ?? 0) ^ (1 << value)) | 0 : (bitmap ?? 0) | 0;
