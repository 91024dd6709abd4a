import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { permissionDenied, type PermissionDenied } from '../errors.js';
import { canSuperEdit } from '../permissions/permission-string.js';
import type { Caller } from '../permissions/types.js';

/**
 * Who administers an organization: the user who may update every user (organization level on
 * systemuser, spec 002 section 6). The one check behind the session list, ending sessions and
 * changing another user's password.
 */
export const isAdministrator = (caller: Caller): boolean => canSuperEdit(caller);

/** The administrator check as a value: `ERR_PERMISSION: {why}` for everybody else. */
export const requireAdministrator = (caller: Caller, why: string): Either<PermissionDenied, Caller> =>
  isAdministrator(caller) ? right(caller) : left(permissionDenied(why));
