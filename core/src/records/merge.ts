import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { versionConflict, type VersionConflict } from '../errors.js';
import { translate } from '../i18n/index.js';
import type { EntityRecord } from '../metadata/entity.js';
import { changeSet } from './change-set.js';
import { VERSION_FIELD, changedFields, valuesEqual } from './values.js';

/** A merge that succeeded: the record to show, the server's versionnumber, and the changes to save again. */
export type Merged = {
  _tag: 'Merged';
  /** the server record with the local changes on top, carrying the server's versionnumber */
  record: EntityRecord;
  /** the local changes that still differ from the server record: what the save sends again */
  changes: EntityRecord;
  versionnumber: EntityRecord[string];
};

/** A merge that failed: the fields both sides changed to different values. */
export type MergeConflict = VersionConflict & { fields: string[] };

/**
 * The label of the user who last modified the server record (its modifiedby lookup), else
 * the lookup's id, else the plain value; 'another user' when the record names nobody.
 */
export const modifierOf = (server: EntityRecord): string => {
  const m = server.modifiedby;
  if (m && typeof m === 'object') return m.label || m.id;
  if (typeof m === 'string' && m !== '') return m;
  return 'another user';
};

/**
 * Spec 001 section 4, 002 section 4: merges local changes with a newer server record. When
 * every field the server changed (against the loaded record) was either not changed locally
 * or has the same value, the result is the server record with the local changes on top and
 * the server's versionnumber, so the save can run again. Otherwise it is a version conflict
 * 'This record was modified by {modifier}'. Serves ERR_8001 on save and a server change
 * notification for a dirty record alike.
 */
export const mergeOnConflict = (
  loaded: EntityRecord,
  localChanges: EntityRecord,
  server: EntityRecord,
): Either<MergeConflict, Merged> => {
  // A field set back to its loaded value was not changed locally: the server's value wins.
  const local = changeSet(loaded, localChanges);
  const conflicts = changedFields(loaded, server).filter((f) => Object.hasOwn(local, f) && !valuesEqual(local[f], server[f]));
  if (conflicts.length > 0) {
    const modifier = modifierOf(server);
    return left({ ...versionConflict(translate('en', 'MsgModifiedBy', { modifier }), modifier), fields: conflicts });
  }
  const record: EntityRecord = { ...server, ...local, [VERSION_FIELD]: server[VERSION_FIELD] };
  return right({ _tag: 'Merged', record, changes: changeSet(server, local), versionnumber: server[VERSION_FIELD] });
};
