import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import { SYSTEM_USER_ENTITY, canAccess, isNewRecord, levelOf, mayAccessSome } from './access.js';
import { OPERATIONS, type Caller, type Operation } from './types.js';

/**
 * A permission string `{entity};{level}[;allowNew]` (spec 000 section 6, 001 section 6). The
 * number is the operation index (create 0, read 1, update 2, delete 3): that is how the
 * specification's defaults read, "new requires level 0" (create) and "edit requires level 2"
 * (update). allowNew: on a new record, create stands in for the operation (Save).
 */
export type PermissionRequirement = { entity: string; operation: Operation; allowNew: boolean };

/** The entity of view, form and other metadata objects (spec 000 section 3). */
const VIEW_ENTITY = 'inu_view';
/** The optional third part of a permission string. */
export const ALLOW_NEW = 'allowNew';

/** Parses `{entity};{level}[;allowNew]`; a malformed string is an InputError naming it. */
export const parsePermissionString = (text: string): Either<InputError, PermissionRequirement> => {
  const parts = text.split(';').map((p) => p.trim());
  const [entity, index, flag] = parts;
  const bad = left(inputError(`Invalid permission string: '${text}' (expected {entity};{level}[;allowNew])`));
  if (parts.length < 2 || parts.length > 3 || entity === '' || !/^[0-3]$/.test(index)) return bad;
  if (flag !== undefined && flag.toLowerCase() !== ALLOW_NEW.toLowerCase()) return bad;
  return right({ entity, operation: OPERATIONS[Number(index)], allowNew: flag !== undefined });
};

/** Formats a requirement back into its permission string. */
export const formatPermissionString = (r: PermissionRequirement): string =>
  `${r.entity};${OPERATIONS.indexOf(r.operation)}${r.allowNew ? `;${ALLOW_NEW}` : ''}`;

/**
 * Whether the user passes a permission string, for commands, menu items and quick filters
 * (which are hidden when it fails). With a record, its ownership decides (canAccess); without
 * one, any access to some records of the entity passes. No string (or an empty one) requires
 * nothing; a malformed one fails closed.
 */
export const checkPermissionString = (user: Caller, permission: string | undefined | null, record?: EntityRecord): boolean => {
  if (permission === undefined || permission === null || permission.trim() === '') return true;
  const parsed = parsePermissionString(permission);
  if (parsed._tag === 'Left') return false;
  const { entity, allowNew } = parsed.right;
  const operation = allowNew && isNewRecord(record) ? 'create' : parsed.right.operation;
  return record === undefined ? mayAccessSome(user, operation, entity) : canAccess(user, operation, entity, record);
};

/** The standard commands with a default permission (spec 001 section 6). */
export type StandardCommand = 'Save' | 'Delete' | 'Clone' | 'New' | 'Edit';

/**
 * The default permission string of a standard command: Save needs update, or create on a new
 * record (allowNew); Delete needs delete; Clone and the list's New need create (0); the list's
 * Edit needs update (2). A command's own permissions string replaces it.
 */
export const defaultCommandPermission = (command: StandardCommand, entity: string): string => {
  switch (command) {
    case 'Save':
      return `${entity};2;${ALLOW_NEW}`;
    case 'Delete':
      return `${entity};3`;
    case 'Clone':
    case 'New':
      return `${entity};0`;
    case 'Edit':
      return `${entity};2`;
  }
};

/** The permission string in force for a command: its own, else the default of a standard command, else none. */
export const commandPermission = (command: { name: string; permissions?: string | null }, entity: string): string | undefined => {
  if (command.permissions !== undefined && command.permissions !== null && command.permissions.trim() !== '') return command.permissions;
  const standard: readonly string[] = ['Save', 'Delete', 'Clone', 'New', 'Edit'];
  return standard.includes(command.name) ? defaultCommandPermission(command.name as StandardCommand, entity) : undefined;
};

/**
 * Spec 001 section 6: the whole form is read-only when the user lacks create (new record)
 * or update (existing record) on it.
 */
export const canEditForm = (user: Caller, entity: string, record: EntityRecord): boolean =>
  checkPermissionString(user, defaultCommandPermission('Save', entity), record);

/** Spec 001 sections 1 and 6: customize mode needs update permission on inu_view. */
export const canCustomize = (user: Caller): boolean => levelOf(user.permissions, VIEW_ENTITY, 'update') > 0;

/**
 * Spec 001 section 2, 002 section 6: super edit (Meta or Alt plus E, list edit mode 2) needs
 * system user permission level 3, read as organization level for update on systemuser.
 */
export const canSuperEdit = (user: Caller): boolean => levelOf(user.permissions, SYSTEM_USER_ENTITY, 'update') === 3;

/** Spec 000 section 6: the export page lists only entities whose read level is above zero. */
export const exportableEntities = (user: Caller, entities: readonly string[]): string[] =>
  entities.filter((e) => levelOf(user.permissions, e, 'read') > 0);

/** Spec 001 section 6: a lookup's Create button shows only with create permission on the target entity and a quick form. */
export const canCreateFromLookup = (user: Caller, targetEntity: string, hasQuickForm: boolean): boolean =>
  hasQuickForm && mayAccessSome(user, 'create', targetEntity);

/** Spec 001 section 6: a many-to-many field is editable only with create permission on the link entity. */
export const canEditManyToMany = (user: Caller, linkEntity: string): boolean => mayAccessSome(user, 'create', linkEntity);
