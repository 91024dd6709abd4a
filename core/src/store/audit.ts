import type { Entity } from '../metadata/entity.js';
import { withSystemFields } from '../metadata/system-fields.js';

/**
 * The `audit` entity (spec 000 section 2: Administration > Audit): a delete keeps the full
 * record body here so that undo-delete can restore it with its original id (issue 5).
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
