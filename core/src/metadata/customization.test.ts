import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { customizationWrites, effectiveViewObjects, type StoredViewObject } from './customization.js';

const base = { kind: 'form' as const, name: 'main', objectname: 'account', body: '{"name":"main","panels":[]}', userId: 'me' };

describe('customize mode saves inu_view records (spec 000 section 3: create without id, else update; private or for everyone)', () => {
  it('private: creates the saver\'s private copy when there is none (with the app of the public one), else updates it', () => {
    const app = { id: 'a1', name: 'inu_app', label: 'Sales' };
    expect(customizationWrites({ ...base, scope: 'private', existing: [{ id: 'p', isprivate: false, appid: app }] })).toEqual([
      { operation: 'create', object: { name: 'main', kind: 'form', objectname: 'account', body: base.body, isprivate: true, appid: app } },
    ]);
    expect(customizationWrites({ ...base, scope: 'private', existing: [{ id: 'p', isprivate: false }, { id: 'm', isprivate: true, ownerid: 'me' }] })).toEqual([
      { operation: 'update', object: { id: 'm', body: base.body } },
    ]);
  });

  it('for everyone: updates the public record, else creates it; the saver\'s private copy goes, others\' stay', () => {
    expect(customizationWrites({ ...base, scope: 'everyone', existing: [] })).toEqual([
      { operation: 'create', object: { name: 'main', kind: 'form', objectname: 'account', body: base.body, isprivate: false } },
    ]);
    expect(
      customizationWrites({ ...base, scope: 'everyone', existing: [{ id: 'o', isprivate: true, ownerid: 'other' }, { id: 'p', isprivate: false }, { id: 'm', isprivate: true, ownerid: 'me' }] }),
    ).toEqual([
      { operation: 'update', object: { id: 'p', body: base.body } },
      { operation: 'delete', object: { id: 'm' } },
    ]);
  });

  it('never writes another user\'s private record, and writes at most one body', () => {
    const stored = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), isprivate: fc.boolean(), ownerid: fc.constantFrom('me', 'other', null) }) as fc.Arbitrary<StoredViewObject>;
    fc.assert(
      fc.property(fc.uniqueArray(stored, { selector: (s) => s.id }), fc.constantFrom('private' as const, 'everyone' as const), (existing, scope) => {
        const writes = customizationWrites({ ...base, scope, existing });
        const others = new Set(existing.filter((e) => e.isprivate && e.ownerid !== 'me').map((e) => e.id));
        for (const w of writes) if (w.operation !== 'create') expect(others.has(w.object.id)).toBe(false);
        expect(writes.filter((w) => w.operation !== 'delete')).toHaveLength(1);
      }),
    );
  });

  it('a private object shadows the public one of the same kind, entity and name', () => {
    const gui = [
      { kind: 'form' as const, name: 'main', objectname: 'account', isprivate: false, id: '1' },
      { kind: 'form' as const, name: 'main', objectname: 'account', isprivate: true, id: '2' },
      { kind: 'form' as const, name: 'main', objectname: 'contact', isprivate: false, id: '3' },
      { kind: 'view' as const, name: 'main', objectname: 'account', isprivate: false, id: '4' },
    ];
    expect(effectiveViewObjects(gui).map((g) => g.id)).toEqual(['2', '3', '4']);
  });
});

describe('customize mode: every open client hears of a saved layout (issue 15)', () => {
  it('an inu_view change goes to every user on the stream, even without read on inu_view (the client then reloads its context)', async () => {
    const { changeVisibleTo } = await import('../services/change-visible-to.js');
    const noRead = { userId: 'u', teams: [], permissions: { permissions: {}, apps: [], owners: [], needsTeams: false } };
    const refused = { retrieveById: async () => ({ _tag: 'Left' as const, left: { _tag: 'NotFound' as const, code: 'ERR_NOT_FOUND' as const, message: 'no' } }) };
    for (const operation of ['create', 'update', 'delete'] as const)
      expect(await changeVisibleTo(refused, noRead, { entity: 'inu_view', id: 'v1', operation, stamp: '2026-11-25T05:00:00.000Z' })).toBe(true);
    expect(await changeVisibleTo(refused, noRead, { entity: 'account', id: 'a1', operation: 'update', stamp: '2026-11-25T05:00:00.000Z' })).toBe(false);
  });
});
