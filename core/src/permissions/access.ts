import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import { levelIn } from './mask.js';
import type { Caller, CustomOwner, Level, Operation, ReadScope, UserPermissions } from './types.js';

/** Spec 000 section 6: the system user entity, whose owner field is its own id. */
export const SYSTEM_USER_ENTITY = 'systemuser';

/**
 * Entities no user may write whatever their roles say: audit rows are written only by the store
 * itself (issue 23 item 6; the name is AUDIT_ENTITY of store/audit.ts, which imports this module).
 */
const READ_ONLY_ENTITIES: ReadonlySet<string> = new Set(['audit']);
const writesRefused = (entity: string, operation: Operation): boolean => operation !== 'read' && READ_ONLY_ENTITIES.has(entity);

/** The level a user holds for one operation on one entity (0 when the entity is not named). */
export const levelOf = (permissions: UserPermissions, entity: string, operation: Operation): Level =>
  Object.hasOwn(permissions.permissions, entity) ? levelIn(permissions.permissions[entity], operation) : 0;

/** The field that says who owns a record: ownerid, or id for systemuser (spec 000 section 6). */
export const ownerFieldOf = (entity: string): string => (entity === SYSTEM_USER_ENTITY ? 'id' : 'ownerid');

/** The fields of the custom-owner rules that apply to this entity and operation. */
export const customOwnerFields = (permissions: UserPermissions, entity: string, operation: Operation): string[] => [
  ...new Set(permissions.owners.filter((o: CustomOwner) => o.objectName === entity && o.operation === operation).map((o) => o.fieldName)),
];

/** The id a field value refers to: a lookup's id, or the string itself. */
export const referencedId = (value: FieldValue | undefined): string | undefined => {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (value && typeof value === 'object' && typeof value.id === 'string' && value.id !== '') return value.id;
  return undefined;
};

/** Ids are UUIDs: compared without regard to case (SQL Server returns them upper case). */
export const sameId = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/** A record not yet stored: no id, or the id 0 of the route /edit/{name}/0. */
export const isNewRecord = (record: EntityRecord | undefined): boolean => {
  const id = record?.id;
  return id === undefined || id === null || id === '' || id === '0' || id === 0;
};

/**
 * Whether the user owns the record for this operation: its owner field points at the user,
 * or one of the custom-owner fields of (entity, operation) does. A record being created
 * without an ownerid will be owned by its creator (the server defaults it to the caller); a
 * new systemuser record is another person, never the caller.
 */
export const ownsRecord = (user: Caller, operation: Operation, entity: string, record: EntityRecord): boolean => {
  const field = ownerFieldOf(entity);
  const owner = referencedId(record[field]);
  if (sameId(owner, user.userId)) return true;
  if (operation === 'create' && field === 'ownerid' && owner === undefined) return true;
  return customOwnerFields(user.permissions, entity, operation).some((f) => sameId(referencedId(record[f]), user.userId));
};

const inUserTeams = (user: Caller, record: EntityRecord): boolean => {
  const team = referencedId(record.teamid);
  return user.teams.some((t) => sameId(t, team));
};

/**
 * Spec 000 section 6: may the user perform the operation on this record? Organization level
 * allows; business-unit level needs the record's teamid among the user's teams or ownership;
 * owner level needs ownership (ownerid, id for systemuser); custom-owner fields count as
 * ownership. For create, the record is the one about to be stored.
 */
export const canAccess = (user: Caller, operation: Operation, entity: string, record: EntityRecord): boolean => {
  if (writesRefused(entity, operation)) return false;
  const level = levelOf(user.permissions, entity, operation);
  if (level === 3) return true;
  if (level === 2 && inUserTeams(user, record)) return true;
  if (level >= 1) return ownsRecord(user, operation, entity, record);
  // Level none: only the custom-owner rules can grant (spec 000 section 6).
  return customOwnerFields(user.permissions, entity, operation).some((f) => sameId(referencedId(record[f]), user.userId));
};

/**
 * Whether the user may perform the operation on at least some records of the entity: a level
 * above none, or a custom-owner rule for it. Used where no record is at hand (list commands).
 */
export const mayAccessSome = (user: Caller, operation: Operation, entity: string): boolean =>
  !writesRefused(entity, operation) &&
  (levelOf(user.permissions, entity, operation) > 0 || customOwnerFields(user.permissions, entity, operation).length > 0);

/**
 * Spec 000 section 6 as a dialect-free filter: which rows of the entity the user may read.
 * A business-unit reader without teams gets the owner scope (same rows, no empty IN list).
 */
export const readScope = (user: Caller, entity: string): ReadScope => {
  const level = levelOf(user.permissions, entity, 'read');
  const fields = customOwnerFields(user.permissions, entity, 'read');
  const ownerField = ownerFieldOf(entity);
  if (level === 3) return { kind: 'all' };
  if (level === 2 && user.teams.length > 0) {
    return { kind: 'team', ownerField, userId: user.userId, teams: [...user.teams], customOwnerFields: fields };
  }
  if (level >= 1) return { kind: 'owner', ownerField, userId: user.userId, customOwnerFields: fields };
  if (fields.length > 0) return { kind: 'customOwners', userId: user.userId, customOwnerFields: fields };
  return { kind: 'none' };
};

/** Whether a stored row lies in a read scope; the in-memory twin of the SQL adapter's WHERE clause. */
export const inReadScope = (scope: ReadScope, record: EntityRecord): boolean => {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  const pointsAtUser = (f: string): boolean => sameId(referencedId(record[f]), scope.userId);
  if (scope.customOwnerFields.some(pointsAtUser)) return true;
  if (scope.kind === 'customOwners') return false;
  if (pointsAtUser(scope.ownerField)) return true;
  return scope.kind === 'team' && scope.teams.some((t) => sameId(t, referencedId(record.teamid)));
};
