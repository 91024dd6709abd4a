import { describe, expect, it } from 'vitest';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import type { Entity } from './entity.js';
import { metadataSet, metaDictOf, type MetadataSet } from './metadata-set.js';
import { packsMetadataSet } from './pack.js';

const set = (): MetadataSet => {
  const s = packsMetadataSet(builtInPacks());
  if (isLeft(s)) throw new Error(s.left.message);
  return s.right;
};
const message = (r: Either<{ message: string }, unknown>): string => (isLeft(r) ? r.left.message : 'found');

describe('the metadata set (spec 000 and 001 section 8 texts)', () => {
  it("an unknown entity is 'No Object:{name}'", () => {
    expect(message(set().entity('spaceship'))).toBe('No Object:spaceship');
    expect(message(set().property('spaceship', 'name'))).toBe('No Object:spaceship');
  });

  it("an unknown field is 'Field not found:{entity}.{field}'", () => {
    expect(message(set().property('account', 'colour'))).toBe('Field not found:account.colour');
  });

  it('known entities and fields are found, system fields included', () => {
    expect(isRight(set().entity('account'))).toBe(true);
    expect(isRight(set().property('account', 'versionnumber'))).toBe(true);
    expect(set().has('systemuser')).toBe(true);
  });

  it('entity names and property names must be unique', () => {
    const e: Entity = { logicalName: 'a', displayName: 'A', displayNamePlural: 'As', properties: [] };
    expect(message(metadataSet([e, e]))).toBe('Entity a is defined twice');
    const p = { logicalName: 'x', displayName: 'X', type: 'String' as const };
    expect(message(metadataSet([{ ...e, properties: [p, p] }]))).toBe('Field a.x is defined twice');
  });

  it('associated lists: each entity with a lookup to this one, by lookup field', () => {
    const lists = set().associatedLists('account');
    expect(lists).toEqual(
      expect.arrayContaining([
        { entity: 'account', field: 'parentaccountid' },
        { entity: 'contact', field: 'parentcustomerid' },
        { entity: 'opportunity', field: 'customerid' },
        { entity: 'equipment', field: 'accountid' },
        { entity: 'workorder', field: 'customerid' },
        { entity: 'invoice', field: 'customerid' },
      ]),
    );
    expect(lists).toHaveLength(6);
  });

  it('an entity with two lookups to the same target gives two associated lists', () => {
    expect(set().associatedLists('route_location')).toEqual([
      { entity: 'systemuser', field: 'home_location' },
      { entity: 'route_route', field: 'start_locationid' },
      { entity: 'route_route', field: 'end_locationid' },
    ]);
  });

  it('the audit lookups and the generic ownerid, teamid, currencyid do not make associated lists; link entities do', () => {
    const user = set().associatedLists('systemuser');
    expect(user.some((l) => l.field === 'createdby' || l.field === 'modifiedby' || l.field === 'ownerid')).toBe(false);
    expect(user).toEqual(
      expect.arrayContaining([
        { entity: 'systemuserroles', field: 'systemuserid' },
        { entity: 'teammembership', field: 'systemuserid' },
      ]),
    );
    expect(set().associatedLists('team')).toEqual([{ entity: 'teammembership', field: 'teamid' }]);
    expect(set().associatedLists('currency')).toEqual([]);
  });

  it('metaDictOf maps logical names to entities', () => {
    const dict = metaDictOf(set());
    expect(dict.account.logicalName).toBe('account');
    expect(Object.keys(dict)).toHaveLength(set().entities.length);
  });
});
