import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { LookupValue } from '../metadata/entity.js';
import { effectivePermissions, METADATA_ENTITY, parseRoleDocument, type Role } from '../permissions/roles.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';

/**
 * The entities that hold who may do what (spec 000 sections 3 and 6): roles, the user-to-role
 * link (roleid, systemuserid) and the user-to-team link (teamid, systemuserid).
 */
export const ROLE_ENTITY = 'inu_role';
export const USER_ROLE_LINK = 'systemuserroles';
export const USER_TEAM_LINK = 'teammembership';
export const TEAM_ENTITY = 'team';

/**
 * Entities whose change alters some user's permissions: a cached caller must be reloaded. New
 * metadata (inu_metadata, the metadata editor) too: the admin role's mask covers every known entity.
 */
export const PERMISSION_ENTITIES: readonly string[] = [ROLE_ENTITY, USER_ROLE_LINK, USER_TEAM_LINK, 'systemuser', METADATA_ENTITY];

const idOf = (v: unknown): string | null =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as LookupValue).id === 'string' ? (v as LookupValue).id : null;

/** What a user's roles grant, as one query per entity of the role model (spec 000 section 7, "Role loading"). */
export type LoadedRoles = { roles: Array<Role & { id: string }>; teams: string[] };

/** The roles and teams of a user, read as the system (the user may not read inu_role themselves). */
export const loadRoles = async (store: RecordStore, userId: string): Promise<Either<DomainError, LoadedRoles>> => {
  const sys = systemCaller();
  const links = await store.retrieveMultiple(sys, {
    entity: { name: USER_ROLE_LINK, attributes: [{ attribute: 'roleid' }], filter: { conditions: [{ attribute: 'systemuserid', operator: 'eq', value: userId }] } },
    pageSize: 5000,
  });
  if (isLeft(links)) return links;
  const roleIds = [...new Set(links.right.records.map((r) => idOf(r.roleid)).filter((x): x is string => x !== null))];
  let roles: Array<Role & { id: string }> = [];
  if (roleIds.length > 0) {
    const found = await store.retrieveMultiple(sys, {
      entity: {
        name: ROLE_ENTITY,
        attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'body' }, { attribute: 'appid' }],
        filter: { conditions: [{ attribute: 'id', operator: 'in', value: roleIds }] },
      },
      pageSize: 5000,
    });
    if (isLeft(found)) return found;
    roles = found.right.records.map((r) => {
      const body = parseRoleDocument(r.body ?? '{}');
      return {
        id: String(r.id),
        name: String(r.name ?? ''),
        appid: (r.appid ?? null) as Role['appid'],
        // A role whose document does not decode grants nothing rather than failing sign-in.
        body: isLeft(body) ? null : body.right,
      };
    });
  }
  const memberships = await store.retrieveMultiple(sys, {
    entity: { name: USER_TEAM_LINK, attributes: [{ attribute: 'teamid' }], filter: { conditions: [{ attribute: 'systemuserid', operator: 'eq', value: userId }] } },
    pageSize: 5000,
  });
  if (isLeft(memberships)) return memberships;
  const teams = [...new Set(memberships.right.records.map((r) => idOf(r.teamid)).filter((x): x is string => x !== null))];
  return right({ roles, teams });
};

/** The caller of every use case: the user with their merged roles and, when needed, their teams. */
export const loadCaller = async (store: RecordStore, userId: string, knownEntities: readonly string[]): Promise<Either<DomainError, Caller>> => {
  const loaded = await loadRoles(store, userId);
  if (isLeft(loaded)) return loaded;
  const permissions = effectivePermissions(loaded.right.roles, knownEntities);
  return right({ userId, teams: permissions.needsTeams ? loaded.right.teams : [], permissions });
};
