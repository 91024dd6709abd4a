import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type DomainError, type InputError } from '../errors.js';
import type { EntityRecord, LookupValue } from '../metadata/entity.js';
import { viewRecordOf } from '../metadata/inu-view.js';
import type { Pack } from '../metadata/pack.js';
import { ADMIN_ROLE, CUSTOMIZE_APP } from '../permissions/roles.js';
import type { Clock } from '../ports/clock.js';
import type { OrganizationDirectory } from '../ports/organization-directory.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import { looksLikeEmail, normalizeEmail, normalizeOrganizationName, passwordProblem } from '../auth/sign-in-rules.js';
import { ROLE_ENTITY, TEAM_ENTITY, USER_ROLE_LINK, USER_TEAM_LINK } from './caller.js';
import { NEXT_RULE_ENTITY } from '../whatsnext/next-rule.js';
import { nextRuleRecordOf } from '../whatsnext/pack-rules.js';
import { withViewIndexHints } from '../schema/view-indexes.js';

export const APP_ENTITY = 'inu_app';
export const VIEW_ENTITY = 'inu_view';
export const CURRENCY_ENTITY_NAME = 'currency';
export const USER_ENTITY = 'systemuser';
export const LOCALIZE_ENTITY = 'inu_localize';
/** The secret field of systemuser holding the password hash (never sent to clients). */
export const PASSWORD_HASH_FIELD = 'passwordhash';

export type OrganizationSetupDeps = {
  directory: OrganizationDirectory;
  hasher: PasswordHasher;
  /** When the name was reserved (the directory records it). */
  clock: Clock;
  /** The record store of an organization whose database exists. */
  openStore: (orgName: string) => Promise<RecordStore>;
};

export type NewUser = { name: string; email: string; password?: string; roles?: readonly string[]; teams?: readonly string[] };

export type NewOrganization = {
  orgName: string;
  admin: { name: string; email: string; password: string };
  /** The system pack first, then the packs built on it (demo CRM). */
  packs: readonly Pack[];
};

export type CreatedOrganization = { orgName: string; adminId: string; store: RecordStore };

const lookup = (entity: string, id: string): LookupValue => ({ id, name: entity });

const must = async (r: Promise<Either<DomainError, string>>, what: string): Promise<string> => {
  const v = await r;
  if (isLeft(v)) throw new Error(`${what}: ${v.left.code}: ${v.left.message}`);
  return v.right;
};

/** The record ids of the named rows of an entity (roles, teams, apps by name). */
export const idsByName = async (store: RecordStore, entity: string): Promise<Map<string, string>> => {
  const found = await store.retrieveMultiple(systemCaller(), {
    entity: { name: entity, attributes: [{ attribute: 'id' }, { attribute: 'name' }] },
    pageSize: 5000,
  });
  if (isLeft(found)) throw new Error(`${entity}: ${found.left.message}`);
  return new Map(found.right.records.map((r) => [String(r.name), String(r.id)]));
};

/** Checks a new user's fields; the texts are the ones the CLI and the sign-up page show. */
export const newUserProblem = (u: { name: string; email: string; password?: string }): string | null => {
  if (u.name.trim() === '') return 'A name is required';
  if (!looksLikeEmail(u.email)) return `Invalid e-mail address "${u.email}"`;
  return u.password === undefined ? null : passwordProblem(u.password);
};

/**
 * Adds a user with roles and teams (by name) to an organization. Without a password the user
 * can only sign in through an invitation link.
 */
export const addUser = async (
  deps: Pick<OrganizationSetupDeps, 'hasher'>,
  store: RecordStore,
  user: NewUser,
): Promise<Either<InputError, string>> => {
  const problem = newUserProblem(user);
  if (problem) return left(inputError(problem));
  const email = normalizeEmail(user.email);
  const existing = await store.retrieveMultiple(systemCaller(), {
    entity: { name: USER_ENTITY, attributes: [{ attribute: 'id' }, { attribute: 'emailaddress' }], filter: { conditions: [{ attribute: 'emailaddress', operator: 'eq', value: email }] } },
    pageSize: 1,
  });
  if (isLeft(existing)) return left(inputError(existing.left.message));
  if (existing.right.records.length > 0) return left(inputError(`A user with the e-mail address ${email} exists already`));
  const roles = await idsByName(store, ROLE_ENTITY);
  const teams = await idsByName(store, TEAM_ENTITY);
  for (const r of user.roles ?? []) if (!roles.has(r)) return left(inputError(`No role named ${r}`));
  for (const t of user.teams ?? []) if (!teams.has(t)) return left(inputError(`No team named ${t}`));
  const sys = systemCaller();
  const record: EntityRecord = { name: user.name.trim(), emailaddress: email };
  if (user.password !== undefined) record[PASSWORD_HASH_FIELD] = await deps.hasher.hash(user.password);
  const id = await must(store.create(sys, USER_ENTITY, record), 'systemuser');
  for (const r of user.roles ?? [])
    await must(store.create(sys, USER_ROLE_LINK, { systemuserid: lookup(USER_ENTITY, id), roleid: lookup(ROLE_ENTITY, roles.get(r)!) }), 'role link');
  for (const t of user.teams ?? [])
    await must(store.create(sys, USER_TEAM_LINK, { systemuserid: lookup(USER_ENTITY, id), teamid: lookup(TEAM_ENTITY, teams.get(t)!) }), 'team link');
  return right(id);
};

