import type { Entity, EntityRecord, FieldValue } from '../core.js';
import type { AddressValues } from './address-model.js';

/**
 * The address fields of a record (spec 001 "Address fields": street, city, zip, country, latitude,
 * longitude), found by name: `{prefix}latitude` and `{prefix}longitude` among a panel's fields, with
 * `{prefix}city` and optionally `{prefix}street`, `{prefix}zip`, `{prefix}country` of the entity
 * (the demo's address1_*, a user's plain latitude/longitude). No Leaflet here: the form imports it.
 */
export type AddressGroup = { street?: string; city: string; zip?: string; country?: string; latitude: string; longitude: string };

export const addressGroupOf = (entity: Entity, fieldNames: readonly string[]): AddressGroup | null => {
  const has = new Set(entity.properties.map((p) => p.logicalName));
  for (const name of fieldNames) {
    if (!name.endsWith('latitude')) continue;
    const prefix = name.slice(0, -'latitude'.length);
    const of = (part: string) => (has.has(`${prefix}${part}`) ? `${prefix}${part}` : undefined);
    const longitude = of('longitude');
    const city = of('city');
    if (!longitude || !city || !has.has(name)) continue;
    return { latitude: name, longitude, city, street: of('street') ?? of('line1'), zip: of('zip') ?? of('postalcode'), country: of('country') };
  }
  return null;
};

const text = (v: FieldValue | undefined): string => (v === null || v === undefined ? '' : String(v));
const num = (v: FieldValue | undefined): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

export const addressValuesOf = (g: AddressGroup, r: EntityRecord): AddressValues => ({
  street: g.street ? text(r[g.street]) : '',
  city: text(r[g.city]),
  zip: g.zip ? text(r[g.zip]) : '',
  country: g.country ? text(r[g.country]) : '',
  latitude: num(r[g.latitude]),
  longitude: num(r[g.longitude]),
});

/** The changed fields of the record, to set in the form. */
export const addressChanges = (g: AddressGroup, before: AddressValues, after: AddressValues): Array<[string, FieldValue]> => {
  const changes: Array<[string, FieldValue]> = [];
  const pairs: Array<[string | undefined, keyof AddressValues]> = [
    [g.street, 'street'],
    [g.city, 'city'],
    [g.zip, 'zip'],
    [g.country, 'country'],
    [g.latitude, 'latitude'],
    [g.longitude, 'longitude'],
  ];
  for (const [field, key] of pairs) {
    if (!field || before[key] === after[key]) continue;
    const v = after[key];
    changes.push([field, typeof v === 'string' && v.trim() === '' ? null : v]);
  }
  return changes;
};
