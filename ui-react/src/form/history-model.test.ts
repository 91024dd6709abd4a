import { describe, expect, it } from 'vitest';
import type { Entity } from '../core.js';
import { changesOf, historyEntries, historyRequest, lookupsToName, OPERATION_DELETE, OPERATION_UPDATE, withLabel } from './history-model.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'name', displayName: 'Account Name', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'primarycontactid', displayName: 'Primary Contact', type: 'Lookup', targets: ['contact'] },
    { logicalName: 'passwordhash', displayName: 'Password', type: 'String', secret: true },
  ],
};

describe('History panel model (issue 23 item 6: who, when, what changed)', () => {
  it('reads an update body { field: { old, new } } as field labels with old and new values, in the form order', () => {
    const body = JSON.stringify({ revenue: { old: 1000, new: 1200 }, name: { old: 'Acme', new: 'Acme Ltd' }, passwordhash: { secret: true } });
    expect(changesOf(account, OPERATION_UPDATE, body)).toEqual([
      { field: 'name', label: 'Account Name', property: account.properties[0], secret: false, old: 'Acme', new: 'Acme Ltd' },
      { field: 'revenue', label: 'Revenue', property: account.properties[1], secret: false, old: 1000, new: 1200 },
      { field: 'passwordhash', label: 'Password', property: account.properties[3], secret: true },
    ]);
  });

  it('lists no changes for a delete row (its body is the record kept for undo-delete) or an unreadable body', () => {
    expect(changesOf(account, OPERATION_DELETE, JSON.stringify({ id: 'x', name: 'Acme' }))).toEqual([]);
    expect(changesOf(account, OPERATION_UPDATE, '{not json')).toEqual([]);
    expect(changesOf(account, OPERATION_UPDATE, null)).toEqual([]);
  });

  it('asks for the lookup names the entries show, so that no bare id is shown', () => {
    const c1 = 'c0000000-0000-4000-8000-000000000001';
    const c2 = 'c0000000-0000-4000-8000-000000000002';
    const entries = historyEntries(account, [
      { id: 'a1', operation: OPERATION_UPDATE, createdon: '2026-01-01T10:00:00.000Z', createdby: { id: 'u', name: 'systemuser', label: 'Eva' }, body: JSON.stringify({ primarycontactid: { old: { id: c1, name: 'contact' }, new: { id: c2, name: 'contact' } } }) },
    ]);
    expect(entries[0]).toMatchObject({ operation: OPERATION_UPDATE, who: { label: 'Eva' }, when: '2026-01-01T10:00:00.000Z' });
    expect(lookupsToName(entries)).toEqual(new Map([['contact', new Set([c1, c2])]]));
    expect(withLabel({ id: c1, name: 'contact' }, new Map([[`contact:${c1}`, 'Jana']]))).toEqual({ id: c1, name: 'contact', label: 'Jana' });
  });

  it("asks for the record's own audit rows, newest first, a page at a time", () => {
    const r = historyRequest('account', 'a1', 2);
    expect(r.entity.filter.conditions).toEqual([
      { attribute: 'logicalname', operator: 'eq', value: 'account' },
      { attribute: 'objectid', operator: 'eq', value: 'a1' },
    ]);
    expect(r.entity.orders).toEqual([{ attribute: 'createdon', descending: true }]);
    expect(r.page).toBe(2);
  });
});
