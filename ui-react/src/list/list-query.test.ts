import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity } from '../core.js';
import { parseLikePattern } from '../core.js';
import { listRequest, searchFilter, viewsOf } from './list-query.js';

const contact: Entity = {
  logicalName: 'contact',
  displayName: 'Contact',
  displayNamePlural: 'Contacts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'lastname', displayName: 'Last Name', type: 'String' },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
    { logicalName: 'modifiedon', displayName: 'Modified On', type: 'DateTime' },
  ],
};

describe('list query (spec 001 section 2)', () => {
  it('asks only for attributes the entity has (no currencyid on an entity without currency)', () => {
    const [view] = viewsOf(contact, [], () => undefined);
    const req = listRequest(contact, view, { pageSize: 50 });
    const names = (req.entity.attributes ?? []).map((a) => a.attribute);
    expect(names).toContain('name');
    expect(names).toContain('ownerid');
    expect(names).not.toContain('currencyid');
    expect(req.pageSize).toBe(50);
    expect(req.count).toBe(true);
  });

  it('generates a view with the name first when the entity has no views', () => {
    const [view] = viewsOf(contact, [], () => undefined);
    expect(view.body.columns[0].name).toBe('name');
    expect(view.label).toBe('Contacts');
  });

  it('searches the primary name by contains, with LIKE wildcards in the text taken literally', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''), (text) => {
        const f = searchFilter(contact, text);
        const value = String(f?.conditions?.[0].value);
        expect(f?.conditions?.[0]).toMatchObject({ attribute: 'name', operator: 'like' });
        expect(value.startsWith('%') && value.endsWith('%')).toBe(true);
        // Read back with the core's pattern language: any run, the text itself, any run.
        expect(parseLikePattern(value)).toEqual([{ kind: 'any' }, { kind: 'text', text: text.trim() }, { kind: 'any' }]);
      }),
    );
    expect(searchFilter(contact, '   ')).toBeUndefined();
  });
});
