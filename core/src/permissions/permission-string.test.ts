import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { packMask, uniformLevels } from './mask.js';
import {
  canCreateFromLookup,
  canCustomize,
  canEditManyToMany,
  canEditForm,
  canSuperEdit,
  checkPermissionString,
  commandPermission,
  defaultCommandPermission,
  exportableEntities,
  formatPermissionString,
  parsePermissionString,
} from './permission-string.js';
import { effectivePermissions } from './roles.js';
import { canAccess } from './access.js';
import { OPERATIONS, type Caller, type Levels } from './types.js';

const caller = (levels: Record<string, Levels>, teams: string[] = []): Caller => ({
  userId: 'u1',
  teams,
  permissions: effectivePermissions([{ name: 'r', body: Object.fromEntries(Object.entries(levels).map(([e, l]) => [e, packMask(l)])) }], []),
});
const L = (create: 0 | 1 | 2 | 3, read: 0 | 1 | 2 | 3, update: 0 | 1 | 2 | 3, del: 0 | 1 | 2 | 3): Levels => ({ create, read, update, delete: del });
const me = { id: 'u1', name: 'systemuser' };
const other = { id: 'u2', name: 'systemuser' };

describe('permission strings {entity};{level}[;allowNew] (spec 000 section 6, 001 section 6)', () => {
  it('parses the entity, the operation index (create 0, read 1, update 2, delete 3) and the allowNew flag', () => {
    const r = parsePermissionString('account;2;allowNew');
    expect(isRight(r) && r.right).toEqual({ entity: 'account', operation: 'update', allowNew: true });
    const d = parsePermissionString('systemuser;3');
    expect(isRight(d) && d.right).toEqual({ entity: 'systemuser', operation: 'delete', allowNew: false });
  });

  it('a malformed string is an error naming it, and fails closed', () => {
    for (const s of ['account', 'account;4', ';1', 'account;1;x', 'account;a']) {
      const r = parsePermissionString(s);
      expect(r._tag === 'Left' && r.left.message).toContain(`'${s}'`);
      expect(checkPermissionString(caller({ account: uniformLevels(3) }), s)).toBe(false);
    }
  });

  it('format and parse round trip', () => {
    fc.assert(
      fc.property(
        fc.record({ entity: fc.stringMatching(/^[a-z_]{1,12}$/), operation: fc.constantFrom(...OPERATIONS), allowNew: fc.boolean() }),
        (req) => {
          const r = parsePermissionString(formatPermissionString(req));
          expect(isRight(r) && r.right).toEqual(req);
        },
      ),
    );
  });

  it('no permission string requires nothing', () => {
    const nobody = caller({});
    expect(checkPermissionString(nobody, undefined)).toBe(true);
    expect(checkPermissionString(nobody, '')).toBe(true);
  });

  it('record ownership is considered: owner-level update passes on own records only', () => {
    const u = caller({ account: L(1, 1, 1, 0) });
    expect(checkPermissionString(u, 'account;2', { id: 'a', ownerid: me })).toBe(true);
    expect(checkPermissionString(u, 'account;2', { id: 'a', ownerid: other })).toBe(false);
    expect(checkPermissionString(u, 'account;3', { id: 'a', ownerid: me })).toBe(false);
    // Without a record: some records can be updated.
    expect(checkPermissionString(u, 'account;2')).toBe(true);
  });

  it('allowNew: on a new record (no id, or id 0) create stands in for the operation', () => {
    const creator = caller({ account: L(1, 1, 0, 0) });
    expect(checkPermissionString(creator, 'account;2;allowNew', { id: 0, name: 'x' })).toBe(true);
    expect(checkPermissionString(creator, 'account;2;allowNew', { name: 'x' })).toBe(true);
    expect(checkPermissionString(creator, 'account;2;allowNew', { id: 'a', ownerid: me })).toBe(false);
    expect(checkPermissionString(creator, 'account;2', { id: 0, name: 'x' })).toBe(false);
  });
});

