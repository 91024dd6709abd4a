import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { checkSetupQuery, FETCH_FILE_NAME, setupQueryText } from './setup-query.js';
import type { FetchRequest } from './query.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
  ],
};
const systemuser: Entity = {
  logicalName: 'systemuser',
  displayName: 'User',
  displayNamePlural: 'Users',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
  ],
};
const entities: Record<string, Entity> = { account, systemuser };
const lookup = (n: string) => entities[n];
const check = (q: unknown, o = {}) => checkSetupQuery(typeof q === 'string' ? q : JSON.stringify(q), lookup, o);

describe('Setup Query: the text is checked with the query engine, and each problem names its path (issue 15)', () => {
  it('spec 002 section 2: text that is not JSON is a JSON problem with the line and column where the parser stopped', () => {
    const r = check('{\n  "entity": { "name": "account", }\n}');
    expect(r._tag).toBe('Json');
    if (r._tag === 'Json') expect(r.line).toBe(2);
  });

  it('a query the codec refuses names the path of the part: entity.filter.conditions[0].operator', () => {
    const r = check({ entity: { name: 'account', filter: { conditions: [{ attribute: 'name', operator: 'equals', value: 'x' }] } } });
    expect(r).toMatchObject({ _tag: 'Invalid', path: 'entity.filter.conditions[0].operator' });
  });

  it("an unknown field is the engine's 'Field not found' at the path of the condition's attribute", () => {
    const r = check({ entity: { name: 'account', filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'a%' }, { attribute: 'nope', operator: 'eq', value: 1 }] } } });
    expect(r).toEqual({ _tag: 'Invalid', path: 'entity.filter.conditions[1].attribute', message: 'Field not found:account.nope' });
  });

  it('an unknown entity, a bad value, a bad link, a bad order and a bad attribute are each placed', () => {
    expect(check({ entity: { name: 'nothing' } })).toMatchObject({ path: 'entity.name', message: 'No Object:nothing' });
    expect(check({ entity: { name: 'account', filter: { filters: [{ conditions: [{ attribute: 'revenue', operator: 'gt', value: 'lots' }] }] } } })).toMatchObject({
      path: 'entity.filter.filters[0].conditions[0].value',
    });
    expect(check({ entity: { name: 'account', links: [{ name: 'systemuser', from: 'ownerid', to: 'nope' }] } })).toMatchObject({ path: 'entity.links[0].to' });
    expect(check({ entity: { name: 'account', links: [{ name: 'systemuser', from: 'ownerid', to: 'id', filter: { conditions: [{ attribute: 'x', operator: 'null' }] } }] } })).toMatchObject({
      path: 'entity.links[0].filter.conditions[0].attribute',
    });
    expect(check({ entity: { name: 'account', orders: [{ attribute: 'name' }, { attribute: 'zzz' }] } })).toMatchObject({ path: 'entity.orders[1]' });
    expect(check({ entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'zzz' }] } })).toMatchObject({ path: 'entity.attributes[1]' });
    expect(check({ entity: { name: 'account' }, page: 0 })).toMatchObject({ path: 'page' });
  });

  it('the query stays on the entity it was opened for', () => {
    expect(check({ entity: { name: 'systemuser' } }, { entity: 'account' })).toMatchObject({ _tag: 'Invalid', path: 'entity.name' });
    expect(check({ entity: { name: 'account' } }, { entity: 'account' })._tag).toBe('Valid');
  });

  it('{{placeholders}} check with their values, and one without a value as empty (the operator becomes null)', () => {
    const q = { entity: { name: 'account', filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] } } };
    expect(check(q)._tag).toBe('Valid');
    expect(check(q, { placeholders: { userid: '5f0c8a2e-2b7c-4c1f-9a53-0d8c1c7e6b11' } })._tag).toBe('Valid');
    expect(check(q, { placeholders: { userid: 'not-an-id' } })).toMatchObject({ _tag: 'Invalid', path: 'entity.filter.conditions[0].value' });
  });

  it('a valid query comes back as written (placeholders kept), and its text is what fetch.json holds', () => {
    const q: FetchRequest = { entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] } }, pageSize: 10 };
    const r = check(setupQueryText(q));
    expect(r).toEqual({ _tag: 'Valid', request: q });
    expect(FETCH_FILE_NAME).toBe('fetch.json');
  });

  it('property: the text of a valid query checks back to the same query', () => {
    fc.assert(
      fc.property(fc.subarray(['id', 'name', 'revenue', 'ownerid']), fc.integer({ min: 1, max: 5000 }), fc.boolean(), (attrs, pageSize, count) => {
        const q: FetchRequest = { entity: { name: 'account', attributes: attrs.map((attribute) => ({ attribute })) }, pageSize, count };
        expect(check(setupQueryText(q))).toEqual({ _tag: 'Valid', request: q });
      }),
    );
  });

  it('property: any text gives one of the three answers and never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => ['Json', 'Invalid', 'Valid'].includes(checkSetupQuery(text, lookup)._tag)));
  });

  it('the trace costs nothing when not asked: validateQuery answers as before', async () => {
    const { validateQuery } = await import('./validate-query.js');
    expect(isRight(validateQuery({ entity: { name: 'account' } }, lookup))).toBe(true);
  });
});
