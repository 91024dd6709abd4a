import * as t from 'io-ts';
import { LookupValue } from './entity.js';

/**
 * The inu_role record (spec 000 section 3: id, name, appid lookup with label, body). The body is
 * the permission document as JSON text; its codec (`RoleDocument`: a map of entity to mask, or
 * `{ permissions, customOwners }`) and `parseRoleDocument` live in permissions/roles.ts.
 */
export const RoleRecord = t.intersection(
  [
    t.type({ name: t.string }),
    t.partial({ id: t.string, appid: t.union([LookupValue, t.null]), body: t.union([t.string, t.null]) }),
  ],
  'RoleRecord',
);
export type RoleRecord = t.TypeOf<typeof RoleRecord>;

/** Entity logical name to packed permission mask (the user context's permDict). */
export const PermissionMap = t.record(t.string, t.number, 'PermissionMap');
export type PermissionMap = t.TypeOf<typeof PermissionMap>;
