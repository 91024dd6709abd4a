import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/**
 * Spec 001 section 5: duration input is colon-separated parts, hours:minutes:seconds, stored
 * as seconds. 'h', 'h:m' and 'h:m:s' are accepted; each part is a whole number (minutes and
 * seconds may exceed 59: '0:90' is an hour and a half). Blank input is no value.
 */
export const parseDuration = (text: string): Either<InputError, number | null> => {
  const trimmed = text.trim();
  if (trimmed === '') return right(null);
  const parts = trimmed.split(':').map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) {
    return left(inputError(`Invalid duration: '${text}' (expected hours:minutes:seconds)`));
  }
  const [h, m = '0', s = '0'] = parts;
  return right(Number(h) * 3600 + Number(m) * 60 + Number(s));
};

/** Seconds as h:mm (minutes two digits); whole minutes, the seconds beyond them not shown. */
export const formatDuration = (seconds: number): string => {
  const sign = seconds < 0 ? '-' : '';
  const minutes = Math.floor(Math.abs(seconds) / 60);
  return `${sign}${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
};

/** Seconds as h:mm:ss, the editable form of a duration (parseDuration reads it back). */
export const formatDurationInput = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
