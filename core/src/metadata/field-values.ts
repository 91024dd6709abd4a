import { hasFlag, type Property } from './entity.js';

/**
 * The value readers the field-type registry (field-types.ts) is built from: numbers with either
 * decimal separator, dates, UUIDs, option sets, and the SQL Server limits of spec 000 section 3
 * ("Schema generator") that every stored value must fit. Pure functions, no type switch here.
 */

/** SQL int (spec 000 section 3: Integer is `int`, 32-bit signed). */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
/** decimal(23,10): 13 digits before the point, 10 after. */
export const DECIMAL_SCALE = 10;
export const DECIMAL_LIMIT = 1e13;
/**
 * SQL Server money: 4 digits after the point, at most 922 337 203 685 477.5807 either way; the
 * limit here is the largest double below it (doubles are 0.125 apart there).
 */
export const MONEY_SCALE = 4;
export const MONEY_LIMIT = 922337203685477.5;
/** datetimeoffset and ISO text hold the years 1 to 9999. */
const FIRST_INSTANT = -62135596800000;
const LAST_INSTANT = 253402300799999;

/**
 * A number with at most `scale` digits after the point, rounded half away from zero the way SQL
 * Server rounds into a decimal column; a number that already fits is returned as it is, so the
 * rounding is idempotent (a stored value reads back and writes again unchanged).
 */
export const roundToScale = (n: number, scale: number): number => {
  if (Number.isInteger(n)) return n;
  const f = 10 ** scale;
  if (Math.round(n * f) / f === n) return n;
  return Number(n.toFixed(scale));
};

const DASHED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAIN_UUID = /^[0-9a-f]{32}$/i;

/** A UUID in its dashed form, any case (the wire form of ids). */
export const isGuid = (s: string): boolean => DASHED_UUID.test(s);

