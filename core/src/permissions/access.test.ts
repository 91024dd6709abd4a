import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EntityRecord } from '../metadata/entity.js';
import { canAccess, inReadScope, readScope } from './access.js';
import { FULL_MASK, packMask, uniformLevels } from './mask.js';
import { effectivePermissions, type Role } from './roles.js';
import { OPERATIONS, type Caller, type CustomOwner, type Level, type Levels, type Operation } from './types.js';

const caller = (levels: Partial<Record<string, Levels>>, teams: string[] = [], owners: CustomOwner[] = []): Caller => ({
  userId: 'u1',
  teams,
  permissions: effectivePermissions(
    [{ name: 'r', body: { permissions: Object.fromEntries(Object.entries(levels).map(([e, l]) => [e, packMask(l as Levels)])), customOwners: owners } }],
    [],
  ),
});
const me = { id: 'u1', name: 'systemuser', label: 'Me' };
const other = { id: 'u2', name: 'systemuser', label: 'Other' };

describe('canAccess (spec 000 section 6)', () => {
  it('organization level (3) allows any record', () => {
    const u = caller({ account: uniformLevels(3) });
    for (const op of OPERATIONS) expect(canAccess(u, op, 'account', { id: 'a', ownerid: other, teamid: 't9' })).toBe(true);
  });

  it('business-unit level (2) allows records of one of the user\'s teams, or owned by the user', () => {
    const u = caller({ account: uniformLevels(2) }, ['t1']);
    expect(canAccess(u, 'read', 'account', { id: 'a', ownerid: other, teamid: { id: 't1', name: 'team' } })).toBe(true);
    expect(canAccess(u, 'update', 'account', { id: 'a', ownerid: me, teamid: 't2' })).toBe(true);
    expect(canAccess(u, 'delete', 'account', { id: 'a', ownerid: other, teamid: 't2' })).toBe(false);
  });

  it('owner level (1) allows only records whose ownerid is the user; update and delete need ownership', () => {
    const u = caller({ account: uniformLevels(1) });
    expect(canAccess(u, 'read', 'account', { id: 'a', ownerid: me })).toBe(true);
    expect(canAccess(u, 'update', 'account', { id: 'a', ownerid: other })).toBe(false);
    expect(canAccess(u, 'delete', 'account', { id: 'a', ownerid: other })).toBe(false);
    expect(canAccess(u, 'delete', 'account', { id: 'a', ownerid: 'U1' })).toBe(true);
  });

  it('for systemuser the owner field is the record id: a user owns their own user record', () => {
    const u = caller({ systemuser: uniformLevels(1) });
    expect(canAccess(u, 'update', 'systemuser', { id: 'u1', ownerid: other })).toBe(true);
    expect(canAccess(u, 'update', 'systemuser', { id: 'u2', ownerid: me })).toBe(false);
    expect(canAccess(u, 'create', 'systemuser', { name: 'New colleague' })).toBe(false);
  });

  it('level none (0) denies', () => {
    const u = caller({ account: uniformLevels(0) });
    for (const op of OPERATIONS) expect(canAccess(u, op, 'account', { id: 'a', ownerid: me })).toBe(false);
    expect(canAccess(caller({}), 'read', 'contact', { id: 'c', ownerid: me })).toBe(false);
  });

  it('a custom-owner rule gives a user who lacks a level the owner level over records whose field points at them', () => {
    const rule: CustomOwner = { objectName: 'account', operation: 'update', fieldName: 'managerid' };
    const u = caller({ account: { create: 0, read: 0, update: 0, delete: 0 } }, [], [rule]);
    expect(canAccess(u, 'update', 'account', { id: 'a', ownerid: other, managerid: me })).toBe(true);
    expect(canAccess(u, 'update', 'account', { id: 'a', ownerid: other, managerid: other })).toBe(false);
    // The rule is for update only.
    expect(canAccess(u, 'delete', 'account', { id: 'a', ownerid: other, managerid: me })).toBe(false);
  });

  it('create: owner level creates records owned by the user (no ownerid means the creator), not records owned by someone else', () => {
    const owner = caller({ account: uniformLevels(1) }, ['t1']);
    expect(canAccess(owner, 'create', 'account', { name: 'x' })).toBe(true);
    expect(canAccess(owner, 'create', 'account', { name: 'x', ownerid: me })).toBe(true);
    expect(canAccess(owner, 'create', 'account', { name: 'x', ownerid: other })).toBe(false);
    const team = caller({ account: uniformLevels(2) }, ['t1']);
    expect(canAccess(team, 'create', 'account', { name: 'x', ownerid: other, teamid: 't1' })).toBe(true);
    expect(canAccess(team, 'create', 'account', { name: 'x', ownerid: other, teamid: 't2' })).toBe(false);
    expect(canAccess(caller({ account: uniformLevels(3) }), 'create', 'account', { name: 'x', ownerid: other })).toBe(true);
  });
});

