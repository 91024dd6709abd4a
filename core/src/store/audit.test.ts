import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity } from '../metadata/entity.js';
import { systemCaller } from '../ports/record-store.js';
import { AUDIT_DELETE, AUDIT_UPDATE, auditChanges, auditCreated, auditEntity, auditRow, isAudited } from './audit.js';
import type { StoredRecord, StoredValue } from './record-rules.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'passwordhash', displayName: 'Hash', type: 'String', secret: true },
  ],
};
const ID = 'a0000000-0000-4000-8000-000000000001';

describe('audit body (issue 23 item 6: the changed fields with old and new values)', () => {
  it('an update body is { field: { old, new } } of exactly the written fields, without modifiedon/by and the version', () => {
    const before: StoredRecord = { id: ID, name: 'Acme', revenue: 1000, modifiedon: '2026-01-01T00:00:00.000Z' };
    const changes: StoredRecord = { revenue: 1200, name: null, modifiedon: '2026-01-02T00:00:00.000Z', modifiedby: { id: 'u', name: 'systemuser' } };
    expect(auditChanges(account, before, changes)).toEqual({ revenue: { old: 1000, new: 1200 }, name: { old: 'Acme', new: null } });
  });

  it('a secret field is named without its values', () => {
    expect(auditChanges(account, { passwordhash: 'old-hash' }, { passwordhash: 'new-hash' })).toEqual({ passwordhash: { secret: true } });
  });

  it('a create body lists every field it set with old null, not the key or the empty fields', () => {
    expect(auditCreated(account, { id: ID, name: 'Acme', revenue: null, createdon: '2026-01-01T00:00:00.000Z' })).toEqual({ name: { old: null, new: 'Acme' } });
  });

  it('property: applying an update body to the record before gives the record after, for every written field', () => {
    const value: fc.Arbitrary<StoredValue> = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean());
    const record = fc.dictionary(fc.constantFrom('name', 'revenue', 'a', 'b', 'c'), value);
    fc.assert(
      fc.property(record, record, (before, changes) => {
        const body = auditChanges(account, before, changes);
        const after: StoredRecord = { ...before };
        for (const [k, c] of Object.entries(body)) if (!('secret' in c)) after[k] = c.new;
        expect(after).toEqual({ ...before, ...Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v ?? null])) });
        for (const [k, c] of Object.entries(body)) if (!('secret' in c)) expect(c.old).toEqual(before[k] ?? null);
      }),
    );
  });

  it('the row says who, when, which record and what, as stored values; its name is the record name, else the entity', () => {
    const row = auditRow(auditEntity, { entity: account, id: ID, operation: AUDIT_UPDATE, name: 'Acme', body: { revenue: { old: 1, new: 2 } } }, systemCaller('00000000-0000-4000-8000-00000000000A'), new Date(Date.UTC(2026, 0, 5)), () => 'B0000000-0000-4000-8000-000000000001');
    expect(row).toMatchObject({
      id: 'b0000000-0000-4000-8000-000000000001',
      name: 'Acme',
      logicalname: 'account',
      objectid: ID,
      operation: AUDIT_UPDATE,
      body: '{"revenue":{"old":1,"new":2}}',
      createdon: '2026-01-05T00:00:00.000Z',
      createdby: { id: '00000000-0000-4000-8000-00000000000a', name: 'systemuser' },
      versionnumber: 1,
      statuscode: 1,
      statecode: 0,
    });
    expect(auditRow(auditEntity, { entity: account, id: ID, operation: AUDIT_DELETE, name: null, body: {} }, systemCaller(), new Date(0), () => ID).name).toBe('account');
  });

  it('audit is on unless the entity says audit: false, and never for the audit entity itself', () => {
    expect(isAudited(account)).toBe(true);
    expect(isAudited({ ...account, audit: false })).toBe(false);
    expect(isAudited(auditEntity)).toBe(false);
  });
});
