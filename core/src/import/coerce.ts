import { hasFlag, type FieldValue, type Property } from '../metadata/entity.js';
import { FIELD_TYPES, isQuantity, type Coerced } from '../metadata/field-types.js';
import { INT_MAX, isOptionSet, isOptionValue, MAX_OPTION_BIT, optionsOf } from '../metadata/field-values.js';

/**
 * Value coercion of spec 002 section 5: an empty cell is null; numbers, booleans and option
 * values (by value or label) are coerced or give an error; dates are dd.mm.yyyy (UTC) or any
 * parseable date, and unparseable ones are dropped and listed; lookups that are not a UUID are
 * resolved by name later (in batches of 100); strings are truncated to the property's max.
 * Cells come from CSV (strings) or JSON (any JSON value). What each type accepts is its
 * `importCell` in the field-type registry (metadata/field-types.ts); option sets are read here
 * for every type.
 */
export type CellInput = unknown;
export type { Coerced } from '../metadata/field-types.js';
export { INT_MIN, INT_MAX, parseNumber, parseDate, dateValue, optionsOf, isOptionSet } from '../metadata/field-values.js';

/** A cell longer than this is an error of its line, whatever the field (a 10 MB cell is a broken file). */
export const MAX_CELL_LENGTH = 1_000_000;

const show = (s: string): string => `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
const value = (v: FieldValue): Coerced => ({ tag: 'value', value: v });
const error = (message: string): Coerced => ({ tag: 'error', message });

/** A quantity field (numeric, not an option set): summed in totals, written with the decimal separator. */
export const isNumericType = isQuantity;

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
    // The wire value is a bitmap (bit n = option value n) in an int column; a cell may also list values or labels.
    if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()))) {
      const n = Number(raw);
      return Number.isInteger(n) && n >= 0 && n <= INT_MAX && isOptionValue(p, n) ? value(n) : error(`${show(String(raw))} is not an option bitmap`);
    }
    const items = Array.isArray(raw) ? raw : String(raw).split(/[,|]/);
    let bits = 0;
    for (const item of items) {
      const v = typeof item === 'number' || typeof item === 'string' ? one(item) : undefined;
      if (v === undefined || v < 0 || v > MAX_OPTION_BIT) return error(`${show(String(item))} is not an option (${known})`);
      bits |= 1 << v;
    }
    return value(bits);
  }
  const v = typeof raw === 'number' || typeof raw === 'string' ? one(raw) : undefined;
  return v === undefined ? error(`${show(String(raw))} is not an option (${known})`) : value(v);
};

export type CellCoercion = (raw: CellInput) => Coerced;
const NULL_VALUE: Coerced = Object.freeze({ tag: 'value', value: null });

/**
 * The coercion of one property's cells, resolved once per column (the registry entry and the
 * option-set question are not asked again for each of a file's 100k cells).
 */
export const cellCoercion = (p: Property): CellCoercion => {
  const typed = isOptionSet(p) ? (raw: unknown) => coerceOption(p, raw) : FIELD_TYPES[p.type].importCell.bind(null, p);
  return (raw) => {
    if (raw === null || raw === undefined || raw === '') return NULL_VALUE;
    if (typeof raw === 'string' && raw.length > MAX_CELL_LENGTH) return error(`the cell has ${raw.length} characters, more than ${MAX_CELL_LENGTH}`);
    return typed(raw);
  };
};
/** One cell of a file for one property. */
export const coerceCell = (p: Property, raw: CellInput): Coerced => cellCoercion(p)(raw);
