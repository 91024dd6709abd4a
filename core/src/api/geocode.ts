import * as t from 'io-ts';
import { MAX_GEOCODE_QUERY } from '../ports/geocoder.js';

const boundedText = (name: string, max: number) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && u.trim() !== '' && u.length <= max,
    (u, c) => (typeof u === 'string' && u.trim() !== '' && u.length <= max ? t.success(u) : t.failure(u, c)),
    (a) => a,
  );

const degrees = (name: string, limit: number) =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && Number.isFinite(u) && Math.abs(u) <= limit,
    (u, c) => (typeof u === 'number' && Number.isFinite(u) && Math.abs(u) <= limit ? t.success(u) : t.failure(u, c)),
    (a) => a,
  );

/**
 * POST /api/geocode (issue 14): `{ q, city? }` looks up an address (the best match prefers `city`);
 * `{ lat, lon }` the address at a point. The server asks its configured geocoder, so the browser
 * never calls the outside service itself and the usage policy's one-request-a-second holds per server.
 */
export const GeocodeRequest = t.union(
  [
    t.exact(t.intersection([t.type({ q: boundedText(`address text (1 to ${MAX_GEOCODE_QUERY} characters)`, MAX_GEOCODE_QUERY) }), t.partial({ city: boundedText('city (1 to 200 characters)', 200) })])),
    t.exact(t.type({ lat: degrees('latitude (-90 to 90)', 90), lon: degrees('longitude (-180 to 180)', 180) })),
  ],
  'geocode body',
);
export type GeocodeRequest = t.TypeOf<typeof GeocodeRequest>;

export const GeocodeAddress = t.partial({ street: t.string, houseNumber: t.string, city: t.string, postcode: t.string, country: t.string }, 'address parts');

export const GeocodeMatchAnswer = t.intersection([t.type({ lat: t.number, lon: t.number, label: t.string }), t.type({ address: GeocodeAddress })], 'geocode match');

/** `match` is null when the service knows no such address (the client says 'Address not found'). */
export const GeocodeAnswer = t.type({ match: t.union([GeocodeMatchAnswer, t.null]) }, 'geocode answer');
export type GeocodeAnswer = t.TypeOf<typeof GeocodeAnswer>;
