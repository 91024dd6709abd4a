import type { EntityRecord } from '../metadata/entity.js';
import { VERSION_FIELD, valuesEqual } from './values.js';

/**
 * Spec 001 section 4: only changed fields are sent. The fields of `edited` whose value differs
 * from `loaded` (structurally: lookups by id); a cleared field is sent as null, fields that
 * `edited` does not name are untouched, and the version stamp is never part of it.
 */
export const changeSet = (loaded: EntityRecord, edited: EntityRecord): EntityRecord =>
  Object.fromEntries(
    Object.keys(edited)
      .filter((f) => f !== VERSION_FIELD && !valuesEqual(loaded[f], edited[f]))
      .map((f) => [f, edited[f] ?? null]),
  );

/** The body of an update (API.md): id, the loaded versionnumber and only the changed fields. */
export const updatePayload = (loaded: EntityRecord, edited: EntityRecord): EntityRecord => ({
  ...changeSet(loaded, edited),
  id: loaded.id,
  [VERSION_FIELD]: loaded[VERSION_FIELD],
});

/** Applies changes on top of a record. */
export const applyChanges = (record: EntityRecord, changes: EntityRecord): EntityRecord => ({ ...record, ...changes });