describe('permission strings agree with canAccess', () => {
  const lvl = fc.constantFrom<0 | 1 | 2 | 3>(0, 1, 2, 3);
  const levels = fc.record({ create: lvl, read: lvl, update: lvl, delete: lvl });
  const ref = fc.option(fc.constantFrom('u1', 'u2'), { nil: undefined });
  const record = fc.record({ id: fc.option(fc.constantFrom<string | number>('a', 0), { nil: undefined }), ownerid: ref, teamid: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }) }, { requiredKeys: [] });
  it('{entity};{n} with a record is canAccess of operation n; Save is create on a new record, else update', () => {
    fc.assert(
      fc.property(levels, record, fc.constantFrom(...OPERATIONS), (l, r, op) => {
        const u = caller({ account: l }, ['t1']);
        expect(checkPermissionString(u, `account;${OPERATIONS.indexOf(op)}`, r)).toBe(canAccess(u, op, 'account', r));
        const isNew = r.id === undefined || r.id === 0;
        expect(checkPermissionString(u, defaultCommandPermission('Save', 'account'), r)).toBe(canAccess(u, isNew ? 'create' : 'update', 'account', r));
      }),
    );
  });
});

describe('default command permissions (spec 001 section 6, 002 section 6)', () => {
  it('Save needs create on a new record, else update; Delete needs delete; Clone needs create; list New level 0, Edit level 2', () => {
    expect(defaultCommandPermission('Save', 'account')).toBe('account;2;allowNew');
    expect(defaultCommandPermission('Delete', 'account')).toBe('account;3');
    expect(defaultCommandPermission('Clone', 'account')).toBe('account;0');
    expect(defaultCommandPermission('New', 'account')).toBe('account;0');
    expect(defaultCommandPermission('Edit', 'account')).toBe('account;2');
  });

  it('a command\'s own permissions string replaces the default; custom commands without one need nothing', () => {
    expect(commandPermission({ name: 'Save', permissions: 'inu_view;2' }, 'account')).toBe('inu_view;2');
    expect(commandPermission({ name: 'Delete' }, 'account')).toBe('account;3');
    expect(commandPermission({ name: 'SendInvite' }, 'systemuser')).toBeUndefined();
  });

  it('the whole form is disabled without create (new record) or update (existing record)', () => {
    const reader = caller({ account: L(0, 3, 0, 0) });
    const creator = caller({ account: L(3, 3, 0, 0) });
    expect(canEditForm(reader, 'account', { id: 0 })).toBe(false);
    expect(canEditForm(creator, 'account', { id: 0 })).toBe(true);
    expect(canEditForm(creator, 'account', { id: 'a', ownerid: me })).toBe(false);
  });

  it('customize mode needs update permission on inu_view', () => {
    expect(canCustomize(caller({ inu_view: L(0, 3, 1, 0) }))).toBe(true);
    expect(canCustomize(caller({ inu_view: L(3, 3, 0, 3) }))).toBe(false);
    expect(canCustomize({ userId: 'u1', teams: [], permissions: effectivePermissions([{ name: 'admin' }], ['inu_view']) })).toBe(true);
  });

  it('super edit needs system user permission level 3 (organization-level update on systemuser)', () => {
    expect(canSuperEdit(caller({ systemuser: L(0, 3, 3, 0) }))).toBe(true);
    expect(canSuperEdit(caller({ systemuser: L(3, 3, 2, 3) }))).toBe(false);
    expect(canSuperEdit({ userId: 'u1', teams: [], permissions: effectivePermissions([{ name: 'admin' }], ['systemuser']) })).toBe(true);
  });

  it('a lookup offers Create only with create permission on the target and a quick form; many-to-many needs create on the link entity', () => {
    const u = caller({ contact: L(1, 3, 0, 0), account_contact: L(0, 3, 3, 3) });
    expect(canCreateFromLookup(u, 'contact', true)).toBe(true);
    expect(canCreateFromLookup(u, 'contact', false)).toBe(false);
    expect(canCreateFromLookup(u, 'account', true)).toBe(false);
    expect(canEditManyToMany(u, 'account_contact')).toBe(false);
    expect(canEditManyToMany(caller({ account_contact: L(1, 0, 0, 0) }), 'account_contact')).toBe(true);
  });

  it('the export page lists only entities whose read permission is above zero', () => {
    expect(exportableEntities(caller({ account: L(0, 1, 0, 0), contact: L(3, 0, 3, 3) }), ['account', 'contact', 'lead'])).toEqual(['account']);
  });
});
