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
