import { describe, expect, it } from 'vitest';
import type { Entity } from '../metadata/entity.js';
import { MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM, MAP_PAGE_SIZE, mapFieldsOf, mapRequest, markerOf } from './map-markers.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'address1_latitude', displayName: 'Latitude', type: 'Float' },
    { logicalName: 'address1_longitude', displayName: 'Longitude', type: 'Float' },
    { logicalName: 'city', displayName: 'City', type: 'String' },
  ],
};
const fields = { lat: 'address1_latitude', lon: 'address1_longitude' };

describe('map view (spec 001 section 2, view mode 1; issue 14)', () => {
  it('the default centre is 48.392898, 17.60524 at zoom 11', () => {
    expect([MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM]).toEqual([{ lat: 48.392898, lon: 17.60524 }, 11]);
  });

  it("the coordinates are the view's latitudeField and longitudeField, numbers of the entity", () => {
    expect(mapFieldsOf(account, { latitudeField: 'address1_latitude', longitudeField: 'address1_longitude' })).toEqual({ _tag: 'Fields', ...fields });
    expect(mapFieldsOf(account, { latitudeField: 'city', longitudeField: 'address1_longitude' })).toEqual({ _tag: 'MissingField', field: 'city' });
    expect(mapFieldsOf(account, undefined)).toEqual({ _tag: 'MissingField', field: 'latitude' });
  });

  it("the markers' fetch is the list's fetch with both coordinates not null, the first 1000 with the count", () => {
    const list = { entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'statecode', operator: 'eq' as const, value: 0 }] } }, page: 3, pageSize: 50 };
    const r = mapRequest(list, account, fields);
    expect(r.entity.filter).toEqual({
      type: 'and',
      filters: [list.entity.filter, { type: 'and', conditions: [{ attribute: 'address1_latitude', operator: 'not-null' }, { attribute: 'address1_longitude', operator: 'not-null' }] }],
    });
    expect(r.entity.attributes?.map((a) => a.attribute)).toEqual(['name', 'id', 'address1_latitude', 'address1_longitude']);
    expect([r.page, r.pageSize, r.count]).toEqual([1, MAP_PAGE_SIZE, true]);
  });

  it('a record becomes a marker only with coordinates on the globe (0, 0 is an unset pair)', () => {
    expect(markerOf({ id: 'a', address1_latitude: 48.1, address1_longitude: 17.2 }, account, fields)).toMatchObject({ id: 'a', lat: 48.1, lon: 17.2 });
    expect(markerOf({ id: 'a', address1_latitude: '48.1', address1_longitude: '17.2' }, account, fields)).toMatchObject({ lat: 48.1, lon: 17.2 });
    expect(markerOf({ id: 'a', address1_latitude: null, address1_longitude: 17 }, account, fields)).toBeNull();
    expect(markerOf({ id: 'a', address1_latitude: 91, address1_longitude: 17 }, account, fields)).toBeNull();
    expect(markerOf({ id: 'a', address1_latitude: 0, address1_longitude: 0 }, account, fields)).toBeNull();
  });
});