/** Writes a pack's starting rows: currencies, apps, metadata objects (views, forms, menus), roles, What's Next rules and translations. */
export const seedPack = async (store: RecordStore, pack: Pack): Promise<void> => {
  const sys = systemCaller();
  for (const c of pack.currencies ?? []) await must(store.create(sys, CURRENCY_ENTITY_NAME, { ...c, formatstring: c.formatstring ?? null } as EntityRecord), 'currency');
  for (const a of pack.apps ?? [])
    await must(store.create(sys, APP_ENTITY, { name: a.name, label: a.label, icon: a.icon ?? null, description: a.description ?? null }), 'app');
  const apps = await idsByName(store, APP_ENTITY);
  const appRef = (name: string | undefined): LookupValue | null => (name && apps.has(name) ? lookup(APP_ENTITY, apps.get(name)!) : null);
  for (const v of pack.views ?? []) {
    const record = viewRecordOf(v) as unknown as EntityRecord;
    await must(store.create(sys, VIEW_ENTITY, { ...record, appid: appRef((v as { appid?: string }).appid) }), `view ${v.kind} ${v.name}`);
  }
  for (const r of pack.roles ?? [])
    await must(store.create(sys, ROLE_ENTITY, { name: r.name, body: JSON.stringify(r.permissions), appid: appRef(r.appid) }), `role ${r.name}`);
  for (const r of pack.nextRules ?? []) await must(store.create(sys, NEXT_RULE_ENTITY, nextRuleRecordOf(r)), `next rule ${r.name}`);
  for (const [lang, texts] of Object.entries(pack.translations ?? {}))
    for (const [name, text] of Object.entries(texts)) await must(store.create(sys, LOCALIZE_ENTITY, { name, lang, text }), `translation ${lang} ${name}`);
};

/**
 * Creates an organization (spec 000, `tessera org create`, sign-up, trial): its database with
 * the packs' schema, their starting rows, the admin role (with the Customize app) and the admin
 * user, who holds the admin role and every role of the packs. The name is reserved first, so two
 * creations of one name cannot both run.
 */
export const createOrganization = async (deps: OrganizationSetupDeps, input: NewOrganization): Promise<Either<InputError, CreatedOrganization>> => {
  const orgName = normalizeOrganizationName(input.orgName);
  if (!orgName) return left(inputError(`Invalid organization name "${input.orgName}": use 1 to 63 letters, digits or dashes, not starting or ending with a dash`));
  const problem = newUserProblem(input.admin);
  if (problem) return left(inputError(problem));
  if (!(await deps.directory.reserve(orgName, deps.clock.now()))) return left(inputError(`Organization ${orgName} exists already`));
  try {
    // The views' indexes (a calendar's date fields) become part of the entities' metadata.
    await deps.directory.provision(orgName, withViewIndexHints(input.packs.flatMap((p) => p.entities), input.packs.flatMap((p) => p.views ?? [])));
    const store = await deps.openStore(orgName);
    for (const pack of input.packs) await seedPack(store, pack);
    const apps = await idsByName(store, APP_ENTITY);
    const customize = apps.get(CUSTOMIZE_APP);
    await must(
      store.create(systemCaller(), ROLE_ENTITY, { name: ADMIN_ROLE, body: '{}', appid: customize ? lookup(APP_ENTITY, customize) : null }),
      'admin role',
    );
    // The first administrator also gets the packs' roles: their masks add nothing to the admin
    // role's full ones, but their apps do, so the administrator can open every app of the packs.
    const packRoles = input.packs.flatMap((p) => (p.roles ?? []).map((r) => r.name));
    const admin = await addUser(deps, store, { ...input.admin, roles: [ADMIN_ROLE, ...packRoles] });
    if (isLeft(admin)) throw new Error(admin.left.message);
    await deps.directory.setStatus(orgName, 'ready');
    return right({ orgName, adminId: admin.right, store });
  } catch (e) {
    await deps.directory.setStatus(orgName, 'failed');
    throw e;
  }
};
