import { describe, expect, it, vi } from 'vitest';

// The lookup reads the session's views and formats with the current language: browser state, stubbed here.
vi.mock('../state/session.js', () => ({ session: { value: null }, entityOf: () => undefined, guiObjects: () => [], parsedBody: () => undefined }));
vi.mock('../i18n.js', () => ({ language: { value: 'en' }, t: (key: string) => key }));

import type { Entity } from '../core.js';
import { InMemoryRecordStore, SYSTEM_USER_ID } from '../core.js';
import { fullCaller } from '../testing/store-client.js';
import type { NamedView } from '../list/list-query.js';
import { hitOf, lookupColumns, lookupRequest, selfExclusion } from './lookup-search.js';

const prop = (logicalName: string, type: Entity['properties'][number]['type'] = 'String', extra = {}) => ({ logicalName, displayName: logicalName, type, ...extra });
const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [prop('id', 'Guid'), prop('name'), prop('accountnumber'), prop('industry', 'Integer'), prop('address1_city'), prop('ownerid', 'Lookup', { targets: ['systemuser'] }), prop('versionnumber', 'VersionNumber')],
};
const view = (name: string, columns: string[]): NamedView => ({ name, label: name, body: { query: { name: 'account' }, columns: columns.map((c) => ({ name: c })) } });

describe('lookup search (issue 23 item 8: namesakes told apart, no record as its own parent)', () => {
  it("the secondary columns are those of the target's lookup view, after name", () => {
    expect(lookupColumns(account, [view('active', ['name', 'industry']), view('lookup', ['name', 'accountnumber', 'address1_city', 'nosuchfield'])])).toEqual(['accountnumber', 'address1_city']);
  });

  it('without a lookup view: where the record is (its city) and whose it is (its owner)', () => {
    expect(lookupColumns(account, [view('active', ['name', 'accountnumber', 'industry'])])).toEqual(['address1_city', 'ownerid']);
  });

  it('without a city or an owner: the next columns of the first list view', () => {
    const product: Entity = { ...account, logicalName: 'product', properties: account.properties.filter((p) => !['address1_city', 'ownerid'].includes(p.logicalName)) };
    expect(lookupColumns(product, [view('active', ['name', 'accountnumber', 'modifiedon', 'industry', 'id'])])).toEqual(['accountnumber', 'industry']);
    expect(lookupColumns(product, [])).toEqual([]);
  });

  it('a lookup to its own entity leaves out the record itself; another entity or a new record leaves out nothing', () => {
    expect(selfExclusion('account', { entity: 'account', id: 'a1' })).toBe('a1');
    expect(selfExclusion('contact', { entity: 'account', id: 'a1' })).toBeUndefined();
    expect(selfExclusion('account', { entity: 'account', id: '0' })).toBeUndefined();
    expect(selfExclusion('account', { entity: 'account' })).toBeUndefined();
    expect(selfExclusion('account', undefined)).toBeUndefined();
  });

  it('the search is starts-with on name (spec 001 section 9), reads the secondary columns and never answers the excluded record', async () => {
    let n = 0;
    const store = new InMemoryRecordStore((name) => (name === 'account' ? account : undefined), { now: () => new Date('2026-11-24T10:00:00Z') }, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const caller = fullCaller(SYSTEM_USER_ID, ['account']);
    const ids: string[] = [];
    for (const [name, city] of [['Alpine Works', 'Brno'], ['Alpine Works', 'Graz'], ['Alpine Works', 'Linz'], ['Beta', 'Wien']]) {
      const r = await store.create(caller, 'account', { name, address1_city: city });
      if (r._tag === 'Right') ids.push(r.right);
    }
    const req = lookupRequest('account', 'alpine', ['address1_city', 'ownerid'], ids[0], 10);
    expect(req.entity.attributes?.map((a) => a.attribute)).toEqual(['id', 'name', 'address1_city', 'ownerid']);
    const res = await store.retrieveMultiple(caller, req);
    if (res._tag !== 'Right') throw new Error('query refused');
    const hits = res.right.records.map((r) => hitOf(account, ['address1_city', 'ownerid'], r as Parameters<typeof hitOf>[2], '(Unknown)'));
    expect(hits.map((h) => h.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect(hits.map((h) => h.details?.[0]).sort()).toEqual(['Graz', 'Linz']);
    expect(lookupRequest('account', '50%_', [], undefined, 5).entity.filter?.conditions).toEqual([{ attribute: 'name', operator: 'like', value: '50\\%\\_%' }]);
  });

  it('a hit without a name reads the unnamed text, and the system owner reads System (never a bare id)', () => {
    const h = hitOf(account, ['ownerid'], { id: 'x', name: '', ownerid: { id: SYSTEM_USER_ID, name: 'systemuser', label: null } }, '(Unknown)');
    expect(h).toEqual({ id: 'x', label: '(Unknown)', details: ['LblSystem'] });
  });
});
