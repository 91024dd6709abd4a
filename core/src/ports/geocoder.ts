/**
 * Geocoding (spec 001 "Geocoding", issue 14): the address editor looks up the coordinates of an
 * address (forward) and the address at a point (reverse). Failing to geocode is only logged by the
 * client, so a failure is a value the edge turns into a status, never an exception.
 */
import type { Either } from 'fp-ts/lib/Either.js';
import type { LatLon } from './directions-service.js';
import type { GatewayFailure } from './graph-token-source.js';

/** The address fields of spec 001 "Address fields" (street, city, zip, country), as a service names them. */
export type AddressParts = {
  /** road or street */
  street?: string;
  houseNumber?: string;
  /** city, else town, else village */
  city?: string;
  postcode?: string;
  country?: string;
};

/** One place: its coordinates, the service's one-line name of it, and its address parts. */
export type GeocodeMatch = LatLon & { label: string; address: AddressParts };

/** Forward: `q` the free-text address; `city` the city the user typed, which the best match prefers. */
export type ForwardGeocode = { q: string; city?: string };

export interface Geocoder {
  /** The best match of an address, or null when the service knows none. */
  forward(request: ForwardGeocode): Promise<Either<GatewayFailure, GeocodeMatch | null>>;
  /** The address at a point, or null when the service knows none there. */
  reverse(point: LatLon): Promise<Either<GatewayFailure, GeocodeMatch | null>>;
}

/** A candidate of a forward search: its settlement names as the service gave them. */
export type GeocodeCandidate = GeocodeMatch & { settlements: readonly string[] };

const same = (a: string, b: string): boolean => a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'base' }) === 0;

/**
 * The best match of a search (spec 001 "Geocoding"): the first candidate whose city, town or
 * village equals the city asked for (case and accents aside), else the service's first; none: null.
 * Services rank by relevance, so a street of the same name in a bigger city otherwise wins.
 */
export const bestMatch = (candidates: readonly GeocodeCandidate[], city?: string): GeocodeMatch | null => {
  const wanted = city?.trim();
  const chosen = (wanted ? candidates.find((c) => c.settlements.some((s) => same(s, wanted))) : undefined) ?? candidates[0];
  if (!chosen) return null;
  const { settlements: _settlements, ...match } = chosen;
  return match;
};

/** Forward queries longer than this are refused at the edge (a postal address is far shorter). */
export const MAX_GEOCODE_QUERY = 500;
