import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { CivilDate } from './civil.js';

/**
 * Wall-clock time in an IANA time zone, through Intl.DateTimeFormat (Node and every browser).
 * DST decisions (docs/domain-maths.md): a wall time that does not exist (the spring-forward gap)
 * moves forward by the gap's length, and a wall time that occurs twice (the fall-back overlap)
 * means the earlier instant, as Temporal's 'compatible' disambiguation does. So a day starts at
 * its first instant even in zones whose clocks jump at midnight.
 */
export type WallTime = CivilDate & { readonly hour: number; readonly minute: number; readonly second: number; readonly millisecond: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

/** Checks an IANA zone name (UTC included) once, at the edge. */
export const checkTimeZone = (timeZone: string): E.Either<InputError, string> => {
  try {
    formatterFor(timeZone);
    return E.right(timeZone);
  } catch {
    return E.left(inputError(`Invalid time zone: ${timeZone}`));
  }
};

/** The wall time of an instant in a zone. */
export const wallTimeOf = (instant: Date, timeZone: string): WallTime => {
  const ms = instant.getTime();
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  const yearOfEra = Number(parts.year);
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
};

const wallAsUtcMs = (w: WallTime): number => {
  const d = new Date(Date.UTC(2000, 0, 1, w.hour, w.minute, w.second, w.millisecond));
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  return d.getTime();
};

/** The zone's offset from UTC at an instant, in milliseconds (wall time minus UTC). */
export const offsetAt = (instantMs: number, timeZone: string): number =>
  wallAsUtcMs(wallTimeOf(new Date(instantMs), timeZone)) - instantMs;

/** The instant of a wall time in a zone (gap: shifted forward by the gap; overlap: the earlier instant). */
export const instantOfWallTime = (w: WallTime, timeZone: string): Date => {
  const wall = wallAsUtcMs(w);
  // Real zones change offset at most once within a day either side of any instant.
  const before = offsetAt(wall - 86_400_000, timeZone);
  const after = offsetAt(wall + 86_400_000, timeZone);
  const candidates = [wall - before, wall - after].filter((c) => offsetAt(c, timeZone) === wall - c);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // In a gap: read the wall time with the offset in force before the jump.
  return new Date(wall - before);
};

/** The first instant of a local calendar day. */
export const startOfDayInstant = (d: CivilDate, timeZone: string): Date =>
  instantOfWallTime({ ...d, hour: 0, minute: 0, second: 0, millisecond: 0 }, timeZone);

/** The local calendar day an instant falls on. */
export const civilDateOf = (instant: Date, timeZone: string): CivilDate => {
  const w = wallTimeOf(instant, timeZone);
  return { year: w.year, month: w.month, day: w.day };
};

/** The instant at hours:minutes local time on a civil day. */
export const instantAt = (d: CivilDate, hour: number, minute: number, timeZone: string): Date =>
  instantOfWallTime({ ...d, hour, minute, second: 0, millisecond: 0 }, timeZone);
