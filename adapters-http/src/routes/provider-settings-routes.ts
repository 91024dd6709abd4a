import type { RequestHandler, Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { API, requireAdministrator, type ProviderSettingsAnswer } from '@tessera/core/internal';
import { sendDomainError } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';
import type { ProviderRouteDeps } from './provider-routes.js';

/** The provider settings are the server's, shown to administrators only (issue 18). */
const ADMINISTRATORS_ONLY = 'the sign-in provider settings are for administrators';

/**
 * GET /api/admin/providers: which sign-in providers this server has and how each is set up (its
 * protocol, client id, addresses, scope, the callback address to register), the secret only as
 * set or not, and the variables that set it (docs/operations.md "Sign-in providers").
 */
export const providerSettingsRoutes = (deps: Pick<ProviderRouteDeps, 'identity' | 'publicUrl' | 'allowedOrigins'>, guard: RequestHandler): Router =>
  routerOf(guard, [
    route(API.providerSettings, async (_none, req, res) => {
      const admin = requireAdministrator(signed(res).caller, ADMINISTRATORS_ONLY);
      if (isLeft(admin)) return sendDomainError(res, admin.left);
      const base = deps.publicUrl ? deps.publicUrl.replace(/\/+$/, '') : `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      const answer: ProviderSettingsAnswer = {
        providers: deps.identity.settings().map((s) => ({ ...s, variables: [...s.variables], callbackUrl: `${base}/auth/callback/${s.provider}` })),
        publicUrl: deps.publicUrl ?? null,
        allowedOrigins: [...(deps.allowedOrigins ?? [])],
      };
      sendAnswer(res, API.providerSettings, answer);
    }),
  ]);
