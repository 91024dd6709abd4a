import { describe, expect, it } from 'vitest';
import { left } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import type { FetchRequest } from '../query/query.js';
import { exportRequest } from './export-request.js';
import { importableEntity } from './importable-entity.js';

const account: Entity = { logicalName: 'account', displayName: 'Account', displayNamePlural: 'Accounts', properties: [] };
const link: Entity = { logicalName: 'systemuserroles', displayName: 'User role', displayNamePlural: 'User roles', type: 'many', properties: [] };
const keyed: Entity = { ...account, logicalName: 'inu_code', primaryKeyName: 'inu_codeid' };

describe('spec 002 section 5: link entities cannot be imported', () => {
  it('a link entity is refused with the text both the HTTP import and `tessera import` show', () => {
    expect(importableEntity([account, link], 'systemuserroles')).toEqual(
      left({ _tag: 'InputError', code: 'ERR_INPUT', message: 'systemuserroles is a link entity and cannot be imported' }),
    );
  });
  it('an unknown entity is No Object:{name}; a normal one is importable', () => {
    expect(importableEntity([account], 'nope')).toEqual(left({ _tag: 'InputError', code: 'ERR_INPUT', message: 'No Object:nope' }));
    expect(importableEntity([account], 'account')).toEqual({ _tag: 'Right', right: account });
  });
});

describe('spec 002 section 2: Export Records: Selected narrows the query to the chosen ids', () => {
  const query: FetchRequest = { entity: { name: 'account', filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'A%' }] } }, pageSize: 10 };

  it('without ids the query is exported as it is', () => {
    expect(exportRequest(account, query)).toBe(query);
  });

  it('with ids: primary key in the ids, and the query\'s own filter still applies', () => {
    expect(exportRequest(keyed, query, ['a', 'b'])).toEqual({
      entity: {
        name: 'account',
        filter: { type: 'and', conditions: [{ attribute: 'inu_codeid', operator: 'in', value: ['a', 'b'] }], filters: [query.entity.filter] },
      },
      pageSize: 10,
    });
  });

  it('with ids and no filter of its own: the ids only', () => {
    const plain: FetchRequest = { entity: { name: 'account' } };
    expect(exportRequest(account, plain, [])).toEqual({ entity: { name: 'account', filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'in', value: [] }], filters: [] } } });
  });
});
