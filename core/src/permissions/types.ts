/**
 * Shared shapes of the permission model (spec 000 section 6). The rules live beside this
 * file (masks, role merge, access decisions); these types are what other modules see.
 */

/** 0 none, 1 owner, 2 business unit (team), 3 organization. */
export type Level = 0 | 1 | 2 | 3;
/** Operation indexes: create 0, read 1, update 2, delete 3. */
export type Operation = 'create' | 'read' | 'update' | 'delete';
/** The operations in index order (create 0, read 1, update 2, delete 3). */
export const OPERATIONS: readonly Operation[] = ['create', 'read', 'update', 'delete'];

/** Per operation, the level granted on one entity. */
export type Levels = Record<Operation, Level>;

/** A custom-owner rule: users lacking a level get owner level over records whose `fieldName` points at them. */
export type CustomOwner = { objectName: string; operation: Operation; fieldName: string };

/** What a signed-in user may do: the result of merging their roles (effectivePermissions). */
export type UserPermissions = {
  /** entity logical name to packed mask */
  permissions: Record<string, number>;
  apps: string[];
  owners: CustomOwner[];
  /** true when any role grants a business-unit level, so team memberships must be loaded */
  needsTeams: boolean;
};

/** The caller of a use case: who they are and what they may do. */
export type Caller = {
  userId: string;
  /** ids of the teams the user belongs to */
  teams: string[];
  permissions: UserPermissions;
};

/**
 * A dialect-free description of the rows a user may read of one entity (readScope).
 * The SQL adapter turns it into a WHERE clause; the in-memory store evaluates it directly.
 * - all: every row; none: no row;
 * - owner: rows whose `ownerField` (ownerid, or id for systemuser) is the user;
 * - team: rows whose teamid is one of `teams`, or owned by the user;
 * - `customOwnerFields`: further fields that, pointing at the user, make a row readable.
 */
export type ReadScope =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'owner'; ownerField: string; userId: string; customOwnerFields: string[] }
  | { kind: 'team'; ownerField: string; userId: string; teams: string[]; customOwnerFields: string[] }
  | { kind: 'customOwners'; userId: string; customOwnerFields: string[] };
