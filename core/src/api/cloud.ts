import * as t from 'io-ts';

/** GET /api/azure/accesstoken: `expires_on` in seconds since 1970, like the identity platform's. */
export const AccessTokenAnswer = t.type({ access_token: t.string, expires_on: t.number }, 'access token');
export type AccessTokenAnswer = t.TypeOf<typeof AccessTokenAnswer>;

/**
 * POST /api/distance: `{ url }` (the maps directions URL of the travel report) or
 * `{ origin, destination, waypoints }`; the stops themselves are read by directionsRequestOf.
 */
export const DistanceRequest = t.exact(t.partial({ url: t.string, origin: t.unknown, destination: t.unknown, waypoints: t.unknown }), 'distance body');
export type DistanceRequest = t.TypeOf<typeof DistanceRequest>;

/** The directions service's JSON as it came (the client reads routes[0].legs). */
export const DistanceAnswer = t.unknown;
