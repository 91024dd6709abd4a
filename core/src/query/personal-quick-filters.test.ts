import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity } from '../metadata/entity.js';
import type { QuickFilter } from '../metadata/view.js';
import {
  addPersonalFilter,
  decodePersonalFilters,
  encodePersonalFilters,
  filterableColumns,
  personalFiltersKey,
  quickFilterForProperty,
  removePersonalFilter,
} from './personal-quick-filters.js';

const entity: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'industry', displayName: 'Industry', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Retail' }] },
    { logicalName: 'languages', displayName: 'Languages', type: 'Integer', flags: ['OptionSet', 'MultiSelect'], options: [{ value: 0, label: 'English' }] },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'established', displayName: 'Established', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'parentaccountid', displayName: 'Parent', type: 'Lookup', targets: ['account'] },
    { logicalName: 'logo', displayName: 'Logo', type: 'String', flags: ['Image'] },
    { logicalName: 'donotemail', displayName: 'Do not email', type: 'Boolean' },
  ],
};
const prop = (n: string) => entity.properties.find((p) => p.logicalName === n)!;

describe('personal quick filters (spec 001 section 2: users add their own, kept per user in the browser)', () => {
  it('a column gets the filter type the field-type registry says its values compare as', () => {
    expect(quickFilterForProperty(prop('name'))?.type).toBe('text');
    expect(quickFilterForProperty(prop('industry'))).toMatchObject({ type: 'options', multiSelect: true });
    expect(quickFilterForProperty(prop('revenue'))?.type).toBe('numericrange');
    expect(quickFilterForProperty(prop('established'))?.type).toBe('date');
    expect(quickFilterForProperty(prop('ownerid'))?.type).toBe('owner');
    expect(quickFilterForProperty(prop('parentaccountid'))).toMatchObject({ type: 'lookup', propertyName: 'parentaccountid', name: 'personal.parentaccountid' });
  });

  it('columns a filter cannot compare get none: multi-select bitmaps, images, booleans', () => {
    expect(quickFilterForProperty(prop('languages'))).toBeUndefined();
    expect(quickFilterForProperty(prop('logo'))).toBeUndefined();
    expect(quickFilterForProperty(prop('donotemail'))).toBeUndefined();
  });

  it('a column already filtered (by the metadata or personally) is not offered again', () => {
    const existing: QuickFilter[] = [{ name: 'search', type: 'text', propertyName: 'name' }, { name: 'owner', type: 'owner' }];
    expect(filterableColumns(entity, ['name', 'industry', 'ownerid', 'logo', 'industry', 'primarycontactid.name'], existing).map((p) => p.logicalName)).toEqual(['industry']);
  });

  it('the storage key names organization, user and entity', () => {
    expect(personalFiltersKey('Demo', 'U-1', 'account')).toBe('tessera.personalFilters.demo.u-1.account');
    expect(personalFiltersKey('demo', 'u-2', 'account')).not.toBe(personalFiltersKey('demo', 'u-1', 'account'));
  });

  it('property: adding keeps the order added, never twice; removing leaves the others in order; the stored text reads back the same', () => {
    const names = ['name', 'industry', 'revenue', 'established', 'ownerid', 'parentaccountid'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.constantFrom(...names)), { maxLength: 20 }), (steps) => {
        let list: QuickFilter[] = [];
        const order: string[] = [];
        for (const [add, n] of steps) {
          const def = quickFilterForProperty(prop(n))!;
          if (add) {
            list = addPersonalFilter(list, def);
            if (!order.includes(def.name)) order.push(def.name);
          } else {
            list = removePersonalFilter(list, def.name);
            order.splice(order.indexOf(def.name) >>> 0, order.includes(def.name) ? 1 : 0);
          }
        }
        expect(list.map((d) => d.name)).toEqual(order);
        expect(decodePersonalFilters(encodePersonalFilters(list), entity)).toEqual(list);
      }),
    );
  });

  it('stored text that is not a list of this entity filters is read as nothing or left out', () => {
    expect(decodePersonalFilters(null, entity)).toEqual([]);
    expect(decodePersonalFilters('{oops', entity)).toEqual([]);
    expect(decodePersonalFilters('{"a":1}', entity)).toEqual([]);
    const stored = JSON.stringify([
      { name: 'personal.gone', type: 'text', propertyName: 'gone' },
      { name: 'search', type: 'text', propertyName: 'name' },
      { name: 'personal.revenue', type: 'bogus', propertyName: 'revenue' },
      { name: 'personal.name', type: 'text', propertyName: 'name' },
      { name: 'personal.name', type: 'text', propertyName: 'name' },
    ]);
    expect(decodePersonalFilters(stored, entity)).toEqual([{ name: 'personal.name', type: 'text', propertyName: 'name' }]);
  });
});
