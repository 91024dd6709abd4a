import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
  AppErrorLog,
  requireAdministrator,
  sessionEntryOf,
  type AppErrorReport,
  type SessionStore,
  type SignInService,
} from '@tessera/core/internal';
import { tokenOf } from '../auth/token-header.js';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/** The session list and ending a session are for administrators (issue 6; the specification shows no check). */
const ADMINISTRATORS_ONLY = 'the session list is for administrators';

/** One report as one line: the known fields only (the codec drops the rest), each cut to 4000 characters. */
const reportLine = (report: AppErrorReport, org: string | undefined, user: string | undefined): string => {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(report)) {
    if (v === undefined || v === null) continue;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    fields[k] = s.length > 4000 ? `${s.slice(0, 4000)}...` : s;
  }
  return JSON.stringify({ at: new Date().toISOString(), session: { org, user }, ...fields });
};

/** POST /api/apperror, GET /api/cache_debug, GET /api/cache_debug_delete?name= */
export const adminRoutes = (
  deps: { signIn: SignInService; sessions: SessionStore; logger: Logger; errors: AppErrorLog },
  guard: RequestHandler,
): Router =>
  routerOf(guard, [
    // Error reports arrive also when the session is gone (that may be the error), so no session is required.
    route(API.appError, async (report, req, res) => {
      const session = tokenOf(req) ? await deps.signIn.authenticate(tokenOf(req)) : null;
      const line = reportLine(report, session?.orgName, session?.userId);
      deps.errors.append(line);
      deps.logger.warn({ reqId: res.locals.requestId, report: line.slice(0, 2000) }, 'client error report');
      sendText(res, 200, 'OK');
    }),

    route(API.sessionList, async (_none, _req, res) => {
      const s = signed(res);
      const admin = requireAdministrator(s.caller, ADMINISTRATORS_ONLY);
      if (isLeft(admin)) return sendDomainError(res, admin.left);
      const list = await deps.sessions.list(s.session.orgName);
      sendAnswer(res, API.sessionList, list.map(sessionEntryOf));
    }),

    route(API.endSession, async ({ name }, _req, res) => {
      const s = signed(res);
      const admin = requireAdministrator(s.caller, ADMINISTRATORS_ONLY);
      if (isLeft(admin)) return sendDomainError(res, admin.left);
      if (!name) return sendText(res, 400, 'ERR_INPUT: name is required');
      const ended = await deps.sessions.endByName(s.session.orgName, name);
      if (!ended) return sendText(res, 404, `ERR_NOT_FOUND: no session ${name}`);
      sendText(res, 200, 'OK');
    }),
  ]);
