import {
  FIELD_TYPES,
  hasFlag,
  lookupTargetColumn,
  type Entity,
  type FieldValue,
  type Property,
  type Scalar,
  type StoredForm,
  type StoredRecord,
  type StoredValue,
} from '@tessera/core/internal';
import type { SqlDialectKind } from '../dialects/sql-dialect.js';

/**
 * Values between the stored form of the core (record-rules.ts) and SQL columns. A lookup is two
 * columns: the id and `{field}Target` (spec 000 section 3). SQLite keeps booleans as 0/1 and dates as
 * ISO text; SQL Server answers Date objects for datetimeoffset and upper-case uniqueidentifiers.
 */
export type Row = Record<string, unknown>;

/** A compared value as an SQL parameter: PostgreSQL has a boolean type, the others a 0/1 bit. */
export const param = (kind: SqlDialectKind, v: Scalar): unknown => (typeof v === 'boolean' && kind !== 'postgres' ? (v ? 1 : 0) : v);

/** The column values of one stored field. */
export const columnsOf = (kind: SqlDialectKind, p: Property, v: StoredValue | undefined): Array<[string, unknown]> => {
  if (FIELD_TYPES[p.type].stored === 'lookup') {
    const ref = v && typeof v === 'object' ? v : null;
    return [
      [p.logicalName, ref ? ref.id : null],
      [lookupTargetColumn(p.logicalName), ref ? ref.name : null],
    ];
  }
  if (v === undefined || v === null) return [[p.logicalName, null]];
  if (typeof v === 'boolean') return [[p.logicalName, kind === 'postgres' ? v : v ? 1 : 0]];
  if (FIELD_TYPES[p.type].stored === 'base64' && typeof v === 'string') return [[p.logicalName, Buffer.from(v, 'base64')]];
  return [[p.logicalName, v]];
};

/**
 * A read column value in stored form, one reader per stored form of the field-type registry
 * (no lookup here: see lookupOf). SQLite answers 0/1 for bit and text for dates; SQL Server
 * Date objects and upper-case uniqueidentifiers.
 */
const FROM_SQL: Record<StoredForm, (p: Property, v: unknown) => StoredValue> = {
  text: (_, v) => (typeof v === 'string' ? v : String(v)),
  number: (_, v) => (typeof v === 'number' ? v : Number(v)),
  counter: (_, v) => (typeof v === 'number' ? v : Number(v)),
  boolean: (_, v) => v === true || v === 1 || v === '1' || v === 1n,
  instant: (p, v) => {
    const iso = v instanceof Date ? v.toISOString() : String(v);
    return hasFlag(p, 'DateOnly') ? iso.slice(0, 10) : iso;
  },
  id: (_, v) => String(v).toLowerCase(),
  lookup: (_, v) => String(v).toLowerCase(),
  base64: (_, v) => (Buffer.isBuffer(v) ? v.toString('base64') : String(v)),
};

export const scalarOf = (p: Property, v: unknown): StoredValue => (v === null || v === undefined ? null : FROM_SQL[FIELD_TYPES[p.type].stored](p, v));

/** A lookup read from its id and target columns (target defaults to the only target). */
export const lookupOf = (p: Property, id: unknown, target: unknown): { id: string; name: string } | null =>
  id === null || id === undefined
    ? null
    : { id: String(id).toLowerCase(), name: typeof target === 'string' && target !== '' ? target : ((p.targets ?? [])[0] ?? '') };

/** How each property of an entity is read from a row: its columns and reader, resolved once per entity object. */
type RowReader = ReadonlyArray<{ field: string; target: string | null; read: (p: Property, v: unknown) => StoredValue; p: Property }>;
const rowReaders = new WeakMap<readonly Property[], RowReader>();
const rowReaderOf = (e: Entity): RowReader => {
  let r = rowReaders.get(e.properties);
  if (r === undefined || r.length !== e.properties.length) {
    r = e.properties.map((p) => {
      const form = FIELD_TYPES[p.type].stored;
      return { field: p.logicalName, target: form === 'lookup' ? lookupTargetColumn(p.logicalName) : null, read: FROM_SQL[form], p };
    });
    rowReaders.set(e.properties, r);
  }
  return r;
};

/** A whole row of an entity's table in stored form. */
export const storedRow = (e: Entity, row: Row): StoredRecord => {
  const out: StoredRecord = {};
  for (const { field, target, read, p } of rowReaderOf(e)) {
    const v = row[field];
    out[field] = target !== null ? lookupOf(p, v, row[target]) : v === null || v === undefined ? null : read(p, v);
  }
  return out;
};

/**
 * The reader of one query column into its wire form (versionnumber as text, a lookup with its
 * label), resolved once per column of a compiled query rather than per cell.
 */
export const wireReaderOf = (p: Property): ((v: unknown, target?: unknown, label?: unknown) => FieldValue) => {
  const form = FIELD_TYPES[p.type].stored;
  if (form === 'lookup') return (v, target, label) => wireValue(p, lookupOf(p, v, target), label);
  const read = FROM_SQL[form];
  if (form === 'counter') return (v) => (v === null || v === undefined ? null : String(read(p, v)));
  return (v) => (v === null || v === undefined ? null : (read(p, v) as FieldValue));
};

/** The wire form of a read value: versionnumber as text, a lookup with its label. */
export const wireValue = (p: Property, v: StoredValue, label?: unknown): FieldValue => {
  if (v === null) return null;
  if (FIELD_TYPES[p.type].stored === 'counter') return String(v);
  if (typeof v === 'object') return { id: v.id, name: v.name, label: typeof label === 'string' ? label : null };
  return v;
};
