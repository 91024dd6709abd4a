import type { Scalar } from '../query/plan.js';
import type { StoredValue } from '../store/record-rules.js';
import type { FieldValue, Property, PropertyType } from './entity.js';
import {
  booleanOf,
  DECIMAL_LIMIT,
  DECIMAL_SCALE,
  INT_MAX,
  INT_MIN,
  importBoolean,
  isGuid,
  isOptionSet,
  MONEY_LIMIT,
  MONEY_SCALE,
  normalizeUuid,
  numberOf,
  parseDate,
  dateValue,
  parseNumber,
  roundToScale,
  storedDate,
} from './field-values.js';

/**
 * One registry of what each property type means (issue 12 point 3; docs/metadata.md "Field
 * types"). Every place that used to switch on `p.type` (write rules, query values, import cells,
 * the schema model, export cells, the SQL values, the web client's editors and formatters) reads
 * its entry here, so a new type is one entry (and `satisfies Record<PropertyType, ...>` makes it a
 * compile error until every table has it). Hot loops resolve the entry once per property or
 * record shape, not per value.
 */

/** The column kinds of spec 000 section 3's type table; a lookup is a `guid` plus its `{field}Target` string. */
export type ColumnKind =
  'datetime' | 'money' | 'decimal' | 'float' | 'integer' | 'boolean' | 'guid' | 'string' | 'binary' | 'versionnumber';

/**
 * The stored form (record-rules.ts) of a type, which is also what the SQL adapters translate:
 * `instant` is ISO text (a day for DateOnly), `id` a lower-case UUID, `lookup` `{ id, name }`,
 * `base64` bytes as base64 text, `counter` the versionnumber (sent on the wire as decimal text).
 */
export type StoredForm = 'text' | 'number' | 'boolean' | 'instant' | 'id' | 'lookup' | 'base64' | 'counter';

/** How conditions, sorts and aggregates treat a type: `none` takes no operator but null / not-null. */
export type Compared = 'text' | 'number' | 'instant' | 'boolean' | 'id' | 'none';

/** Why the write path refuses a value (the caller names entity and field in the ERR_INPUT text). */
export const INVALID: unique symbol = Symbol('invalid');
export const TOO_LONG: unique symbol = Symbol('too long');
export type Refusal = typeof INVALID | typeof TOO_LONG;
export const isRefusal = (v: StoredValue | Refusal): v is Refusal => typeof v === 'symbol';

/** The outcome of one import cell (spec 002 section 5). */
export type Coerced =
  | { tag: 'value'; value: FieldValue }
  /** A lookup given by the name of the target record: resolved in batches before writing. */
  | { tag: 'resolve'; name: string; target?: string }
  /** Left out of the record and listed (unparseable dates). */
  | { tag: 'dropped'; message: string }
  | { tag: 'error'; message: string };

export type FieldTypeRules = {
  /** The column of the schema model (spec 000 section 3 "Schema generator"). */
  readonly column: ColumnKind;
  /** The stored form, and so the SQL value (sql-values.ts keeps one translation per form). */
  readonly stored: StoredForm;
  /** A quantity: summed in totals, right-aligned, written with the decimal separator. */
  readonly numeric: boolean;
  /** What conditions, sorts and aggregates (sum, min, date grouping) may do with it. */
  readonly compared: Compared;
  /** Set by the server (VersionNumber): a request's value is ignored, a default never applies. */
  readonly serverSet: boolean;
  /** Written to export files and read from import files. */
  readonly transferable: boolean;
  /** Digits after the point shown by readers (PDF, lists); undefined: as many as the value has. */
  readonly decimals: (p: Property) => number | undefined;
  /**
   * Wire decode (POST /api/update, /api/create, defaults, import rows): a non-empty request value
   * in stored form, normalized (ids lower case, dates ISO UTC, decimals to the column's scale), or
   * why it is refused (not of the type, out of the column's range, longer than `max`).
   */
  readonly decode: (p: Property, v: Exclude<FieldValue, null | ''>) => StoredValue | Refusal;
  /** A condition value (non-null) in the compared form, or undefined when it is not one of this type. */
  readonly queryValue: (p: Property, v: unknown) => Scalar | undefined;
  /** A non-empty import cell that is not an option set (coerce.ts handles those for every type). */
  readonly importCell: (p: Property, raw: unknown) => Coerced;
};

