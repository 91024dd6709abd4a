import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DirectionsRequest, LatLon } from '@tessera/core/internal';

/** The Google Directions API's limit of waypoints in one request. */
export const MAX_WAYPOINTS = 25;
/** Longest request URL accepted from the client. */
const MAX_URL_LENGTH = 8192;

const COORDINATE = /^\s*(-?\d{1,3}(?:\.\d{1,12})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,12})?)\s*$/;

/** `lat,lon` in decimal degrees, inside the globe; null otherwise. */
export const parseLatLon = (text: string): LatLon | null => {
  const m = COORDINATE.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
};

/**
 * The stops of a travel report's directions request (spec 002 section 7: origin, destination and
 * waypoints pipe-separated as lat,lon), from the body of POST /api/distance: `{ url }` holding the
 * maps request, or the three fields themselves. Only the coordinates are kept; the address, the
 * key and every other parameter of the client's URL are ignored, so the server never fetches a
 * URL a client chose.
 */
export const directionsRequestOf = (body: unknown): Either<string, DirectionsRequest> => {
  const b = (body ?? {}) as Record<string, unknown>;
  let fields: { origin: unknown; destination: unknown; waypoints: unknown };
  if (typeof b.url === 'string') {
    if (b.url.length > MAX_URL_LENGTH) return left('the url is too long');
    let url: URL;
    try {
      url = new URL(b.url, 'https://directions.invalid/');
    } catch {
      return left('the url is not a URL');
    }
    const q = url.searchParams;
    fields = { origin: q.get('origin'), destination: q.get('destination'), waypoints: q.get('waypoints') ?? '' };
  } else {
    fields = { origin: b.origin, destination: b.destination, waypoints: b.waypoints ?? '' };
  }
  if (typeof fields.origin !== 'string' || typeof fields.destination !== 'string') return left('origin and destination are required, as lat,lon');
  const origin = parseLatLon(fields.origin);
  const destination = parseLatLon(fields.destination);
  if (!origin) return left(`origin is not lat,lon: ${fields.origin.slice(0, 50)}`);
  if (!destination) return left(`destination is not lat,lon: ${fields.destination.slice(0, 50)}`);
  const list = Array.isArray(fields.waypoints) ? fields.waypoints : typeof fields.waypoints === 'string' ? (fields.waypoints === '' ? [] : fields.waypoints.split('|')) : null;
  if (list === null) return left('waypoints must be lat,lon texts separated by |');
  if (list.length > MAX_WAYPOINTS) return left(`at most ${MAX_WAYPOINTS} waypoints`);
  const waypoints: LatLon[] = [];
  for (const w of list) {
    const p = typeof w === 'string' ? parseLatLon(w) : null;
    if (!p) return left(`a waypoint is not lat,lon: ${String(w).slice(0, 50)}`);
    waypoints.push(p);
  }
  return right({ origin, destination, waypoints });
};
