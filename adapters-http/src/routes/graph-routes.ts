import type { RequestHandler, Response, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, type DirectionsService, type GatewayFailure, type GraphTokenSource } from '@tessera/core/internal';
import { sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { directionsRequestOf } from './graph-directions-request.js';
import { signed } from '../session-guard.js';

export type GraphRouteDeps = { tokens: GraphTokenSource; directions: DirectionsService };

/** Not configured: 501, the feature is off on this server; the outside service failed: 502. */
const sendGatewayFailure = (res: Response, f: GatewayFailure): void =>
  f.kind === 'NOT_CONFIGURED'
    ? sendText(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`)
    : sendText(res, 502, `ERR_UPSTREAM: ${f.message}`);

/**
 * Directions requests of one user waiting at once. The journey panel asks one at a time (a newer
 * route aborts the older in the browser, which does not stop the server's request): beyond this a
 * client is hammering, and each request spends the server's maps key.
 */
export const DIRECTIONS_USER_LIMIT = 3;

/** GET /api/azure/accesstoken and POST /api/distance (spec 001 and 002 section 7), both behind the session. */
export const graphRoutes = (deps: GraphRouteDeps, guard: RequestHandler): Router => {
  const waiting = new Map<string, number>();
  return routerOf(guard, [
    route(API.accessToken, async (_none, _req, res) => {
      const token = await deps.tokens.accessToken();
      if (isLeft(token)) return sendGatewayFailure(res, token.left);
      sendAnswer(res, API.accessToken, { access_token: token.right.access_token, expires_on: token.right.expires_on });
    }),

    route(API.distance, async (body, _req, res) => {
      const request = directionsRequestOf(body);
      if (isLeft(request)) return sendText(res, 400, `ERR_INPUT: ${request.left}`);
      const { tenant, caller } = signed(res);
      const user = `${tenant.name}\u0000${caller.userId}`;
      const mine = waiting.get(user) ?? 0;
      if (mine >= DIRECTIONS_USER_LIMIT) {
        res.setHeader('Retry-After', '5');
        return sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${DIRECTIONS_USER_LIMIT} route distances of one user wait at once; try again shortly`);
      }
      waiting.set(user, mine + 1);
      try {
        const answer = await deps.directions.directions(request.right);
        if (isLeft(answer)) return sendGatewayFailure(res, answer.left);
        res.json(answer.right.body);
      } finally {
        const left = (waiting.get(user) ?? 1) - 1;
        if (left === 0) waiting.delete(user);
        else waiting.set(user, left);
      }
    }),
  ]);
};
