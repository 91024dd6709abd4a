import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  API,
  applyWrite,
  applyWrites,
  batchOf,
  type Clock,
  type SessionStore,
  type Writer,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed, type Signed } from '../session-guard.js';

/** Who writes through a signed-in request: the write services mark the session and sign out deactivated users. */
const writerOf = (s: Signed): Writer => ({ caller: s.caller, orgName: s.session.orgName, sessionName: s.session.name });

/** POST /api/fetch, /api/update, /api/executemultiple (API.md). */
export const dataRoutes = (sessions: SessionStore, clock: Clock, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.fetch, async (request, _req, res) => {
      const s = signed(res);
      const result = await s.tenant.store.retrieveMultiple(s.caller, request);
      if (isLeft(result)) return sendDomainError(res, result.left);
      sendAnswer(res, API.fetch, result.right);
    }),

    route(API.update, async (item, _req, res) => {
      const s = signed(res);
      const result = await applyWrite({ store: s.tenant.store, sessions, clock }, writerOf(s), item);
      if (isLeft(result)) return sendDomainError(res, result.left);
      sendText(res, 200, result.right);
    }),

    route(API.executeMultiple, async (body, _req, res) => {
      const s = signed(res);
      const { items, atomic } = batchOf(body);
      const result = await applyWrites({ store: s.tenant.store, sessions, clock }, writerOf(s), items, { atomic });
      if (isLeft(result)) return sendDomainError(res, result.left);
      sendAnswer(res, API.executeMultiple, result.right);
    }),
  ]);
