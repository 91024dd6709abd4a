import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, type Geocoder } from '@tessera/core/internal';
import { sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/**
 * Lookups waiting for the geocoder at once on this server. The geocoder sends one request a second
 * (Nominatim's usage policy), so beyond this a caller would wait half a minute: 429 instead, and
 * one user typing fast cannot queue the server's lookups for everyone.
 */
export const GEOCODE_QUEUE_LIMIT = 30;
/** Lookups of one user waiting at once (the address dialog asks one at a time): one user cannot fill the queue. */
export const GEOCODE_USER_LIMIT = 3;

/** POST /api/geocode (issue 14): the address editor's lookups through the server's Geocoder port. */
export const geocodeRoutes = (geocoder: Geocoder, guard: RequestHandler): Router => {
  let waiting = 0;
  const perUser = new Map<string, number>();
  return routerOf(guard, [
    route(API.geocode, async (body, _req, res) => {
      const { tenant, caller } = signed(res);
      const user = `${tenant.name}\u0000${caller.userId}`;
      const mine = perUser.get(user) ?? 0;
      if (waiting >= GEOCODE_QUEUE_LIMIT || mine >= GEOCODE_USER_LIMIT) {
        res.setHeader('Retry-After', '5');
        return sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${mine >= GEOCODE_USER_LIMIT ? `${GEOCODE_USER_LIMIT} address lookups of one user` : `${GEOCODE_QUEUE_LIMIT} address lookups`} wait at once; try again shortly`);
      }
      waiting++;
      perUser.set(user, mine + 1);
      try {
        const answer = 'q' in body ? await geocoder.forward({ q: body.q, city: body.city }) : await geocoder.reverse({ lat: body.lat, lon: body.lon });
        if (isLeft(answer)) {
          const f = answer.left;
          return f.kind === 'NOT_CONFIGURED' ? sendText(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`) : sendText(res, 502, `ERR_UPSTREAM: ${f.message}`);
        }
        sendAnswer(res, API.geocode, { match: answer.right });
      } finally {
        waiting--;
        const left = (perUser.get(user) ?? 1) - 1;
        if (left === 0) perUser.delete(user);
        else perUser.set(user, left);
      }
    }),
  ]);
};
