import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { DirectionsLeg, LatLon } from '../ports/directions-service.js';
import { formatDuration } from '../records/duration.js';
import { applyTravelDurations, type Leg } from './route.js';

/**
 * The road distances of a travel report (spec 002 sections 4 and 7): when every leg has
 * coordinates and the route has at least 2 distinct stops, the client asks /api/distance with the
 * URL of a maps directions request (origin, destination, waypoints pipe-separated as lat,lon) and
 * reads routes[0].legs, each with distance.value (metres) and duration.value (seconds).
 */

/** The maps directions request the client names in its /api/distance payload (the server keeps only the stops). */
export const DIRECTIONS_URL = 'https://maps.googleapis.com/maps/api/directions/json';

const coordinate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A stop as the directions request writes it; also the key that says two stops are the same place. */
export const stopText = (p: LatLon): string => `${p.lat},${p.lon}`;

/**
 * The stops of the route, one per leg, or null when a directions request makes no sense: a leg
 * without coordinates, or fewer than 2 distinct stops.
 */
export const routeStops = (legs: readonly Leg[]): LatLon[] | null => {
  if (legs.length < 2) return null;
  const stops: LatLon[] = [];
  for (const leg of legs) {
    if (!coordinate(leg.latitude) || !coordinate(leg.longitude)) return null;
    stops.push({ lat: leg.latitude, lon: leg.longitude });
  }
  return new Set(stops.map(stopText)).size >= 2 ? stops : null;
};

/** The directions request URL of the stops: the first is the origin, the last the destination, the others waypoints. */
export const directionsUrl = (stops: readonly LatLon[]): string => {
  const q: Array<[string, string]> = [['origin', stopText(stops[0])], ['destination', stopText(stops[stops.length - 1])]];
  if (stops.length > 2) q.push(['waypoints', stops.slice(1, -1).map(stopText).join('|')]);
  return `${DIRECTIONS_URL}?${q.map(([k, v]) => `${k}=${formEncoded(v)}`).join('&')}`;
};

/** A query value as URLSearchParams writes it (the core has no URL globals: it runs on bare ECMAScript). */
const formEncoded = (v: string): string => encodeURIComponent(v).replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

const valueOf = (v: unknown): number | null => {
  const value = (v as { value?: unknown } | null | undefined)?.value;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
};

/** Reads routes[0].legs of a directions answer; a Left says what was missing (status not OK, no route, a leg without values). */
export const readDirectionsLegs = (body: unknown): E.Either<InputError, DirectionsLeg[]> => {
  const b = (body ?? {}) as { status?: unknown; routes?: unknown };
  if (b.status !== undefined && b.status !== 'OK') return E.left(inputError(`The directions service found no route (${String(b.status)})`));
  const route = Array.isArray(b.routes) ? (b.routes[0] as { legs?: unknown } | undefined) : undefined;
  if (!route || !Array.isArray(route.legs)) return E.left(inputError('The directions answer has no routes[0].legs'));
  const out: DirectionsLeg[] = [];
  for (const leg of route.legs as Array<{ distance?: unknown; duration?: unknown }>) {
    const distanceMetres = valueOf(leg?.distance);
    const durationSeconds = valueOf(leg?.duration);
    if (distanceMetres === null || durationSeconds === null) return E.left(inputError('A directions leg has no distance.value or duration.value'));
    out.push({ distanceMetres, durationSeconds });
  }
  return E.right(out);
};

/** Metres as the km a leg stores, to 2 decimals (10 m). */
export const kmOfMetres = (metres: number): number => Math.round(metres / 10) / 100;

/**
 * Puts the answer's legs on the route: leg i + 1 gets the distance (km) and duration (seconds)
 * from stop i to stop i + 1, then each such leg's enddate is the previous leg's start plus its
 * duration (spec 002 section 4). The first leg is the start point: distance 0, no duration. An
 * answer with another number of legs than the route has stops less one is refused.
 */
export const applyDirections = (legs: readonly Leg[], answer: readonly DirectionsLeg[]): E.Either<InputError, Leg[]> => {
  if (answer.length !== legs.length - 1) return E.left(inputError(`The directions answer has ${answer.length} legs for ${legs.length} stops`));
  const measured = legs.map((leg, i) =>
    i === 0 ? { ...leg, distance: 0, duration: null } : { ...leg, distance: kmOfMetres(answer[i - 1].distanceMetres), duration: answer[i - 1].durationSeconds },
  );
  return E.right(applyTravelDurations(measured));
};

/** A leg's travel duration as h:mm (spec 002 section 9; formatDuration of records), nothing for none. */
export const formatLegDuration = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0 ? '' : formatDuration(seconds);
