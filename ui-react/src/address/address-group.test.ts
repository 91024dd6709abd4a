import { describe, expect, it } from 'vitest';
import type { Entity } from '../core.js';
import { addressChanges, addressGroupOf, addressValuesOf } from './address-group.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: ['id', 'name', 'address1_street', 'address1_city', 'address1_zip', 'address1_country', 'address1_latitude', 'address1_longitude'].map((n) => ({
    logicalName: n,
    displayName: n,
    type: n.endsWith('itude') ? ('Float' as const) : ('String' as const),
  })),
};

describe('the address fields of a form panel (spec 001 "Address fields")', () => {
  it('a panel with {prefix}latitude finds street, city, zip, country and longitude of the same prefix', () => {
    expect(addressGroupOf(account, ['address1_street', 'address1_city', 'address1_latitude'])).toEqual({
      street: 'address1_street',
      city: 'address1_city',
      zip: 'address1_zip',
      country: 'address1_country',
      latitude: 'address1_latitude',
      longitude: 'address1_longitude',
    });
    expect(addressGroupOf(account, ['name', 'address1_city'])).toBeNull();
  });

  it('the dialog reads the record and hands back only the changed fields (an emptied text is null)', () => {
    const g = addressGroupOf(account, ['address1_latitude'])!;
    const before = addressValuesOf(g, { address1_street: 'Hlavná 1', address1_city: 'Trnava', address1_latitude: 48.1, address1_longitude: null });
    expect(before).toEqual({ street: 'Hlavná 1', city: 'Trnava', zip: '', country: '', latitude: 48.1, longitude: null });
    expect(addressChanges(g, before, { ...before, street: '', latitude: 48.2, longitude: 17.5 })).toEqual([
      ['address1_street', null],
      ['address1_latitude', 48.2],
      ['address1_longitude', 17.5],
    ]);
  });
});
