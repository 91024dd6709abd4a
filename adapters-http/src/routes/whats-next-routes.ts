import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import { API, DEFAULT_WHATS_NEXT_SCHEDULED, whatsNext, type Clock, type ScriptSandbox } from '@tessera/core/internal';
import { sendDomainError } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/** What the route needs besides the clock: the rules' scripts run here (issue 16); without a sandbox they do not. */
export type WhatsNextRouteDeps = { clock: Clock; scripts?: ScriptSandbox; logger?: Logger };

/** POST /api/whatsnext (spec 002 What's Next): the filters decoded, the core's whatsNext, the page. */
export const whatsNextRoutes = (deps: WhatsNextRouteDeps, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.whatsNext, async (request, _req, res) => {
      const s = signed(res);
      const reportScriptError = (message: string) => deps.logger?.warn({ reqId: res.locals.requestId, org: s.tenant.name, error: message }, "what's next: a rule's script failed");
      const result = await whatsNext({ store: s.tenant.store, clock: deps.clock, entities: s.tenant.entities(), scripts: deps.scripts, reportScriptError }, s.caller, {
        scheduled: request.scheduled ?? DEFAULT_WHATS_NEXT_SCHEDULED,
        // Absent: the caller's own follow-ups (the screen's default); null: every owner.
        owner: request.owner === undefined ? s.caller.userId : request.owner,
        category: request.category ?? null,
        page: request.page ?? 1,
        timeZone: request.timeZone ?? 'UTC',
      });
      if (isLeft(result)) return sendDomainError(res, result.left);
      sendAnswer(res, API.whatsNext, result.right);
    }),
  ]);
