import { Router, type Request } from 'express';
import type { Logger } from 'pino';
import { AppErrorLog, canSuperEdit, type SessionStore, type SignInService } from '@tessera/core/internal';
import { tokenOf } from '../auth/token-header.js';
import { sendText } from '../http-errors.js';
import { signed } from '../session-guard.js';
import type { RequestHandler } from 'express';

const REPORT_FIELDS = ['message', 'user', 'appId', 'orgName', 'context', 'app', 'navigator', 'url', 'error'] as const;

/** One report as one line: the known fields only, each cut to 4000 characters. */
const reportLine = (req: Request, org: string | undefined, user: string | undefined): string => {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const k of REPORT_FIELDS) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    fields[k] = s.length > 4000 ? `${s.slice(0, 4000)}...` : s;
  }
  return JSON.stringify({ at: new Date().toISOString(), session: { org, user }, ...fields });
};

/** POST /api/apperror, GET /api/cache_debug, GET /api/cache_debug_delete?name= */
export const adminRoutes = (deps: { signIn: SignInService; sessions: SessionStore; logger: Logger; errors: AppErrorLog }, guard: RequestHandler): Router => {
  const r = Router();

  // Error reports arrive also when the session is gone (that may be the error), so no session is required.
  r.post('/apperror', async (req, res) => {
    const session = tokenOf(req) ? await deps.signIn.authenticate(tokenOf(req)) : null;
    const line = reportLine(req, session?.orgName, session?.userId);
    deps.errors.append(line);
    deps.logger.warn({ reqId: res.locals.requestId, report: line.slice(0, 2000) }, 'client error report');
    sendText(res, 200, 'OK');
  });

  // The specification shows no check; the session list is for administrators only (issue 6).
  r.get('/cache_debug', guard, async (_req, res) => {
    const s = signed(res);
    if (!canSuperEdit(s.caller)) return sendText(res, 403, 'ERR_PERMISSION: the session list is for administrators');
    const list = await deps.sessions.list(s.session.orgName);
    res.json(
      list.map((x) => ({
        name: x.name,
        orgname: x.orgName,
        username: x.userName,
        created: x.created.toISOString(),
        modified: x.modified.toISOString(),
        read: x.read.toISOString(),
        ip: x.ip,
        agent: x.agent,
      })),
    );
  });

  r.get('/cache_debug_delete', guard, async (req, res) => {
    const s = signed(res);
    if (!canSuperEdit(s.caller)) return sendText(res, 403, 'ERR_PERMISSION: the session list is for administrators');
    const name = typeof req.query.name === 'string' ? req.query.name : '';
    if (!name) return sendText(res, 400, 'ERR_INPUT: name is required');
    const ended = await deps.sessions.endByName(s.session.orgName, name);
    if (!ended) return sendText(res, 404, `ERR_NOT_FOUND: no session ${name}`);
    sendText(res, 200, 'OK');
  });

  return r;
};
