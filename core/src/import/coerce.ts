import { hasFlag, type FieldValue, type Property } from '../metadata/entity.js';
import { normalizeUuid } from './uuid.js';

/**
 * Value coercion of spec 002 section 5: an empty cell is null; numbers, booleans and option
 * values (by value or label) are coerced or give an error; dates are dd.mm.yyyy (UTC) or any
 * parseable date, and unparseable ones are dropped and listed; lookups that are not a UUID are
 * resolved by name later (in batches of 100); strings are truncated to the property's max.
 * Cells come from CSV (strings) or JSON (any JSON value).
 */
export type CellInput = unknown;

export type Coerced =
  | { tag: 'value'; value: FieldValue }
  /** A lookup given by the name of the target record: resolved in batches before writing. */
  | { tag: 'resolve'; name: string; target?: string }
  /** Left out of the record and listed (unparseable dates). */
  | { tag: 'dropped'; message: string }
  | { tag: 'error'; message: string };

/** A cell longer than this is an error of its line, whatever the field (a 10 MB cell is a broken file). */
export const MAX_CELL_LENGTH = 1_000_000;
/** SQL int (spec 000 section 3: Integer is `int`). */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;

const show = (s: string): string => `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
const value = (v: FieldValue): Coerced => ({ tag: 'value', value: v });
const error = (message: string): Coerced => ({ tag: 'error', message });

export const isNumericType = (p: Property): boolean =>
  (p.type === 'Integer' || p.type === 'Decimal' || p.type === 'Money' || p.type === 'Float') &&
  !hasFlag(p, 'OptionSet') &&
  !hasFlag(p, 'MultiSelect');

/** The options of an option-set property: rich options first, else plain ones. */
export const optionsOf = (p: Property): Array<{ value: number; label: string }> => {
  if (p.richOptions !== undefined && p.richOptions.length > 0) return p.richOptions;
  const plain = (p.options ?? []) as Array<{ value?: unknown; label?: unknown }>;
  return plain.filter((o): o is { value: number; label: string } => typeof o.value === 'number' && typeof o.label === 'string');
};
const optionSets = new WeakMap<Property, boolean>();
/** Option set or multi-select; remembered per property (asked once per cell of a large file). */
export const isOptionSet = (p: Property): boolean => {
  let v = optionSets.get(p);
  if (v === undefined) optionSets.set(p, (v = hasFlag(p, 'OptionSet') || hasFlag(p, 'MultiSelect')));
  return v;
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

const TRUE = new Set(['true', '1', 'yes', 'y', 'áno', 'ano', 'a', 'ja']);
const FALSE = new Set(['false', '0', 'no', 'n', 'nie', 'ne', 'nein']);

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
    const valid = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
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
  hasFlag(p, 'DateOnly') ? `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` : d.toISOString();

const coerceOption = (p: Property, raw: unknown): Coerced => {
  const options = optionsOf(p);
  const one = (item: string | number): number | undefined => {
    if (typeof item === 'number') return options.some((o) => o.value === item) ? item : undefined;
    const t = item.trim();
    const byLabel = options.find((o) => o.label.trim().toLowerCase() === t.toLowerCase());
    if (byLabel !== undefined) return byLabel.value;
    const n = /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
    return n !== undefined && options.some((o) => o.value === n) ? n : undefined;
  };
  const known = options.map((o) => `${o.value} ${o.label}`).join(', ');
  if (hasFlag(p, 'MultiSelect')) {
    // The wire value is a bitmap (bit n = option value n); a cell may also list values or labels.
    if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()))) {
      const n = Number(raw);
      return Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? value(n) : error(`${show(String(raw))} is not an option bitmap`);
    }
    const items = Array.isArray(raw) ? raw : String(raw).split(/[,|]/);
    let bits = 0;
    for (const item of items) {
      const v = typeof item === 'number' || typeof item === 'string' ? one(item) : undefined;
      if (v === undefined || v < 0 || v > 31) return error(`${show(String(item))} is not an option (${known})`);
      bits = (bits | (1 << v)) >>> 0;
    }
    return value(bits);
  }
  const v = typeof raw === 'number' || typeof raw === 'string' ? one(raw) : undefined;
  return v === undefined ? error(`${show(String(raw))} is not an option (${known})`) : value(v);
};

const asText = (raw: unknown): string | undefined =>
  typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;

export const coerceCell = (p: Property, raw: CellInput): Coerced => {
  if (raw === null || raw === undefined || raw === '') return value(null);
  if (typeof raw === 'string' && raw.length > MAX_CELL_LENGTH) {
    return error(`the cell has ${raw.length} characters, more than ${MAX_CELL_LENGTH}`);
  }
  if (isOptionSet(p)) return coerceOption(p, raw);
  switch (p.type) {
    case 'String': {
      const text = asText(raw) ?? (hasFlag(p, 'Json') ? JSON.stringify(raw) : undefined);
      if (text === undefined) return error('a text is expected');
      return value(p.max !== undefined && p.max > 0 && text.length > p.max ? text.slice(0, p.max) : text);
    }
    case 'Integer':
    case 'Decimal':
    case 'Money':
    case 'Float': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseNumber(raw) : undefined;
      if (n === undefined || !Number.isFinite(n)) return error(`${show(String(raw))} is not a number`);
      if (p.type === 'Integer') {
        if (!Number.isInteger(n)) return error(`${show(String(raw))} is not a whole number`);
        if (n < INT_MIN || n > INT_MAX) return error(`${show(String(raw))} is out of range`);
      }
      return value(n);
    }
    case 'Boolean': {
      if (typeof raw === 'boolean') return value(raw);
      const t = asText(raw)?.trim().toLowerCase();
      if (t !== undefined && TRUE.has(t)) return value(true);
      if (t !== undefined && FALSE.has(t)) return value(false);
      return error(`${show(String(raw))} is not true or false`);
    }
    case 'DateTime': {
      const d = typeof raw === 'string' ? parseDate(raw) : undefined;
      return d === undefined ? { tag: 'dropped', message: `${show(String(raw))} is not a date; left empty` } : value(dateValue(p, d));
    }
    case 'Guid': {
      const id = typeof raw === 'string' ? normalizeUuid(raw) : undefined;
      return id === undefined ? error(`${show(String(raw))} is not a UUID`) : value(id);
    }
    case 'Lookup': {
      const targets = p.targets ?? [];
      if (typeof raw === 'object' && !Array.isArray(raw)) {
        const o = raw as { id?: unknown; name?: unknown };
        const id = typeof o.id === 'string' ? normalizeUuid(o.id) : undefined;
        const target = typeof o.name === 'string' ? o.name : targets[0];
        if (id === undefined) return error('a lookup needs an id that is a UUID');
        if (target === undefined || (targets.length > 0 && !targets.includes(target))) {
          return error(`${show(String(o.name))} is not a target of this lookup (${targets.join(', ')})`);
        }
        return value({ id, name: target });
      }
      const text = asText(raw);
      if (text === undefined) return error('a lookup id or name is expected');
      const id = normalizeUuid(text);
      if (id !== undefined) {
        return targets[0] === undefined ? error('the lookup has no target entity') : value({ id, name: targets[0] });
      }
      return { tag: 'resolve', name: text.trim() };
    }
    default:
      return error(`a ${p.type} field cannot be imported`);
  }
};
