import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, type Geocoder } from '@tessera/core/internal';
import { sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';

/**
 * Lookups waiting for the geocoder at once on this server. The geocoder sends one request a second
 * (Nominatim's usage policy), so beyond this a caller would wait half a minute: 429 instead, and
 * one user typing fast cannot queue the server's lookups for everyone.
 */
export const GEOCODE_QUEUE_LIMIT = 30;

/** POST /api/geocode (issue 14): the address editor's lookups through the server's Geocoder port. */
export const geocodeRoutes = (geocoder: Geocoder, guard: RequestHandler): Router => {
  let waiting = 0;
  return routerOf(guard, [
    route(API.geocode, async (body, _req, res) => {
      if (waiting >= GEOCODE_QUEUE_LIMIT) return sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${GEOCODE_QUEUE_LIMIT} address lookups wait at once; try again shortly`);
      waiting++;
      try {
        const answer = 'q' in body ? await geocoder.forward({ q: body.q, city: body.city }) : await geocoder.reverse({ lat: body.lat, lon: body.lon });
        if (isLeft(answer)) {
          const f = answer.left;
          return f.kind === 'NOT_CONFIGURED' ? sendText(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`) : sendText(res, 502, `ERR_UPSTREAM: ${f.message}`);
        }
        sendAnswer(res, API.geocode, { match: answer.right });
      } finally {
        waiting--;
      }
    }),
  ]);
};
