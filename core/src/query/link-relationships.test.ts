import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, Property } from '../metadata/entity.js';
import { FetchRequest } from './query.js';
import { validateQuery } from './validate-query.js';

const id: Property = { logicalName: 'id', displayName: 'Id', type: 'Guid' };
const name: Property = { logicalName: 'name', displayName: 'Name', type: 'String' };
const owner: Property = { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] };
const ent = (logicalName: string, properties: Property[]): Entity => ({ logicalName, displayName: logicalName, displayNamePlural: logicalName, properties });
const systemuser = ent('systemuser', [id, name]);
const account = ent('account', [id, name, owner, { logicalName: 'primarycontactid', displayName: 'Primary', type: 'Lookup', targets: ['contact'] }]);
const contact = ent('contact', [id, name, owner, { logicalName: 'parentcustomerid', displayName: 'Account', type: 'Lookup', targets: ['account'] }, { logicalName: 'buddy', displayName: 'Buddy', type: 'Guid' }]);
const set = new Map([systemuser, account, contact].map((e) => [e.logicalName, e]));
const lookup = (n: string) => set.get(n);

const linkOf = (from: string, to: string, name = 'account') => ({ entity: { name: 'contact', links: [{ name, from, to, alias: 'a' }] } });

describe('links follow relationships only, as the metadata declares them (issue 22 item 1)', () => {
  it("the probe's cartesian link (contact.ownerid to account.ownerid) is ERR_INPUT naming the link", () => {
    // The exact body of the issue: it counted 405,363,320 rows in 11 s.
    const body = JSON.parse(
      '{"entity":{"name":"contact","attributes":[{"attribute":"name"}],"links":[{"name":"account","from":"ownerid","to":"ownerid","alias":"a","type":"inner","attributes":[{"attribute":"name"}]}]},"pageSize":1,"count":true}',
    );
    const decoded = FetchRequest.decode(body);
    if (isLeft(decoded)) throw new Error('the probe decodes');
    const r = validateQuery(decoded.right, lookup);
    expect(isLeft(r) && r.left).toMatchObject({ code: 'ERR_INPUT' });
    expect(isLeft(r) && r.left.message).toMatch(/^Link a does not follow a relationship: contact\.ownerid to account\.ownerid/);
  });

  it("a lookup to its target's key (many to one) and a key to a child's lookup (one to many) are links", () => {
    expect(isRight(validateQuery(linkOf('parentcustomerid', 'id'), lookup))).toBe(true);
    expect(isRight(validateQuery(linkOf('ownerid', 'id', 'systemuser'), lookup))).toBe(true);
    expect(isRight(validateQuery({ entity: { name: 'account', links: [{ name: 'contact', from: 'id', to: 'parentcustomerid' }] } }, lookup))).toBe(true);
    // a record joined to itself adds at most one row
    expect(isRight(validateQuery({ entity: { name: 'contact', links: [{ name: 'contact', from: 'id', to: 'id', alias: 'me' }] } }, lookup))).toBe(true);
  });

  it('anything else is ERR_INPUT: a lookup to another entity than its target, a lookup to a lookup, a key to a key, a plain Guid field', () => {
    const refused = [
      linkOf('parentcustomerid', 'primarycontactid'), // lookup to a lookup
      linkOf('ownerid', 'id'), // ownerid targets systemuser, not account
      linkOf('id', 'id'), // contact key to account key
      linkOf('buddy', 'id'), // a Guid field declares no relationship
    ];
    for (const q of refused) {
      const r = validateQuery(q, lookup);
      expect(isLeft(r) && r.left.message, JSON.stringify(q)).toMatch(/^Link a does not follow a relationship/);
    }
    // contact.id to account.primarycontactid: the account's lookup targets contact, so this one is a relationship
    expect(isRight(validateQuery(linkOf('id', 'primarycontactid'), lookup))).toBe(true);
  });
});