/**
 * The reference table, written straight from spec 000 section 6 (and the custom-owner rule):
 * level, owns the record, record in one of the user's teams, a custom-owner field points at
 * the user -> allowed.
 */
const REFERENCE: readonly [Level, boolean, boolean, boolean, boolean][] = [
  [0, false, false, false, false], [0, false, false, true, true], [0, false, true, false, false], [0, false, true, true, true],
  [0, true, false, false, false], [0, true, false, true, true], [0, true, true, false, false], [0, true, true, true, true],
  [1, false, false, false, false], [1, false, false, true, true], [1, false, true, false, false], [1, false, true, true, true],
  [1, true, false, false, true], [1, true, false, true, true], [1, true, true, false, true], [1, true, true, true, true],
  [2, false, false, false, false], [2, false, false, true, true], [2, false, true, false, true], [2, false, true, true, true],
  [2, true, false, false, true], [2, true, false, true, true], [2, true, true, false, true], [2, true, true, true, true],
  [3, false, false, false, true], [3, false, false, true, true], [3, false, true, false, true], [3, false, true, true, true],
  [3, true, false, false, true], [3, true, false, true, true], [3, true, true, false, true], [3, true, true, true, true],
];
const reference = (level: Level, owns: boolean, team: boolean, custom: boolean): boolean => {
  const row = REFERENCE.find((r) => r[0] === level && r[1] === owns && r[2] === team && r[3] === custom);
  if (!row) throw new Error('reference table incomplete');
  return row[4];
};

const ENTITIES = ['account', 'systemuser'] as const;
const USERS = ['u1', 'u2', 'u3'];
const TEAMS = ['t1', 't2', 't3'];
const lvl = fc.constantFrom<Level>(0, 1, 2, 3);
const maskArb = fc.record({ create: lvl, read: lvl, update: lvl, delete: lvl }).map(packMask);
const ruleArb = fc.record<CustomOwner>({
  objectName: fc.constantFrom(...ENTITIES),
  operation: fc.constantFrom(...OPERATIONS),
  fieldName: fc.constantFrom('managerid', 'assigneeid'),
});
const roleArb: fc.Arbitrary<Role> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Role>({ name: 'admin' }) },
  {
    weight: 6,
    arbitrary: fc.record({
      name: fc.constantFrom('a', 'b'),
      body: fc.record({ permissions: fc.dictionary(fc.constantFrom(...ENTITIES), maskArb), customOwners: fc.array(ruleArb, { maxLength: 2 }) }),
    }),
  },
);
const ref = (ids: string[]) => fc.oneof(fc.constant(undefined), fc.constantFrom(...ids), fc.constantFrom(...ids).map((id) => ({ id, name: 'x', label: id })));
const recordArb: fc.Arbitrary<EntityRecord> = fc.record(
  { id: ref(USERS), ownerid: ref(USERS), teamid: ref(TEAMS), managerid: ref(USERS), assigneeid: ref(USERS) },
  { requiredKeys: [] },
);
const caseArb = fc.record({
  roles: fc.array(roleArb, { maxLength: 3 }),
  teams: fc.subarray(TEAMS),
  record: recordArb,
  operation: fc.constantFrom<Operation>(...OPERATIONS),
  entity: fc.constantFrom(...ENTITIES),
});

const idOf = (v: EntityRecord[string]): string | undefined => (typeof v === 'string' ? v : v && typeof v === 'object' ? v.id : undefined);