const show = (s: string): string => `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
const value = (v: FieldValue): Coerced => ({ tag: 'value', value: v });
const error = (message: string): Coerced => ({ tag: 'error', message });
const asText = (raw: unknown): string | undefined =>
  typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
const notImportable = (p: Property): Coerced => error(`a ${p.type} field cannot be imported`);
const none = (): undefined => undefined;

/**
 * A number the column holds, normalized to its scale; INVALID when out of range (for an int, also
 * when not whole). Option-set membership is checked by import only (docs/metadata.md "Field types").
 */
type NumberRule = (p: Property, n: number) => number | typeof INVALID;
const integerRule: NumberRule = (_, n) => (Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX ? n : INVALID);
const decimalRule: NumberRule = (_, n) => {
  const r = roundToScale(n, DECIMAL_SCALE) + 0;
  return Math.abs(r) < DECIMAL_LIMIT ? r : INVALID;
};
const moneyRule: NumberRule = (_, n) => {
  const r = roundToScale(n, MONEY_SCALE) + 0;
  return Math.abs(r) <= MONEY_LIMIT ? r : INVALID;
};
const floatRule: NumberRule = (_, n) => n;

const numberType = (
  column: ColumnKind,
  rule: NumberRule,
  decimals: (p: Property) => number | undefined,
): FieldTypeRules => ({
  column,
  stored: 'number',
  numeric: true,
  compared: 'number',
  serverSet: false,
  transferable: true,
  decimals,
  decode: (p, v) => {
    const n = numberOf(v);
    // -0 is stored as 0: SQL and CSV (String(-0) is '0') know no negative zero.
    return Number.isFinite(n) ? rule(p, n + 0) : INVALID;
  },
  // A condition compares, it stores nothing: any finite number (qty < 3e9 is a fair question).
  queryValue: (_, v) => {
    const n = numberOf(v);
    return Number.isFinite(n) ? n : undefined;
  },
  importCell: (p, raw) => {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseNumber(raw) : undefined;
    if (n === undefined || !Number.isFinite(n)) return error(`${show(String(raw))} is not a number`);
    if (column === 'integer' && !Number.isInteger(n)) return error(`${show(String(raw))} is not a whole number`);
    const r = rule(p, n + 0);
    return r === INVALID ? error(`${show(String(raw))} is out of range`) : value(r);
  },
});

const lookupDecode = (p: Property, v: Exclude<FieldValue, null | ''>): StoredValue | Refusal => {
  const id = typeof v === 'string' ? v : typeof v === 'object' ? v.id : undefined;
  if (typeof id !== 'string' || !isGuid(id)) return INVALID;
  const targets = p.targets ?? [];
  const name = typeof v === 'object' && v.name ? v.name : targets[0];
  if (!name || (targets.length > 0 && !targets.includes(name))) return INVALID;
  return { id: id.toLowerCase(), name };
};

const lookupCell = (p: Property, raw: unknown): Coerced => {
  const targets = p.targets ?? [];
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
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
  if (id !== undefined)
    return targets[0] === undefined ? error('the lookup has no target entity') : value({ id, name: targets[0] });
  return { tag: 'resolve', name: text.trim() };
};

const idQueryValue = (_: Property, v: unknown): Scalar | undefined =>
  typeof v === 'string' && isGuid(v) ? v.toLowerCase() : undefined;

export const FIELD_TYPES = {
  String: {
    column: 'string',
    stored: 'text',
    numeric: false,
    compared: 'text',
    serverSet: false,
    transferable: true,
    decimals: none,
    decode: (p, v) => {
      if (typeof v !== 'string' && typeof v !== 'number') return INVALID;
      const s = String(v);
      return p.max !== undefined && s.length > p.max ? TOO_LONG : s;
    },
    queryValue: (_, v) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined),
    // Files are forgiving where requests are strict: a text longer than max is cut (spec 002 section 5).
    importCell: (p, raw) => {
      const text = asText(raw) ?? (p.flags?.includes('Json') ? JSON.stringify(raw) : undefined);
      if (text === undefined) return error('a text is expected');
      return value(p.max !== undefined && p.max > 0 && text.length > p.max ? text.slice(0, p.max) : text);
    },
  },
  Integer: numberType('integer', integerRule, () => 0),
  Decimal: numberType('decimal', decimalRule, (p) => p.precision),
  Float: numberType('float', floatRule, (p) => p.precision),
  Money: numberType('money', moneyRule, (p) => p.precision ?? 2),
  DateTime: {
    column: 'datetime',
    stored: 'instant',
    numeric: false,
    compared: 'instant',
    serverSet: false,
    transferable: true,
    decimals: none,
    decode: (p, v) => storedDate(p, v) ?? INVALID,
    queryValue: storedDate,
    importCell: (p, raw) => {
      const d = typeof raw === 'string' ? parseDate(raw) : undefined;
      return d === undefined
        ? { tag: 'dropped', message: `${show(String(raw))} is not a date; left empty` }
        : value(dateValue(p, d));
    },
  },
  Guid: {
    column: 'guid',
    stored: 'id',
    numeric: false,
    compared: 'id',
    serverSet: false,
    transferable: true,
    decimals: none,
    decode: (_, v) => (typeof v === 'string' && isGuid(v) ? v.toLowerCase() : INVALID),
    queryValue: idQueryValue,
    importCell: (_, raw) => {
      const id = typeof raw === 'string' ? normalizeUuid(raw) : undefined;
      return id === undefined ? error(`${show(String(raw))} is not a UUID`) : value(id);
    },
  },
  Lookup: {
    column: 'guid',
    stored: 'lookup',
    numeric: false,
    compared: 'id',
    serverSet: false,
    transferable: true,
    decimals: none,
    decode: lookupDecode,
    queryValue: idQueryValue,
    importCell: lookupCell,
  },
  Boolean: {
    column: 'boolean',
    stored: 'boolean',
    numeric: false,
    compared: 'boolean',
    serverSet: false,
    transferable: true,
    decimals: none,
    decode: (_, v) => booleanOf(v) ?? INVALID,
    queryValue: (_, v) => booleanOf(v),
    importCell: (_, raw) => {
      if (typeof raw === 'boolean') return value(raw);
      const t = asText(raw);
      const b = t === undefined ? undefined : importBoolean(t);
      return b === undefined ? error(`${show(String(raw))} is not true or false`) : value(b);
    },
  },
  Binary: {
    column: 'binary',
    stored: 'base64',
    numeric: false,
    compared: 'none',
    serverSet: false,
    transferable: false,
    decimals: none,
    decode: (_, v) => (typeof v === 'string' ? v : INVALID),
    queryValue: none,
    importCell: notImportable,
  },
  VersionNumber: {
    column: 'versionnumber',
    stored: 'counter',
    numeric: false,
    compared: 'number',
    serverSet: true,
    transferable: false,
    decimals: () => 0,
    decode: () => null,
    queryValue: (_, v) => {
      const n = numberOf(v);
      return Number.isFinite(n) ? n : undefined;
    },
    importCell: notImportable,
  },
} satisfies Record<PropertyType, FieldTypeRules>;

/** The registry entry of a property. */
export const fieldType = (p: Property): FieldTypeRules => FIELD_TYPES[p.type];

/** A quantity field: numeric and not an option set (an option's value is a code, not an amount). */
export const isQuantity = (p: Property): boolean => FIELD_TYPES[p.type].numeric && !isOptionSet(p);
