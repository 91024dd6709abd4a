import { primaryKeyOf, type Entity } from '../metadata/entity.js';
import { NAME_MAX_LENGTH, withSystemFields } from '../metadata/system-fields.js';
import { SYSTEM_USER_ENTITY } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { isoStamp, type StoredRecord, type StoredValue } from './record-rules.js';

/**
 * The `audit` entity (spec 000 section 2: Administration > Audit). The store writes one row per
 * create, update and delete of an audited entity, in the same transaction as the write (issue 23
 * item 6): who (createdby), when (createdon), which record (logicalname, objectid, name) and what
 * (body: the changed fields with old and new values; for a delete the full record body, so that
 * undo-delete can restore it with its original id, issue 5). Rows are read-only for everyone.
 * The system pack (core/src/packs/system.json) declares it; stores find it in the organization's
 * metadata under this name. This copy of its definition serves hosts and tests without the pack.
 */
export const AUDIT_ENTITY = 'audit';

/** The operation option values of audit rows (the system pack's option set: Create, Update, Delete). */
export const AUDIT_CREATE = 1;
export const AUDIT_UPDATE = 2;
export const AUDIT_DELETE = 3;

const declared: Entity = {
  logicalName: AUDIT_ENTITY,
  displayName: 'Audit',
  displayNamePlural: 'Audit',
  appendOnly: true,
  properties: [
    { logicalName: 'logicalname', displayName: 'Object Name', type: 'String', max: 100, flags: ['Required'] },
    { logicalName: 'objectid', displayName: 'Record Id', type: 'Guid' },
    {
      logicalName: 'operation',
      displayName: 'Operation',
      type: 'Integer',
      flags: ['OptionSet'],
      richOptions: [
        { value: AUDIT_CREATE, label: 'Create', color: '#2e7d32' },
        { value: AUDIT_UPDATE, label: 'Update', color: '#1565c0' },
        { value: AUDIT_DELETE, label: 'Delete', color: '#c62828' },
      ],
    },
    { logicalName: 'body', displayName: 'Body', type: 'String', flags: ['MultiLine', 'Json'] },
  ],
};

/** The audit entity with its system fields, for packs and tests that need it. */
export const auditEntity: Entity = (() => {
  const e = withSystemFields(declared);
  if (e._tag === 'Left') throw new Error(e.left.message);
  return e.right;
})();

/**
 * Whether the store writes audit rows for an entity (issue 23 item 6): on unless the metadata says
 * `audit: false`; never for the audit entity itself (no audit of audit).
 */
export const isAudited = (e: Entity): boolean => e.audit !== false && e.logicalName !== AUDIT_ENTITY;

/** One changed field of an audit body: the stored value before and after (null: empty). */
export type AuditFieldChange = { old: StoredValue; new: StoredValue } | { secret: true };
/** The body of a create or update audit row: `{ field: { old, new } }`; a secret field says only that it changed. */
export type AuditChanges = Record<string, AuditFieldChange>;

/** Fields an audit body leaves out: the row itself says who and when, and the version is the store's. */
const UNAUDITED: ReadonlySet<string> = new Set(['createdon', 'createdby', 'modifiedon', 'modifiedby', 'versionnumber']);

const secretFields = new WeakMap<Entity, ReadonlySet<string>>();
const secretsOf = (e: Entity): ReadonlySet<string> => {
  let s = secretFields.get(e);
  if (s === undefined) secretFields.set(e, (s = new Set(e.properties.filter((p) => p.secret === true).map((p) => p.logicalName))));
  return s;
};

/**
 * What an update changed, for its audit row: each written field with its stored value before and
 * after (the update has already read the stored record for its version check, so this costs no read).
 * A secret field (a password hash) is named without its values.
 */
export const auditChanges = (e: Entity, before: StoredRecord, changes: StoredRecord): AuditChanges => {
  const secrets = secretsOf(e);
  const out: AuditChanges = {};
  for (const k of Object.keys(changes)) {
    if (UNAUDITED.has(k)) continue;
    out[k] = secrets.has(k) ? { secret: true } : { old: before[k] ?? null, new: changes[k] ?? null };
  }
  return out;
};

/** What a create wrote, in the same shape: every field it set, old null (the key and server fields left out). */
export const auditCreated = (e: Entity, record: StoredRecord): AuditChanges => {
  // One pass over the record (the hot path of bulk creates): no intermediate copy of the set fields.
  const pk = primaryKeyOf(e);
  const secrets = secretsOf(e);
  const out: AuditChanges = {};
  for (const k in record) {
    const v = record[k];
    if (k === pk || v === null || v === undefined || UNAUDITED.has(k)) continue;
    out[k] = secrets.has(k) ? { secret: true } : { old: null, new: v };
  }
  return out;
};

/** What the audit row of one write says. */
export type AuditEntry = {
  entity: Entity;
  id: string;
  operation: typeof AUDIT_CREATE | typeof AUDIT_UPDATE | typeof AUDIT_DELETE;
  /** the record's name, shown in the Audit list (filterable by record) */
  name: StoredValue | undefined;
  /** create/update: the changes; delete: the full stored record, which undo-delete restores */
  body: AuditChanges | StoredRecord;
};

/** How the audit entity's remaining fields are filled: by stamp, by writer or by a constant, worked out once per entity. */
type RowFill = { stamps: string[]; writers: string[]; constants: Array<[string, StoredValue]> };
const fills = new WeakMap<Entity, RowFill>();
const OWN: ReadonlySet<string> = new Set(['name', 'logicalname', 'objectid', 'operation', 'body']);
const fillOf = (audit: Entity): RowFill => {
  let f = fills.get(audit);
  if (f !== undefined) return f;
  f = { stamps: [], writers: [], constants: [] };
  const pk = primaryKeyOf(audit);
  for (const p of audit.properties) {
    const k = p.logicalName;
    if (k === pk || OWN.has(k)) continue;
    if (k === 'createdon' || k === 'modifiedon') f.stamps.push(k);
    else if (k === 'createdby' || k === 'modifiedby') f.writers.push(k);
    else if (p.type === 'VersionNumber') f.constants.push([k, 1]);
    else if (p.defaultValue !== undefined && p.defaultValue !== null && typeof p.defaultValue !== 'object') f.constants.push([k, p.defaultValue]);
  }
  fills.set(audit, f);
  return f;
};

/**
 * The audit row of a write as stored, built straight from trusted values (no request decoding):
 * the caller as createdby/modifiedby, the write's own time, the record's entity and id. The body
 * is one JSON.stringify of the entry's body; the rest of the row is filled from a per-entity plan.
 */
export const auditRow = (audit: Entity, entry: AuditEntry, caller: Caller, now: Date, newId: () => string): StoredRecord => {
  const stamp = isoStamp(now);
  const who = { id: caller.userId.toLowerCase(), name: SYSTEM_USER_ENTITY };
  const name = typeof entry.name === 'string' && entry.name !== '' ? entry.name.slice(0, NAME_MAX_LENGTH) : entry.entity.logicalName;
  const row: StoredRecord = {
    [primaryKeyOf(audit)]: newId().toLowerCase(),
    name,
    logicalname: entry.entity.logicalName,
    objectid: entry.id,
    operation: entry.operation,
    body: JSON.stringify(entry.body),
  };
  const fill = fillOf(audit);
  for (const k of fill.stamps) row[k] = stamp;
  for (const k of fill.writers) row[k] = who;
  for (const [k, v] of fill.constants) row[k] = v;
  return row;
};
