import type { EntityRecord, FieldValue } from '../metadata/entity.js';

/** Spec 001 section 5: empty string, undefined and null count as empty. */
export const isEmptyValue = (v: FieldValue | undefined): boolean => v === undefined || v === null || v === '';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Structural equality of two field values: lookups by id (UUIDs, without regard to case; the
 * label is display only), instants by the moment they denote ('...:00Z' equals '...:00.000Z'),
 * and null equal to undefined (JSON drops undefined, so both mean "no value" on the wire).
 */
export const valuesEqual = (a: FieldValue | undefined, b: FieldValue | undefined): boolean => {
  const aNone = a === undefined || a === null;
  const bNone = b === undefined || b === null;
  if (aNone || bNone) return aNone && bNone;
  if (typeof a === 'object' || typeof b === 'object') {
    return typeof a === 'object' && typeof b === 'object' && a.id.toLowerCase() === b.id.toLowerCase();
  }
  if (typeof a === 'string' && typeof b === 'string' && a !== b && ISO_DATE_TIME.test(a) && ISO_DATE_TIME.test(b)) {
    const ta = Date.parse(a);
    const tb = Date.parse(b);
    return !Number.isNaN(ta) && ta === tb;
  }
  return Object.is(a, b) || (typeof a === 'number' && a === b);
};

/** The fields of a record other than the version stamp, which every write changes. */
export const VERSION_FIELD = 'versionnumber';

/** The names of the fields that differ between two records (versionnumber aside). */
export const changedFields = (before: EntityRecord, after: EntityRecord): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (f) => f !== VERSION_FIELD && !valuesEqual(before[f], after[f]),
  );
