import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, Property } from './entity.js';
import { isSystemField, NAME_MAX_LENGTH, systemFields, withSystemFields } from './system-fields.js';

const ok = <A>(e: Either<{ message: string }, A>): A => {
  if (isLeft(e)) throw new Error(e.left.message);
  return e.right;
};
const names = (e: Entity) => e.properties.map((p) => p.logicalName);
const prop = (e: Entity, n: string) => e.properties.find((p) => p.logicalName === n);
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [{ logicalName: 'revenue', displayName: 'Revenue', type: 'Money' }],
};
const link: Entity = {
  logicalName: 'systemuserroles',
  displayName: 'User Role',
  displayNamePlural: 'User Roles',
  type: 'many',
  properties: [
    { logicalName: 'systemuserid', displayName: 'User', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'roleid', displayName: 'Role', type: 'Lookup', targets: ['inu_role'] },
  ],
};

describe('system fields (spec 000 section 3)', () => {
  it('every non-link entity gets id, name, createdon, createdby, modifiedon, modifiedby, statuscode, statecode and versionnumber', () => {
    const e = ok(withSystemFields(account));
    expect(names(e)).toEqual([
      'id',
      'name',
      'revenue',
      'createdon',
      'createdby',
      'modifiedon',
      'modifiedby',
      'statuscode',
      'statecode',
      'versionnumber',
    ]);
    expect(prop(e, 'id')?.type).toBe('Guid');
    expect(prop(e, 'name')).toMatchObject({ type: 'String', max: NAME_MAX_LENGTH });
    expect(NAME_MAX_LENGTH).toBe(200);
    expect(prop(e, 'createdon')?.type).toBe('DateTime');
    expect(prop(e, 'modifiedon')?.type).toBe('DateTime');
    expect(prop(e, 'createdby')).toMatchObject({ type: 'Lookup', targets: ['systemuser'] });
    expect(prop(e, 'modifiedby')).toMatchObject({ type: 'Lookup', targets: ['systemuser'] });
    expect(prop(e, 'versionnumber')?.type).toBe('VersionNumber');
  });

  it('statuscode is an option of 1 or 2, statecode an option of 0 or 1', () => {
    const e = ok(withSystemFields(account));
    expect(prop(e, 'statuscode')?.flags).toContain('OptionSet');
    expect(prop(e, 'statuscode')?.richOptions?.map((o) => o.value)).toEqual([1, 2]);
    expect(prop(e, 'statecode')?.flags).toContain('OptionSet');
    expect(prop(e, 'statecode')?.richOptions?.map((o) => o.value)).toEqual([0, 1]);
  });

  it('a link entity gets only versionnumber, besides its primary key', () => {
    const e = ok(withSystemFields(link));
    expect(names(e)).toEqual(['id', 'systemuserid', 'roleid', 'versionnumber']);
    expect(systemFields(link).map((p) => p.logicalName)).toEqual(['id', 'versionnumber']);
    expect(isSystemField(link, 'name')).toBe(false);
    expect(isSystemField(link, 'createdon')).toBe(false);
  });

  it('the primary key takes primaryKeyName when one is given', () => {
    const e = ok(withSystemFields({ ...account, primaryKeyName: 'accountid' }));
    expect(names(e).slice(0, 2)).toEqual(['accountid', 'name']);
    expect(prop(e, 'accountid')?.type).toBe('Guid');
  });

  it('applying the rule twice changes nothing (idempotent)', () => {
    const declared = fc.uniqueArray(
      fc.record({
        logicalName: fc.constantFrom('a', 'b', 'c', 'name', 'statuscode', 'createdon', 'id', 'versionnumber', 'owner'),
        displayName: fc.string({ maxLength: 5 }),
      }),
      { selector: (p) => p.logicalName, maxLength: 6 },
    );
    fc.assert(
      fc.property(declared, fc.boolean(), (props, isLink) => {
        const base = isLink ? link : account;
        const sys = new Map(systemFields(base).map((p) => [p.logicalName, p]));
        const properties: Property[] = props.map((p) => ({
          ...(sys.get(p.logicalName) ?? { type: 'String' as const }),
          ...p,
        }));
        const once = ok(withSystemFields({ ...base, properties }));
        expect(ok(withSystemFields(once))).toEqual(once);
        for (const s of systemFields(base)) expect(names(once).filter((n) => n === s.logicalName)).toHaveLength(1);
      }),
    );
  });

  it("declaring a system field again merges: presentation and extra flags are kept, type, targets and max stay the system's", () => {
    const e = ok(
      withSystemFields({
        ...account,
        properties: [
          { logicalName: 'name', displayName: 'Account Name', type: 'String', flags: ['Required'] },
          {
            logicalName: 'statuscode',
            displayName: 'Reason',
            type: 'Integer',
            richOptions: [{ value: 2, label: 'Closed', color: '#000' }],
          },
          ...account.properties,
        ],
      }),
    );
    expect(names(e).filter((n) => n === 'name')).toHaveLength(1);
    expect(prop(e, 'name')).toEqual({
      logicalName: 'name',
      displayName: 'Account Name',
      type: 'String',
      max: 200,
      flags: ['Required'],
    });
    expect(prop(e, 'statuscode')?.richOptions).toEqual([
      { value: 1, label: 'Active', color: '#2e7d32' },
      { value: 2, label: 'Closed', color: '#000' },
    ]);
  });

  it('declaring a system field with another type, targets, max or option value is an error', () => {
    const redeclare = (p: Property) => withSystemFields({ ...account, properties: [p] });
    const message = (r: Either<{ message: string }, unknown>) => (isLeft(r) ? r.left.message : 'no error');
    expect(message(redeclare({ logicalName: 'name', displayName: 'N', type: 'Integer' }))).toBe(
      'System field account.name is String and cannot be declared as Integer',
    );
    expect(message(redeclare({ logicalName: 'createdby', displayName: 'C', type: 'Lookup', targets: ['team'] }))).toBe(
      'System field account.createdby targets systemuser and cannot target team',
    );
    expect(message(redeclare({ logicalName: 'name', displayName: 'N', type: 'String', max: 100 }))).toBe(
      'System field account.name has max 200 and cannot be declared with max 100',
    );
    expect(
      message(
        redeclare({
          logicalName: 'statecode',
          displayName: 'S',
          type: 'Integer',
          richOptions: [{ value: 5, label: 'x' }],
        }),
      ),
    ).toBe('System field account.statecode has no option value 5');
  });
});
