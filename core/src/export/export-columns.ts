import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { fieldNotFound, type InputError } from '../errors.js';
import type { Entity, Property } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';

/**
 * Which fields an export writes: the chosen columns (export option `columns`, or the query's
 * attributes) or every exportable field of the entity; binary, version and secret fields never.
 * In CSV a lookup column expands into three (spec 002 section 5): value (the id), Target (the
 * target entity) and Label (the target's name), headed `x`, `xTarget`, `xLabel` so that import
 * maps them back.
 */
export type ExportColumn = { header: string; property: Property; part: 'value' | 'target' | 'label' };

export const isExportable = (p: Property): boolean => FIELD_TYPES[p.type].transferable && p.secret !== true;

export const exportProperties = (entity: Entity, names?: readonly string[]): Either<InputError, Property[]> => {
  if (names === undefined || names.length === 0) return right(entity.properties.filter(isExportable));
  const out: Property[] = [];
  for (const n of names) {
    const p = entity.properties.find((x) => x.logicalName === n);
    if (p === undefined || !isExportable(p)) return left(fieldNotFound(entity.logicalName, n));
    out.push(p);
  }
  return right(out);
};

export const csvColumns = (properties: readonly Property[]): ExportColumn[] =>
  properties.flatMap((p): ExportColumn[] =>
    FIELD_TYPES[p.type].stored === 'lookup'
      ? [
          { header: p.logicalName, property: p, part: 'value' },
          { header: `${p.logicalName}Target`, property: p, part: 'target' },
          { header: `${p.logicalName}Label`, property: p, part: 'label' },
        ]
      : [{ header: p.logicalName, property: p, part: 'value' }],
  );
