import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decode } from '../decode.js';
import { inputError, type InputError } from '../errors.js';
import { EMPTY_MASK, FULL_MASK, maxMask, packMask, unpackMask } from './mask.js';
import { OPERATIONS, type CustomOwner, type Operation, type UserPermissions } from './types.js';

/** Spec 000 section 6: the role whose name is exactly this gets the full mask everywhere. */
export const ADMIN_ROLE = 'admin';
/**
 * The metadata entity: entity definitions (and the schema behind them) are records of this
 * name. Spec 000 section 6 gives the admin role the full mask on it; no other role gets it
 * unless its document names it.
 */
export const METADATA_ENTITY = 'inu_metadata';
/** Spec 000 section 6: the app label the admin role adds to the user's apps. */
export const CUSTOMIZE_APP = 'Customize';

const operationFromWire = new t.Type<Operation, Operation | number, unknown>(
  'Operation',
  (u): u is Operation => typeof u === 'string' && (OPERATIONS as readonly string[]).includes(u),
  (u, c) => {
    if (typeof u === 'string' && (OPERATIONS as readonly string[]).includes(u)) return t.success(u as Operation);
    // Stored documents may name the operation by its index (create 0, read 1, update 2, delete 3).
    if (typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= 3) return t.success(OPERATIONS[u]);
    return t.failure(u, c, 'create, read, update, delete or 0 to 3');
  },
  (op) => op,
);

/** A custom-owner rule as stored in a role document. */
export const CustomOwnerCodec = t.type({ objectName: t.string, operation: operationFromWire, fieldName: t.string }, 'CustomOwner');

const MaskMap = t.record(t.string, t.number, 'MaskMap');

/**
 * The permissions document of a role (spec 000 section 6): a map of entity to mask, or an
 * object with `permissions` (that map) and `customOwners`.
 */
export const RoleDocument = t.union(
  [
    t.intersection([t.type({ permissions: MaskMap }), t.partial({ customOwners: t.array(CustomOwnerCodec) })]),
    MaskMap,
  ],
  'RoleDocument',
);
export type RoleDocument = t.TypeOf<typeof RoleDocument>;

/** A role as loaded with the user context: its name, its app (a lookup with a label) and its document. */
export type Role = {
  name: string;
  appid?: { label?: string | null } | string | null;
  body?: RoleDocument | null;
};

/** Decodes a role's body (JSON text or an already-parsed value) at the edge. */
export const parseRoleDocument = (body: unknown): Either<InputError, RoleDocument> => {
  if (typeof body !== 'string') return decode(RoleDocument, body, 'role document');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return left(inputError('Invalid role document: not JSON'));
  }
  const r = decode(RoleDocument, parsed, 'role document');
  return isLeft(r) ? r : right(r.right);
};

/** No permission, no app, no rule. */
export const NO_PERMISSIONS: UserPermissions = { permissions: {}, apps: [], owners: [], needsTeams: false };

const ownerKey = (o: CustomOwner): string => `${o.objectName}\u0000${o.operation}\u0000${o.fieldName}`;
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const anyTeamLevel = (mask: number): boolean => Object.values(unpackMask(mask)).some((l) => l === 2);
const normalMask = (mask: number): number => packMask(unpackMask(Number.isFinite(mask) ? mask : 0));

/**
 * Canonical form: zero masks dropped (same as absent), apps and owner rules distinct and
 * sorted, so that equal permissions are equal values whatever the order of the roles.
 */
const canonical = (
  entries: Iterable<[string, number]>,
  apps: Iterable<string>,
  owners: Iterable<CustomOwner>,
  needsTeams: boolean,
): UserPermissions => {
  const masks = new Map<string, number>();
  for (const [entity, mask] of entries) masks.set(entity, maxMask(masks.get(entity) ?? EMPTY_MASK, normalMask(mask)));
  const rules = new Map<string, CustomOwner>();
  for (const o of owners) rules.set(ownerKey(o), { objectName: o.objectName, operation: o.operation, fieldName: o.fieldName });
  return {
    permissions: Object.fromEntries([...masks].filter(([, m]) => m !== EMPTY_MASK).sort(([a], [b]) => byCodePoint(a, b))),
    apps: [...new Set(apps)].sort(byCodePoint),
    owners: [...rules].sort(([a], [b]) => byCodePoint(a, b)).map(([, o]) => o),
    needsTeams,
  };
};

const appLabel = (role: Role): string[] => {
  const a = role.appid;
  if (typeof a === 'string') return a === '' ? [] : [a];
  return a && typeof a.label === 'string' && a.label !== '' ? [a.label] : [];
};

/** What one role grants on its own. */
export const rolePermissions = (role: Role, knownEntities: readonly string[]): UserPermissions => {
  if (role.name === ADMIN_ROLE) {
    return canonical(
      [...knownEntities, METADATA_ENTITY].map((e): [string, number] => [e, FULL_MASK]),
      [...appLabel(role), CUSTOMIZE_APP],
      [],
      false,
    );
  }
  const body = role.body ?? {};
  const map: Record<string, number> = 'permissions' in body && typeof body.permissions === 'object' ? body.permissions : (body as Record<string, number>);
  const owners = 'customOwners' in body && Array.isArray(body.customOwners) ? body.customOwners : [];
  const entries = Object.entries(map);
  return canonical(entries, appLabel(role), owners, entries.some(([, m]) => anyTeamLevel(normalMask(m))));
};

/**
 * Merges two users' permissions: per entity the highest level of each operation, apps and
 * custom-owner rules united, teams needed when either needs them. Commutative, associative,
 * idempotent, and never lowers a level.
 */
export const mergePermissions = (a: UserPermissions, b: UserPermissions): UserPermissions =>
  canonical(
    [...Object.entries(a.permissions), ...Object.entries(b.permissions)],
    [...a.apps, ...b.apps],
    [...a.owners, ...b.owners],
    a.needsTeams || b.needsTeams,
  );

/** Spec 000 section 6: merges a user's roles (admin: full mask on every known entity and inu_metadata, plus the Customize app). */
export const effectivePermissions = (roles: readonly Role[], knownEntities: readonly string[]): UserPermissions =>
  roles.reduce((acc, role) => mergePermissions(acc, rolePermissions(role, knownEntities)), NO_PERMISSIONS);
