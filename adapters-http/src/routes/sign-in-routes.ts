import type { RequestHandler, Response, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, inviterOf, isAdministrator, type SignInFailure, type SignInService, type SignedIn } from '@tessera/core/internal';
import { sendToken, tokenOf } from '../auth/token-header.js';
import { sendNotAuthorized, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';
import { clientOf } from './form-fields.js';

/** Spec 000 section 8: login failures are JSON `{ reason, message }`. */
export const sendFailure = (res: Response, f: SignInFailure): void => {
  if (f.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(f.retryAfterSeconds));
  res.status(f.status);
  sendAnswer(res, API.login, { reason: f.reason, message: f.message });
};

const sendSignedIn = (res: Response, s: SignedIn): void => {
  sendToken(res, s.token);
  sendAnswer(res, API.login, { reason: 'OK', message: 'OK', orgName: s.session.orgName, userId: s.session.userId, name: s.session.userName });
};

/** POST /api/login, /api/logout, GET /api/401, POST /api/getmagic, /api/mustchangepassword, /api/changepassword. */
export const signInRoutes = (signIn: SignInService, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.login, async (form, req, res) => {
      const result = await signIn.login(form, clientOf(req));
      if (isLeft(result)) return sendFailure(res, result.left);
      sendSignedIn(res, result.right);
    }),

    route(API.logout, async (_none, req, res) => {
      const token = tokenOf(req);
      if (token) await signIn.logout(token);
      res.type('text/plain').send('OK');
    }),

    // The client calls this after logout (spec 000 section 4): it always answers 401 NOT AUTHORIZED.
    route(API.notAuthorized, (_none, _req, res) => sendNotAuthorized(res)),

    route(API.getMagic, async (form, req, res) => {
      // An invitation needs a session of that organization; without it the request is a plain sign-in link.
      const session = tokenOf(req) ? await signIn.authenticate(tokenOf(req)) : null;
      const result = await signIn.sendLink(form, clientOf(req), inviterOf(session, form.organization));
      if (isLeft(result)) return sendFailure(res, result.left);
      res.type('text/plain').send(result.right);
    }),

    route(API.mustChangePassword, async (form, req, res) => {
      const result = await signIn.changeForced(form, clientOf(req));
      if (isLeft(result)) return sendFailure(res, result.left);
      sendSignedIn(res, result.right);
    }),

    route(API.changePassword, async (form, _req, res) => {
      const { session, caller } = signed(res);
      // Changing someone else's password is for administrators (spec 002 section 6).
      const result = await signIn.changePassword(session, form, isAdministrator(caller));
      if (isLeft(result)) return sendText(res, result.left.status, result.left.text);
      sendText(res, 200, result.right);
    }),
  ]);
