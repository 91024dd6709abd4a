import { translate } from '../i18n/index.js';
import { hasFlag, type Entity, type EntityRecord } from '../metadata/entity.js';

/** Spec 001 section 4: the name of a clone, 'Copy of {name}'. */
export const cloneName = (name: string): string => translate('en', 'MsgCopyOf', { name });

/**
 * Fields a clone never copies: its identity, version and audit stamps (the server sets them),
 * and ownerid, so the copy belongs to whoever makes it (the server defaults it to the caller).
 */
export const CLONE_DROPPED_FIELDS = ['id', 'versionnumber', 'createdon', 'createdby', 'modifiedon', 'modifiedby', 'ownerid'] as const;

/**
 * A new record copied from another (spec 001 section 4, Clone): name 'Copy of {name}',
 * without id, version, audit stamps, owner, auto-numbers and secret fields.
 */
export const cloneRecord = (record: EntityRecord, entity?: Entity, copyOf: (name: string) => string = cloneName): EntityRecord => {
  const dropped = new Set<string>(CLONE_DROPPED_FIELDS);
  for (const p of entity?.properties ?? []) if (hasFlag(p, 'AutoNumber') || p.secret === true) dropped.add(p.logicalName);
  const copy = Object.fromEntries(Object.entries(record).filter(([f]) => !dropped.has(f)));
  return typeof record.name === 'string' && record.name !== '' ? { ...copy, name: copyOf(record.name) } : copy;
};