/** Spec 002 section 5: a file's UUID is 32 hex digits or the dashed form; undefined when `s` is neither. */
export const normalizeUuid = (s: string): string | undefined => {
  const t = s.trim();
  if (DASHED_UUID.test(t)) return t.toLowerCase();
  if (PLAIN_UUID.test(t)) {
    const h = t.toLowerCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return undefined;
};

/** A number given as a JSON number or as text (non-blank, JavaScript's number syntax); NaN when neither. */
export const numberOf = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;

/**
 * A boolean given as a string input (request bodies, query values, form posts): true, false, 1, 0
 * as JSON values or as text. Files accept more words (importBoolean); undefined when not a boolean.
 */
export const booleanOf = (v: unknown): boolean | undefined => {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 'true' || v === '1') return true;
  if (v === 0 || v === 'false' || v === '0') return false;
  return undefined;
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'áno', 'ano', 'a', 'ja']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'nie', 'ne', 'nein']);
/** A boolean cell of a file (spec 002 section 5): the words of en, sk, cz and de, any case. */
export const importBoolean = (text: string): boolean | undefined => {
  const t = text.trim().toLowerCase();
  return TRUE_WORDS.has(t) ? true : FALSE_WORDS.has(t) ? false : undefined;
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A request's date in stored form: ISO 8601 UTC with milliseconds, or `YYYY-MM-DD` for DateOnly
 * (the first ten characters of what was sent, a real calendar day); years 1 to 9999; undefined
 * when not a date.
 */
export const storedDate = (p: Property, v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  if (hasFlag(p, 'DateOnly')) {
    // A real calendar day: Date.parse rolls 2026-02-29 over to March 1, SQL refuses it.
    const d = v.slice(0, 10);
    if (!ISO_DAY.test(d)) return undefined;
    const ms = Date.parse(d);
    return !Number.isNaN(ms) && ms >= FIRST_INSTANT && new Date(ms).toISOString().startsWith(d) ? d : undefined;
  }
  const ms = Date.parse(v);
  return Number.isNaN(ms) || ms < FIRST_INSTANT || ms > LAST_INSTANT ? undefined : new Date(ms).toISOString();
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A number written with either decimal separator: spaces (grouping) are removed; with both
 * `.` and `,` the later one is the decimal separator; one kind repeated is grouping.
 */
export const parseNumber = (s: string): number | undefined => {
  let t = s.replace(/[\s\u00a0\u202f]/g, '');
  const comma = t.lastIndexOf(',');
  const dot = t.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) {
    const [decimal, grouping] = comma > dot ? [',', '.'] : ['.', ','];
    t = t.split(grouping).join('').replace(decimal, '.');
  } else if (comma >= 0) {
    t = t.indexOf(',') === comma ? t.replace(',', '.') : t.split(',').join('');
  } else if (dot >= 0 && t.indexOf('.') !== dot) {
    t = t.split('.').join('');
  }
  if (!NUMBER.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
};

// Spaces anywhere are allowed ("spaces removed"): 21. 11. 2026 and 21.11.2026 10:30 both read.
const DMY = /^(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4})(?:\s*(\d{1,2})\s*:\s*(\d{2})(?:\s*:\s*(\d{2}))?)?$/;
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** dd.mm.yyyy (optionally with hh:mm[:ss]) in UTC, with spaces removed; else any date Date.parse reads. */
export const parseDate = (s: string): Date | undefined => {
  const trimmed = s.trim();
  const m = DMY.exec(trimmed);
  if (m !== null) {
    const [d, mo, y, h, mi, se] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
    const valid =
      date.getUTCFullYear() === y &&
      date.getUTCMonth() === mo - 1 &&
      date.getUTCDate() === d &&
      h < 24 &&
      mi < 60 &&
      se < 60;
    return valid ? date : undefined;
  }
  for (const candidate of [trimmed, trimmed.replace(/\s+/g, '')]) {
    const t = Date.parse(candidate);
    if (!Number.isNaN(t)) {
      const date = new Date(t);
      const year = date.getUTCFullYear();
      return year >= 1 && year <= 9999 ? date : undefined;
    }
  }
  return undefined;
};

/** How a date is stored: DateOnly fields as YYYY-MM-DD, others as ISO 8601 in UTC (API.md). */
export const dateValue = (p: Property, d: Date): string =>
  hasFlag(p, 'DateOnly')
    ? `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
    : d.toISOString();

/** The options of an option-set property: rich options first, else plain ones. */
export const optionsOf = (p: Property): Array<{ value: number; label: string }> => {
  if (p.richOptions !== undefined && p.richOptions.length > 0) return p.richOptions;
  const plain = (p.options ?? []) as Array<{ value?: unknown; label?: unknown }>;
  return plain.filter(
    (o): o is { value: number; label: string } => typeof o.value === 'number' && typeof o.label === 'string',
  );
};

const optionSets = new WeakMap<Property, boolean>();
/** Option set or multi-select; remembered per property (asked once per cell of a large file). */
export const isOptionSet = (p: Property): boolean => {
  let v = optionSets.get(p);
  if (v === undefined) optionSets.set(p, (v = hasFlag(p, 'OptionSet') || hasFlag(p, 'MultiSelect')));
  return v;
};

/** Multi-select option values are bit numbers of an `int` bitmap: 0 to 30 (bit 31 is the sign). */
export const MAX_OPTION_BIT = 30;

const knownValues = new WeakMap<Property, ReadonlySet<number> | null>();
/**
 * The option values an imported option set takes; null when the metadata does not know them (no
 * options listed, or `WriteIn`: values beyond the list are allowed).
 */
export const optionValuesOf = (p: Property): ReadonlySet<number> | null => {
  let v = knownValues.get(p);
  if (v === undefined) {
    const options = optionsOf(p);
    v =
      hasFlag(p, 'OptionSet') && !hasFlag(p, 'WriteIn') && options.length > 0
        ? new Set(options.map((o) => o.value))
        : null;
    knownValues.set(p, v);
  }
  return v;
};

/** Whether an integer is a value of the option set (a bitmap of known bits for multi-select). */
export const isOptionValue = (p: Property, n: number): boolean => {
  const known = optionValuesOf(p);
  if (known === null) return true;
  if (!hasFlag(p, 'MultiSelect')) return known.has(n);
  if (n < 0) return false;
  for (let bit = 0; bit <= MAX_OPTION_BIT; bit++) if ((n >>> bit) & 1 && !known.has(bit)) return false;
  return true;
};