describe('canAccess agrees with the specification', () => {
  it('generated (roles, user, record, operation) cases agree with the reference table', () => {
    fc.assert(
      fc.property(caseArb, ({ roles, teams, record, operation, entity }) => {
        const user: Caller = { userId: 'u1', teams, permissions: effectivePermissions(roles, [...ENTITIES]) };
        // Straight from the roles, not through the merge: the highest level any role grants.
        const level = Math.max(
          0,
          ...roles.map((r) => {
            if (r.name === 'admin') return 3;
            const body = r.body as { permissions: Record<string, number> };
            const m = Object.hasOwn(body.permissions, entity) ? body.permissions[entity] : 0;
            return (m >> (4 * OPERATIONS.indexOf(operation))) & 3;
          }),
        ) as Level;
        const ownerField = entity === 'systemuser' ? 'id' : 'ownerid';
        const ownerId = idOf(record[ownerField]);
        const owns = ownerId === 'u1' || (operation === 'create' && entity !== 'systemuser' && ownerId === undefined);
        const inTeam = teams.includes(idOf(record.teamid) ?? '');
        const custom = roles.some(
          (r) =>
            r.name !== 'admin' &&
            ((r.body as { customOwners: CustomOwner[] }).customOwners ?? []).some(
              (o) => o.objectName === entity && o.operation === operation && idOf(record[o.fieldName]) === 'u1',
            ),
        );
        expect(canAccess(user, operation, entity, record)).toBe(reference(level, owns, inTeam, custom));
      }),
      { numRuns: 500 },
    );
  });

  it('no decision grants more than the highest role allows: the merged decision is that of some single role', () => {
    fc.assert(
      fc.property(caseArb, ({ roles, teams, record, operation, entity }) => {
        const merged: Caller = { userId: 'u1', teams, permissions: effectivePermissions(roles, [...ENTITIES]) };
        const single = roles.map((r): Caller => ({ userId: 'u1', teams, permissions: effectivePermissions([r], [...ENTITIES]) }));
        expect(canAccess(merged, operation, entity, record)).toBe(single.some((s) => canAccess(s, operation, entity, record)));
      }),
      { numRuns: 300 },
    );
  });

  it('the read scope holds exactly the records canAccess lets the user read', () => {
    fc.assert(
      fc.property(caseArb, ({ roles, teams, record, entity }) => {
        const user: Caller = { userId: 'u1', teams, permissions: effectivePermissions(roles, [...ENTITIES]) };
        expect(inReadScope(readScope(user, entity), record)).toBe(canAccess(user, 'read', entity, record));
      }),
      { numRuns: 500 },
    );
  });
});

describe('readScope (spec 000 section 6)', () => {
  const rule: CustomOwner = { objectName: 'account', operation: 'read', fieldName: 'managerid' };
  it('organization level reads everything', () => {
    expect(readScope(caller({ account: uniformLevels(3) }), 'account')).toEqual({ kind: 'all' });
    expect(readScope({ userId: 'u1', teams: [], permissions: effectivePermissions([{ name: 'admin' }], ['account']) }, 'account')).toEqual({ kind: 'all' });
  });
  it('business-unit level reads the user\'s teams or own records (own only when the user is in no team)', () => {
    expect(readScope(caller({ account: uniformLevels(2) }, ['t1', 't2'], [rule]), 'account')).toEqual({
      kind: 'team', ownerField: 'ownerid', userId: 'u1', teams: ['t1', 't2'], customOwnerFields: ['managerid'],
    });
    expect(readScope(caller({ account: uniformLevels(2) }), 'account')).toEqual({ kind: 'owner', ownerField: 'ownerid', userId: 'u1', customOwnerFields: [] });
  });
  it('owner level reads own records; for systemuser the owner field is id', () => {
    expect(readScope(caller({ systemuser: uniformLevels(1) }), 'systemuser')).toEqual({ kind: 'owner', ownerField: 'id', userId: 'u1', customOwnerFields: [] });
  });
  it('level none reads only the custom-owner fields, or nothing', () => {
    expect(readScope(caller({}, [], [rule]), 'account')).toEqual({ kind: 'customOwners', userId: 'u1', customOwnerFields: ['managerid'] });
    expect(readScope(caller({ account: { create: 3, read: 0, update: 3, delete: 3 } }), 'account')).toEqual({ kind: 'none' });
    expect(FULL_MASK).toBe(13107);
  });
});
