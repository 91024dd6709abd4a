/**
 * Road distances of the travel report (spec 002 section 7 "Travel report"): a directions
 * service gives, per leg between the stops, the distance in metres and the duration in seconds.
 */
import type { Either } from 'fp-ts/lib/Either.js';
import type { GatewayFailure } from './graph-token-source.js';

export type LatLon = { lat: number; lon: number };

export type DirectionsRequest = { origin: LatLon; destination: LatLon; waypoints: readonly LatLon[] };

export type DirectionsLeg = { distanceMetres: number; durationSeconds: number };

/** `body` is the service's JSON as it answered (the client reads routes[0].legs); `legs` its reading. */
export type DirectionsAnswer = { status: string; legs: readonly DirectionsLeg[]; body: unknown };

export interface DirectionsService {
  directions(request: DirectionsRequest): Promise<Either<GatewayFailure, DirectionsAnswer>>;
}
