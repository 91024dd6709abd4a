import {
  hasFlag,
  lookupTargetColumn,
  type Entity,
  type FieldValue,
  type Property,
  type Scalar,
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

/** A compared value as an SQL parameter. */
export const param = (kind: SqlDialectKind, v: Scalar): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/** The column values of one stored field. */
export const columnsOf = (kind: SqlDialectKind, p: Property, v: StoredValue | undefined): Array<[string, unknown]> => {
  if (p.type === 'Lookup') {
    const ref = v && typeof v === 'object' ? v : null;
    return [
      [p.logicalName, ref ? ref.id : null],
      [lookupTargetColumn(p.logicalName), ref ? ref.name : null],
    ];
  }
  if (v === undefined || v === null) return [[p.logicalName, null]];
  if (typeof v === 'boolean') return [[p.logicalName, v ? 1 : 0]];
  if (p.type === 'Binary' && typeof v === 'string') return [[p.logicalName, Buffer.from(v, 'base64')]];
  return [[p.logicalName, kind === 'mssql' && p.type === 'DateTime' && typeof v === 'string' ? v : v]];
};

/** A read column value in stored form (no lookup here: see lookupOf). */
export const scalarOf = (p: Property, v: unknown): StoredValue => {
  if (v === null || v === undefined) return null;
  switch (p.type) {
    case 'Boolean':
      return v === true || v === 1 || v === '1' || v === 1n;
    case 'DateTime': {
      const iso = v instanceof Date ? v.toISOString() : String(v);
      return hasFlag(p, 'DateOnly') ? iso.slice(0, 10) : iso;
    }
    case 'Guid':
    case 'Lookup':
      return String(v).toLowerCase();
    case 'Integer':
    case 'Decimal':
    case 'Float':
    case 'Money':
    case 'VersionNumber':
      return typeof v === 'number' ? v : Number(v);
    case 'Binary':
      return Buffer.isBuffer(v) ? v.toString('base64') : String(v);
    default:
      return typeof v === 'string' ? v : String(v);
  }
};

/** A lookup read from its id and target columns (target defaults to the only target). */
export const lookupOf = (p: Property, id: unknown, target: unknown): { id: string; name: string } | null =>
  id === null || id === undefined
    ? null
    : { id: String(id).toLowerCase(), name: typeof target === 'string' && target !== '' ? target : ((p.targets ?? [])[0] ?? '') };

/** A whole row of an entity's table in stored form. */
export const storedRow = (e: Entity, row: Row): StoredRecord => {
  const out: StoredRecord = {};
  for (const p of e.properties) {
    out[p.logicalName] =
      p.type === 'Lookup' ? lookupOf(p, row[p.logicalName], row[lookupTargetColumn(p.logicalName)]) : scalarOf(p, row[p.logicalName]);
  }
  return out;
};

/** The wire form of a read value: versionnumber as text, a lookup with its label. */
export const wireValue = (p: Property, v: StoredValue, label?: unknown): FieldValue => {
  if (v === null) return null;
  if (p.type === 'VersionNumber') return String(v);
  if (typeof v === 'object') return { id: v.id, name: v.name, label: typeof label === 'string' ? label : null };
  return v;
};
