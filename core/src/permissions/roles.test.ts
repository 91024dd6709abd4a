import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { FULL_MASK, packMask, unpackMask } from './mask.js';
import { levelOf } from './access.js';
import {
  CUSTOMIZE_APP,
  METADATA_ENTITY,
  NO_PERMISSIONS,
  effectivePermissions,
  mergePermissions,
  parseRoleDocument,
  rolePermissions,
  type Role,
} from './roles.js';
import { OPERATIONS, type CustomOwner, type Level, type UserPermissions } from './types.js';

const ENTITIES = ['account', 'contact', 'systemuser', 'inu_view', 'constructor'];
const level = fc.constantFrom<Level>(0, 1, 2, 3);
const mask = fc
  .record({ create: level, read: level, update: level, delete: level })
  .map((l) => packMask(l));
const owner = fc.record<CustomOwner>({
  objectName: fc.constantFrom(...ENTITIES),
  operation: fc.constantFrom(...OPERATIONS),
  fieldName: fc.constantFrom('managerid', 'assigneeid'),
});
const role: fc.Arbitrary<Role> = fc.oneof(
  fc.record({ name: fc.constant('admin'), appid: fc.option(fc.record({ label: fc.constantFrom('Sales', 'Service') }), { nil: undefined }) }),
  fc.record({
    name: fc.constantFrom('sales', 'service', 'Admin'),
    appid: fc.option(fc.record({ label: fc.constantFrom('Sales', 'Service', 'Travel') }), { nil: undefined }),
    body: fc.oneof(
      fc.dictionary(fc.constantFrom(...ENTITIES), mask),
      fc.record({ permissions: fc.dictionary(fc.constantFrom(...ENTITIES), mask), customOwners: fc.array(owner, { maxLength: 3 }) }),
    ),
  }),
);
const perms: fc.Arbitrary<UserPermissions> = role.map((r) => rolePermissions(r, ['account', 'contact']));

