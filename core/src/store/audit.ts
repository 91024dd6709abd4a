import type { Entity } from '../metadata/entity.js';
import { withSystemFields } from '../metadata/system-fields.js';

/**
 * The `audit` entity (spec 000 section 2: Administration > Audit): a delete keeps the full
 * record body here so that undo-delete can restore it with its original id (issue 5).
 * The system pack declares it; stores find it in the organization's metadata under this name.
 */
export const AUDIT_ENTITY = 'audit';

/** Operations an audit row records. */
export const AUDIT_DELETE = 'delete';
export const AUDIT_RESTORE = 'restore';

const declared: Entity = {
  logicalName: AUDIT_ENTITY,
  displayName: 'Audit',
  displayNamePlural: 'Audit',
  properties: [
    { logicalName: 'logicalname', displayName: 'Entity', type: 'String', max: 200 },
    { logicalName: 'objectid', displayName: 'Record', type: 'Guid' },
    { logicalName: 'operation', displayName: 'Operation', type: 'String', max: 20 },
    { logicalName: 'body', displayName: 'Body', type: 'String', flags: ['MultiLine', 'Json'] },
  ],
};

/** The audit entity with its system fields, for packs and tests that need it. */
export const auditEntity: Entity = (() => {
  const e = withSystemFields(declared);
  if (e._tag === 'Left') throw new Error(e.left.message);
  return e.right;
})();
