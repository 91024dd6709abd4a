import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, buildUserContext } from '@tessera/core/internal';
import { sendDomainError } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/** GET /api/getusercontext (spec 000 section 3). `?appId=` picks the app when the user has it. */
export const contextRoutes = (
  config: { buildDate: string; languages?: readonly string[]; sas?: string | ((org: string, userId: string) => string) },
  guard: RequestHandler,
): Router =>
  routerOf(guard, [
    route(API.userContext, async ({ appId }, _req, res) => {
      const s = signed(res);
      const ctx = await buildUserContext({
        store: s.tenant.store,
        caller: s.caller,
        orgName: s.session.orgName,
        entities: s.tenant.entities(),
        buildDate: config.buildDate,
        appId,
        languages: config.languages,
        // The blob download signature is the user's own (issue 18, blob-routes.ts).
        sas: typeof config.sas === 'function' ? config.sas(s.session.orgName, s.caller.userId) : config.sas,
      });
      if (isLeft(ctx)) return sendDomainError(res, ctx.left);
      res.setHeader('Cache-Control', 'no-store');
      sendAnswer(res, API.userContext, ctx.right);
    }),
  ]);
