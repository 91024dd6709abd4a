import { primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import type { ListView } from '../metadata/view.js';
import type { FetchRequest, Filter } from './query.js';

/**
 * The map view (spec 001 section 2, view mode 1; issue 14): records with coordinates as markers.
 * Which fields hold the coordinates, the fetch of the markers, and what a record becomes on the map.
 */

/** Spec 001 "Address and map editors": the default centre of maps, and the zooms. */
export const MAP_DEFAULT_CENTRE = { lat: 48.392898, lon: 17.60524 } as const;
export const MAP_DEFAULT_ZOOM = 11;
export const MAP_ZOOM_EDITOR = 16;
export const MAP_ZOOM_FORM = 12;
export const MAP_ZOOM_ADDRESS_FIELD = 9;

/** Markers read at most: a map of more points is unreadable anyway; the view says how many were left out. */
export const MAP_PAGE_SIZE = 1000;

export type MapFields = { _tag: 'Fields'; lat: string; lon: string } | { _tag: 'MissingField'; field: string };

const NUMERIC = new Set(['Float', 'Decimal', 'Money', 'Integer']);

/** The view's latitudeField and longitudeField (default `latitude`, `longitude`), both numbers of the entity. */
export const mapFieldsOf = (entity: Entity, view: Pick<ListView, 'latitudeField' | 'longitudeField'> | undefined): MapFields => {
  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const lat = view?.latitudeField ?? 'latitude';
  const lon = view?.longitudeField ?? 'longitude';
  for (const f of [lat, lon]) {
    const p = props.get(f);
    if (!p || !NUMERIC.has(p.type)) return { _tag: 'MissingField', field: f };
  }
  return { _tag: 'Fields', lat, lon };
};

/**
 * The markers' fetch: the list's fetch of the moment (view query, quick filters, search, order)
 * with both coordinates not null, the first MAP_PAGE_SIZE records, with the count.
 */
export const mapRequest = (list: FetchRequest, entity: Entity, fields: { lat: string; lon: string }): FetchRequest => {
  const has: Filter = { type: 'and', conditions: [{ attribute: fields.lat, operator: 'not-null' }, { attribute: fields.lon, operator: 'not-null' }] };
  const q = list.entity;
  const wanted = [primaryKeyOf(entity), 'name', fields.lat, fields.lon].filter((a) => a === primaryKeyOf(entity) || entity.properties.some((p) => p.logicalName === a));
  const attributes =
    q.allattrs === true || q.attributes === undefined
      ? q.attributes
      : [...q.attributes, ...wanted.filter((a) => !q.attributes!.some((x) => x.attribute === a && x.alias === undefined)).map((attribute) => ({ attribute }))];
  return {
    ...list,
    entity: { ...q, ...(attributes ? { attributes } : {}), filter: q.filter ? { type: 'and', filters: [q.filter, has] } : has },
    page: 1,
    pageSize: MAP_PAGE_SIZE,
    count: true,
  };
};

export type MapMarker = { id: string; lat: number; lon: number; record: EntityRecord };

const coordinate = (v: unknown, limit: number): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
};

/** A record's marker, or null when its coordinates are missing or off the globe (0, 0 included: an unset pair, not a place). */
export const markerOf = (record: EntityRecord, entity: Entity, fields: { lat: string; lon: string }): MapMarker | null => {
  const lat = coordinate(record[fields.lat], 90);
  const lon = coordinate(record[fields.lon], 180);
  const id = record[primaryKeyOf(entity)] ?? record.id;
  if (lat === null || lon === null || (lat === 0 && lon === 0) || id === undefined || id === null) return null;
  return { id: String(id), lat, lon, record };
};
