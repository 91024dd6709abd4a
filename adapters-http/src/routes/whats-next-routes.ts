import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, DEFAULT_WHATS_NEXT_SCHEDULED, whatsNext, type Clock } from '@tessera/core/internal';
import { sendDomainError } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/** POST /api/whatsnext (spec 002 What's Next): the filters decoded, the core's whatsNext, the page. */
export const whatsNextRoutes = (clock: Clock, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.whatsNext, async (request, _req, res) => {
      const s = signed(res);
      const result = await whatsNext({ store: s.tenant.store, clock, entities: s.tenant.entities() }, s.caller, {
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
