import type { RequestHandler, Response, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, type DirectionsService, type GatewayFailure, type GraphTokenSource } from '@tessera/core/internal';
import { sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { directionsRequestOf } from './graph-directions-request.js';

export type GraphRouteDeps = { tokens: GraphTokenSource; directions: DirectionsService };

/** Not configured: 501, the feature is off on this server; the outside service failed: 502. */
const sendGatewayFailure = (res: Response, f: GatewayFailure): void =>
  f.kind === 'NOT_CONFIGURED'
    ? sendText(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`)
    : sendText(res, 502, `ERR_UPSTREAM: ${f.message}`);

/** GET /api/azure/accesstoken and POST /api/distance (spec 001 and 002 section 7), both behind the session. */
export const graphRoutes = (deps: GraphRouteDeps, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.accessToken, async (_none, _req, res) => {
      const token = await deps.tokens.accessToken();
      if (isLeft(token)) return sendGatewayFailure(res, token.left);
      sendAnswer(res, API.accessToken, { access_token: token.right.access_token, expires_on: token.right.expires_on });
    }),

    route(API.distance, async (body, _req, res) => {
      const request = directionsRequestOf(body);
      if (isLeft(request)) return sendText(res, 400, `ERR_INPUT: ${request.left}`);
      const answer = await deps.directions.directions(request.right);
      if (isLeft(answer)) return sendGatewayFailure(res, answer.left);
      res.json(answer.right.body);
    }),
  ]);
