import { Router, type Response } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { levelOf, type SignInFailure, type SignInService, type SignedIn } from '@tessera/core/internal';
import { sendToken, tokenOf } from '../auth/token-header.js';
import { sendNotAuthorized, sendText } from '../http-errors.js';
import type { RequestHandler } from 'express';
import { signed } from '../session-guard.js';
import { clientOf, field } from './form-fields.js';

/** Spec 000 section 8: login failures are JSON `{ reason, message }`. */
export const sendFailure = (res: Response, f: SignInFailure): void => {
  if (f.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(f.retryAfterSeconds));
  res.status(f.status).json({ reason: f.reason, message: f.message });
};

const sendSignedIn = (res: Response, s: SignedIn): void => {
  sendToken(res, s.token);
  res.json({ reason: 'OK', message: 'OK', orgName: s.session.orgName, userId: s.session.userId, name: s.session.userName });
};

/** POST /api/login, /api/logout, GET /api/401, POST /api/getmagic, /api/mustchangepassword, /api/changepassword. */
export const signInRoutes = (signIn: SignInService, guard: RequestHandler): Router => {
  const r = Router();

  r.post('/login', async (req, res) => {
    const result = await signIn.login(
      { organization: field(req, 'organization', 100), username: field(req, 'username', 254), password: field(req, 'password', 300) },
      clientOf(req),
    );
    if (isLeft(result)) return sendFailure(res, result.left);
    sendSignedIn(res, result.right);
  });

  r.post('/logout', async (req, res) => {
    const token = tokenOf(req);
    if (token) await signIn.logout(token);
    res.type('text/plain').send('OK');
  });

  // The client calls this after logout (spec 000 section 4): it always answers 401 NOT AUTHORIZED.
  r.get('/401', (_req, res) => sendNotAuthorized(res));

  r.post('/getmagic', async (req, res) => {
    // An invitation needs an administrator's session; without it the request is a plain sign-in link.
    const session = tokenOf(req) ? await signIn.authenticate(tokenOf(req)) : null;
    const result = await signIn.sendLink(
      { organization: field(req, 'organization', 100), username: field(req, 'username', 254), ret: field(req, 'ret', 2000), reason: field(req, 'reason', 50) },
      clientOf(req),
      session && session.orgName.toLowerCase() === field(req, 'organization', 100).trim().toLowerCase() ? session.userName : undefined,
    );
    if (isLeft(result)) return sendFailure(res, result.left);
    res.type('text/plain').send(result.right);
  });

  r.post('/mustchangepassword', async (req, res) => {
    const result = await signIn.changeForced(
      {
        organization: field(req, 'organization', 100),
        username: field(req, 'username', 254),
        password: field(req, 'password', 300),
        newPassword: field(req, 'newPassword', 300),
      },
      clientOf(req),
    );
    if (isLeft(result)) return sendFailure(res, result.left);
    sendSignedIn(res, result.right);
  });

  r.post('/changepassword', guard, async (req, res) => {
    const { session, caller } = signed(res);
    const result = await signIn.changePassword(
      session,
      { oldPassword: field(req, 'oldPassword', 300), newPassword: field(req, 'newPassword', 300), userId: field(req, 'userId', 100) },
      // Changing someone else's password is for those who may update every user (spec 002 section 6).
      levelOf(caller.permissions, 'systemuser', 'update') === 3,
    );
    if (isLeft(result)) return sendText(res, result.left.status, result.left.text);
    sendText(res, 200, result.right);
  });

  return r;
};