describe('role merge (spec 000 section 6)', () => {
  it('a role named admin gets the full mask 13107 on every known entity and on the metadata entity, and the Customize app', () => {
    const p = effectivePermissions([{ name: 'admin', appid: { label: 'Sales' } }], ['account', 'contact']);
    expect(p.permissions).toEqual({ account: 13107, contact: 13107, [METADATA_ENTITY]: 13107 });
    expect(METADATA_ENTITY).toBe('inu_metadata');
    expect(p.apps).toEqual(['Customize', 'Sales']);
    expect(p.apps).toContain(CUSTOMIZE_APP);
    expect(p.needsTeams).toBe(false);
  });

  it('the admin role ignores its stored document; only the exact name admin is the admin role', () => {
    const admin = effectivePermissions([{ name: 'admin', body: { account: 0 } }], ['account']);
    expect(admin.permissions.account).toBe(FULL_MASK);
    const other = effectivePermissions([{ name: 'Admin', body: { account: 0x0010 } }], ['account']);
    expect(other.permissions).toEqual({ account: 0x0010 });
    expect(other.apps).not.toContain('Customize');
  });

  it('a role document is either a map of entity to mask or { permissions, customOwners }', () => {
    const map = effectivePermissions([{ name: 'sales', body: { account: 0x1111 } }], []);
    expect(map.permissions).toEqual({ account: 0x1111 });
    const rules = effectivePermissions(
      [{ name: 'sales', body: { permissions: { account: 0x0011 }, customOwners: [{ objectName: 'account', operation: 'update', fieldName: 'managerid' }] } }],
      [],
    );
    expect(rules.permissions).toEqual({ account: 0x0011 });
    expect(rules.owners).toEqual([{ objectName: 'account', operation: 'update', fieldName: 'managerid' }]);
  });

  it('several roles keep the highest level per operation, distinct app labels and merged custom owners', () => {
    const p = effectivePermissions(
      [
        { name: 'a', appid: { label: 'Sales' }, body: { account: packMask({ create: 1, read: 3, update: 0, delete: 0 }) } },
        {
          name: 'b',
          appid: { label: 'Sales' },
          body: {
            permissions: { account: packMask({ create: 2, read: 1, update: 1, delete: 0 }), contact: 0x0010 },
            customOwners: [{ objectName: 'contact', operation: 'read', fieldName: 'assigneeid' }],
          },
        },
        { name: 'c', appid: { label: 'Travel' }, body: { permissions: {}, customOwners: [{ objectName: 'contact', operation: 'read', fieldName: 'assigneeid' }] } },
      ],
      [],
    );
    expect(unpackMask(p.permissions.account)).toEqual({ create: 2, read: 3, update: 1, delete: 0 });
    expect(p.permissions.contact).toBe(0x0010);
    expect(p.apps).toEqual(['Sales', 'Travel']);
    expect(p.owners).toEqual([{ objectName: 'contact', operation: 'read', fieldName: 'assigneeid' }]);
  });

  it('team memberships are needed when any role grants business-unit level (2)', () => {
    expect(effectivePermissions([{ name: 'a', body: { account: 0x0010 } }], []).needsTeams).toBe(false);
    expect(effectivePermissions([{ name: 'a', body: { account: 0x0020 } }], []).needsTeams).toBe(true);
    // Another role's organization level does not change that a role grants business-unit level.
    expect(effectivePermissions([{ name: 'a', body: { account: 0x0020 } }, { name: 'b', body: { account: 0x0030 } }], []).needsTeams).toBe(true);
  });

  it('no role means no permission', () => {
    expect(effectivePermissions([], ['account'])).toEqual(NO_PERMISSIONS);
  });

  it('the merge is commutative', () => {
    fc.assert(
      fc.property(perms, perms, (a, b) => {
        expect(mergePermissions(a, b)).toEqual(mergePermissions(b, a));
      }),
    );
  });

  it('the merge is associative', () => {
    fc.assert(
      fc.property(perms, perms, perms, (a, b, c) => {
        expect(mergePermissions(mergePermissions(a, b), c)).toEqual(mergePermissions(a, mergePermissions(b, c)));
      }),
    );
  });

  it('the merge is idempotent and has no permission as its identity', () => {
    fc.assert(
      fc.property(perms, (a) => {
        expect(mergePermissions(a, a)).toEqual(a);
        expect(mergePermissions(a, NO_PERMISSIONS)).toEqual(a);
      }),
    );
  });

  it('the merge never lowers a level, and each level is the highest of the roles', () => {
    fc.assert(
      fc.property(fc.array(role, { maxLength: 4 }), (roles) => {
        const merged = effectivePermissions(roles, ['account', 'contact']);
        const singles = roles.map((r) => effectivePermissions([r], ['account', 'contact']));
        for (const e of [...ENTITIES, METADATA_ENTITY]) {
          for (const op of OPERATIONS) {
            const highest = Math.max(0, ...singles.map((s) => levelOf(s, e, op)));
            expect(levelOf(merged, e, op)).toBe(highest);
          }
        }
      }),
    );
  });

  it('the order of the roles does not matter', () => {
    fc.assert(
      fc.property(fc.array(role, { maxLength: 4 }), (roles) => {
        expect(effectivePermissions([...roles].reverse(), ['account'])).toEqual(effectivePermissions(roles, ['account']));
      }),
    );
  });
});

describe('role documents at the edge', () => {
  it('decodes JSON text of either shape, with custom-owner operations by name or by index 0 to 3', () => {
    const r = parseRoleDocument('{"permissions":{"account":17},"customOwners":[{"objectName":"account","operation":2,"fieldName":"managerid"}]}');
    expect(isRight(r) && r.right).toEqual({ permissions: { account: 17 }, customOwners: [{ objectName: 'account', operation: 'update', fieldName: 'managerid' }] });
    const m = parseRoleDocument({ account: 13107 });
    expect(isRight(m) && m.right).toEqual({ account: 13107 });
  });

  it('rejects a document that is neither shape, naming the problem', () => {
    const r = parseRoleDocument('{"account":"all"}');
    expect(r._tag).toBe('Left');
    expect(r._tag === 'Left' && r.left.message).toMatch(/^Invalid role document/);
    expect(parseRoleDocument('not json')._tag).toBe('Left');
  });
});
