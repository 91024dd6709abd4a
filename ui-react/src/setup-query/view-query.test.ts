import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InuViewRecord, ListView } from '../core.js';
import { storedViewRecord, viewBodyWithQuery, viewQueryRequest, viewWrite } from './view-query.js';

const body: ListView = { query: { name: 'account', orders: [{ attribute: 'name' }] }, columns: [{ name: 'name' }], pageSize: 25, allowedModes: ['list', 'map'] };

describe("a list view's query in the Setup Query dialog (issue 15)", () => {
  it('the request is the body query with its page size; saving it back keeps the rest of the body', () => {
    expect(viewQueryRequest(body)).toEqual({ entity: body.query, pageSize: 25 });
    const saved = viewBodyWithQuery(body, { entity: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } }, orders: [{ attribute: 'createdon', descending: true }] });
    expect(saved).toEqual({
      query: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] }, orders: [{ attribute: 'createdon', descending: true }] },
      columns: [{ name: 'name' }],
      allowedModes: ['list', 'map'],
    });
  });

  it('property: saving the unchanged request gives the body back', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }), fc.boolean(), (pageSize, ordered) => {
        const b: ListView = { query: { name: 'x', ...(ordered ? { orders: [{ attribute: 'name' }] } : {}) }, columns: [{ name: 'name' }], ...(pageSize === undefined ? {} : { pageSize }) };
        expect(viewBodyWithQuery(b, viewQueryRequest(b))).toEqual(b);
      }),
    );
  });

  it('spec 000 section 3: a stored view is updated by id, a generated one is created for everyone', () => {
    const gui: InuViewRecord[] = [
      { id: 'v1', name: 'active', kind: 'view', objectname: 'account', body: '{}' },
      { id: 'f1', name: 'active', kind: 'form', objectname: 'account', body: '{}' },
    ];
    const rec = storedViewRecord(gui, 'account', 'active');
    expect(rec?.id).toBe('v1');
    expect(viewWrite(rec, 'account', 'active', body)).toEqual({ operation: 'update', fields: { id: 'v1', body: JSON.stringify(body) } });
    expect(storedViewRecord(gui, 'account', 'default')).toBeUndefined();
    expect(viewWrite(undefined, 'account', 'default', body).operation).toBe('create');
    expect(viewWrite(undefined, 'account', 'default', body).fields).toMatchObject({ name: 'default', kind: 'view', objectname: 'account', isprivate: false });
  });
});
