import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  API,
  completeSurvey,
  InMemoryAttemptLedger,
  normalizeOrganizationName,
  openSurvey,
  PublicCallLimits,
  retryAfterSeconds,
  saveSurveyToTarget,
  SurveyOutcome,
  withWriteEffects,
  type Clock,
  type DomainError,
  type OrganizationDirectory,
  type SessionStore,
  type SurveyRefusal,
  type Tenant,
  type TenantRegistry,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';
import { clientOf } from './form-fields.js';

type SurveyParams = { org: string; key: string };

/** A survey link that does not open: 404 SurveyLinkInvalid, 410 SurveyExpired or SurveyCompleted (spec 000 section 8). */
const refuse = (res: Response, r: SurveyRefusal | DomainError): void =>
  '_tag' in r && r._tag === 'SurveyRefusal' ? sendText(res, r.outcome === SurveyOutcome.invalid ? 404 : 410, r.outcome) : sendDomainError(res, r as DomainError);

/**
 * GET and POST /api/survey/{org}/{key}: public, no session. The organization of the link picks
 * the tenant (only a ready one); the survey rules are the core's openSurvey and completeSurvey.
 */
export const surveyRoutes = (deps: { tenants: TenantRegistry; directory: OrganizationDirectory; clock: Clock; publicLimits?: PublicCallLimits }): Router => {
  // Submissions per link and per address (issue 22 item 8); without the host's ledger, in this process only.
  const limits = deps.publicLimits ?? new PublicCallLimits(new InMemoryAttemptLedger(), deps.clock);
  const tenantOf = async (orgRaw: string): Promise<Tenant | null> => {
    const org = normalizeOrganizationName(orgRaw);
    if (!org || (await deps.directory.status(org)) !== 'ready') return null;
    return deps.tenants.open(org);
  };
  const invalid: SurveyRefusal = { _tag: 'SurveyRefusal', outcome: SurveyOutcome.invalid };

  return routerOf(null, [
    route(API.surveyPage, async (_none, req, res) => {
      const { org, key } = req.params as SurveyParams;
      const tenant = await tenantOf(org);
      if (!tenant) return refuse(res, invalid);
      const page = await openSurvey({ store: tenant.store, clock: deps.clock }, key);
      if (isLeft(page)) return refuse(res, page.left);
      sendAnswer(res, API.surveyPage, page.right);
    }),

    route(API.surveySubmit, async (answers, req, res) => {
      const { org, key } = req.params as SurveyParams;
      const tenant = await tenantOf(org);
      if (!tenant) return refuse(res, invalid);
      // Counted before the survey's records are written, so a flood in parallel cannot slip past.
      const place = await limits.survey(normalizeOrganizationName(org) ?? org, key, clientOf(req).ip);
      if (!place.allowed) {
        res.setHeader('Retry-After', String(retryAfterSeconds(place.retryAfterMs)));
        return sendText(res, 429, 'ERR_TOO_MANY_REQUESTS: too many answers to this form; try again later');
      }
      const done = await completeSurvey({ store: tenant.store, clock: deps.clock, entities: tenant.entities() }, key, answers);
      if (isLeft(done)) return refuse(res, done.left);
      sendText(res, 200, done.right);
    }),
  ]);
};

/**
 * POST /api/surveytarget: 'save to target' of the survey response panel, as the signed-in caller
 * (the core's saveSurveyToTarget; the writes carry the session's effects like /api/executemultiple).
 */
export const surveyRecordRoutes = (deps: { sessions: SessionStore; clock: Clock }, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.surveySaveToTarget, async (request, _req, res) => {
      const s = signed(res);
      const writes = withWriteEffects(s.tenant.store, { sessions: deps.sessions, clock: deps.clock }, { orgName: s.session.orgName, sessionName: s.session.name });
      const store = { retrieveById: s.tenant.store.retrieveById.bind(s.tenant.store), executeMultiple: writes.executeMultiple };
      const saved = await saveSurveyToTarget({ store, entities: s.tenant.entities(), ids: { newId: randomUUID } }, s.caller, request);
      if (isLeft(saved)) return sendDomainError(res, saved.left);
      sendText(res, 200, saved.right);
    }),
  ]);
