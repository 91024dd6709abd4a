import type { Entity, Property } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { cellCoercion, type CellCoercion } from './coerce.js';

/**
 * Header cells match properties by logicalName or displayName (spec 002 section 5), ignoring
 * case and surrounding spaces; the logical name wins when a header matches both. A column
 * ending in `Target` gives the target entity of the lookup before it, and one ending in `Label`
 * (written by export) is the lookup's label, read back as nothing. Unknown columns are ignored
 * and listed, as are columns of fields that import never writes and repeated columns.
 */
export type ColumnBinding =
  /** `coerce` reads the column's cells (resolved once per column). */
  | { kind: 'value'; property: Property; coerce: CellCoercion }
  | { kind: 'target'; property: Property }
  | { kind: 'label'; property: Property };

export type IgnoredColumn = { header: string; reason: 'unknown' | 'not importable' | 'repeated' };

export type HeaderMap = { bindings: Array<ColumnBinding | null>; ignored: IgnoredColumn[] };

/** Fields the server sets itself: never read from a file (they are listed as not importable). */
export const NOT_IMPORTABLE_FIELDS: readonly string[] = ['createdon', 'createdby', 'modifiedon', 'modifiedby', 'versionnumber'];

export const isImportable = (p: Property): boolean =>
  !NOT_IMPORTABLE_FIELDS.includes(p.logicalName) && FIELD_TYPES[p.type].transferable && p.secret !== true;

const norm = (s: string): string => s.trim().toLowerCase();

/** Finds the property a header names, or undefined. */
const propertyNamed = (entity: Entity, header: string): Property | undefined => {
  const h = norm(header);
  if (h === '') return undefined;
  return entity.properties.find((p) => norm(p.logicalName) === h) ?? entity.properties.find((p) => norm(p.displayName) === h);
};

/** The binding of one header cell (also used for the keys of JSON objects). */
export const bindColumn = (entity: Entity, header: string): ColumnBinding | IgnoredColumn => {
  const direct = propertyNamed(entity, header);
  if (direct !== undefined) return isImportable(direct) ? { kind: 'value', property: direct, coerce: cellCoercion(direct) } : { header, reason: 'not importable' };
  for (const [suffix, kind] of [
    ['Target', 'target'],
    ['Label', 'label'],
  ] as const) {
    const trimmed = header.trim();
    if (trimmed.endsWith(suffix) && trimmed.length > suffix.length) {
      const base = propertyNamed(entity, trimmed.slice(0, -suffix.length));
      if (base !== undefined && base.type === 'Lookup') {
        return isImportable(base) ? { kind, property: base } : { header, reason: 'not importable' };
      }
    }
  }
  return { header, reason: 'unknown' };
};

const bindingKey = (b: ColumnBinding): string => `${b.kind}:${b.property.logicalName}`;

export const mapHeader = (entity: Entity, headers: readonly string[]): HeaderMap => {
  const seen = new Set<string>();
  const ignored: IgnoredColumn[] = [];
  const bindings = headers.map((header, i) => {
    const b = bindColumn(entity, header);
    if ('reason' in b) {
      ignored.push(header.trim() === '' ? { header: `(column ${i + 1})`, reason: 'unknown' } : b);
      return null;
    }
    if (seen.has(bindingKey(b))) {
      ignored.push({ header, reason: 'repeated' });
      return null;
    }
    seen.add(bindingKey(b));
    return b;
  });
  return { bindings, ignored };
};

/** How an ignored column is listed for the user. */
export const ignoredColumnText = (c: IgnoredColumn): string =>
  c.reason === 'unknown'
    ? `Column ignored: ${c.header} (no such field)`
    : c.reason === 'repeated'
      ? `Column ignored: ${c.header} (repeated)`
      : `Column ignored: ${c.header} (set by the server)`;
