import { createHash, randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
  isProviderName,
  normalizeOrganizationName,
  checkSignUpPuzzle,
  graphUserKey,
  type Clock,
  type IdentityProvider,
  type OrganizationDirectory,
  type ProviderFailure,
  type ProviderName,
  type ProviderSignInService,
  type ProviderTokens,
  type SessionStore,
} from '@tessera/core/internal';
import type { PuzzleSeal } from '../auth/puzzle-seal.js';
import { route, routerOf } from '../route.js';
import { clientOf } from './form-fields.js';
import { sendProviderRefusal, type FailureContext } from './provider-failure-page.js';
import { cookieOf, flowCookieName, originOf, PROVIDER_FLOW_VALIDITY_MS, safeRedirectPath, type ProviderFlow, type ProviderFlowSeal } from './provider-flow.js';

export type ProviderRouteDeps = {
  identity: IdentityProvider;
  providerSignIn: ProviderSignInService;
  directory: OrganizationDirectory;
  sessions: SessionStore;
  puzzles: PuzzleSeal;
  flows: ProviderFlowSeal;
  clock: Clock;
  logger: Logger;
  /** TESSERA_PUBLIC_URL when set: the callback address given to providers is built on it; else on the request's own address. */
  publicUrl?: string;
  /** Origins besides this server's own that a sign-in may return to (TESSERA_AUTH_ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /** Where a provider's access token is kept for on-behalf-of calls (Microsoft Graph; issue 18). */
  providerTokens?: ProviderTokens;
};

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const first = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Refusals of a provider sign-in are text, like the other sign-in refusals (docs/api.md); a
 * browser gets them as a page that links back to /login (issue 18), of the client and the
 * organization the flow knows (`res.locals.providerFailure`).
 */
const refuse = (res: Response, status: number, text: string): void =>
  sendProviderRefusal(res, status, text, (res.locals.providerFailure as FailureContext | undefined) ?? {});

const sendProviderFailure = (res: Response, f: ProviderFailure): void =>
  f.kind === 'NOT_CONFIGURED' ? refuse(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`) : refuse(res, 502, `ERR_LOGIN: ${f.message}`);

/**
 * The provider sign-in of spec 000 section 7: `GET /auth/{provider}/{organization}` and
 * `GET /auth/{provider}/signup/{organization}` send the browser to the provider; the provider
 * returns it to `/auth/callback/{provider}`, which signs in (or creates the organization) and
 * sends the browser to `{origin}{redirectUrl}#token={token}`.
 */
export const providerRoutes = (deps: ProviderRouteDeps): Router => {
  const ownOrigin = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const base = (req: Request): string => (deps.publicUrl ? deps.publicUrl.replace(/\/+$/, '') : ownOrigin(req));
  const allowed = (req: Request, origin: string): boolean =>
    origin === ownOrigin(req) || origin === originOf(base(req)) || (deps.allowedOrigins ?? []).some((o) => originOf(o) === origin);

  type StartQuery = { redirectUrl?: string; origin?: string; puzzle?: string };
  const start = async (req: Request, res: Response, mode: ProviderFlow['mode'], query: StartQuery): Promise<void> => {
    const provider = String(req.params.provider);
    if (!isProviderName(provider)) return refuse(res, 404, `ERR_NOT_FOUND: no sign-in provider ${provider.slice(0, 50)}`);
    if (!deps.identity.configured().includes(provider)) return refuse(res, 501, `ERR_NOT_CONFIGURED: sign-in with ${provider} is not configured on this server`);
    const org = normalizeOrganizationName(String(req.params.organization));
    if (!org) return refuse(res, 400, 'ERR_INPUT: the organization name is not valid');
    res.locals.providerFailure = { org } satisfies FailureContext;
    const redirectUrl = safeRedirectPath(query.redirectUrl ?? '');
    if (redirectUrl === null) return refuse(res, 400, 'ERR_INPUT: redirectUrl must be a path of this site');
    const origin = (query.origin ?? '') === '' ? ownOrigin(req) : originOf(query.origin ?? '');
    if (origin === null || !allowed(req, origin)) return refuse(res, 400, 'ERR_INPUT: origin is not an address of this site');
    res.locals.providerFailure = { org, origin } satisfies FailureContext;

    let puzzle: ProviderFlow['puzzle'];
    const now = deps.clock.now().getTime();
    if (mode === 'signup') {
      // The same proof of work as /api/signup, checked before the detour to the provider.
      let solved: { cookie?: unknown; iv?: unknown; solved?: unknown } = {};
      try {
        solved = JSON.parse((query.puzzle ?? '').slice(0, 8192) || '{}') as typeof solved;
      } catch {
        /* an unreadable puzzle is an invalid one */
      }
      const checked = await checkSignUpPuzzle(await deps.puzzles.open(first(solved.cookie), first(solved.iv)), first(solved.solved).slice(0, 100), deps.clock.now(), sha256Hex);
      if (isLeft(checked)) return refuse(res, 400, `${checked.left.code}: ${checked.left.message}`);
      if ((await deps.directory.status(org)) !== null) return refuse(res, 400, `ERR_INPUT: the organization ${org} exists already`);
      puzzle = { id: checked.right.id, expires: checked.right.expires };
    }

    const redirectUri = `${base(req)}/auth/callback/${provider}`;
    const started = await deps.identity.start(provider, redirectUri);
    if (isLeft(started)) return sendProviderFailure(res, started.left);
    const { state, nonce, codeVerifier } = started.right;
    const flow: ProviderFlow = { provider, mode, org, origin, redirectUrl, redirectUri, state, nonce, codeVerifier, puzzle, expires: now + PROVIDER_FLOW_VALIDITY_MS };
    const https = redirectUri.startsWith('https:');
    res.cookie(flowCookieName(state), await deps.flows.seal(flow), {
      httpOnly: true,
      path: '/auth/callback/',
      maxAge: PROVIDER_FLOW_VALIDITY_MS,
      secure: https,
      // A form_post callback (Apple) is a cross-site POST: only SameSite=None cookies come along, and those need https.
      sameSite: https ? 'none' : 'lax',
    });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, started.right.url);
  };


  const callback = async (req: Request, res: Response): Promise<void> => {
    const provider = String(req.params.provider);
    if (!isProviderName(provider)) return refuse(res, 404, `ERR_NOT_FOUND: no sign-in provider ${provider.slice(0, 50)}`);
    const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    const params: Record<string, string> = {};
    for (const k of ['code', 'state', 'iss', 'error', 'error_description', 'session_state', 'user']) {
      const v = first(source?.[k]);
      if (v !== '') params[k] = v.slice(0, 4096);
    }
    const state = params.state ?? '';
    const cookie = state ? flowCookieName(state) : '';
    const flow = cookie ? await deps.flows.open(cookieOf(req.headers.cookie, cookie)) : null;
    // The flow is bound to the browser that started it: a callback sent to someone else (login CSRF) finds no cookie.
    if (!flow || flow.state !== state || flow.provider !== provider || flow.expires <= deps.clock.now().getTime())
      return refuse(res, 400, 'ERR_LOGIN: this sign-in was not started in this browser, or it took longer than 10 minutes; please start it again');
    res.locals.providerFailure = { org: flow.org, origin: flow.origin } satisfies FailureContext;
    // One try per flow: whatever happens next, the cookie is gone.
    res.clearCookie(cookie, { path: '/auth/callback/', httpOnly: true, secure: flow.redirectUri.startsWith('https:'), sameSite: flow.redirectUri.startsWith('https:') ? 'none' : 'lax' });

    const identity = await deps.identity.finish(provider as ProviderName, params, flow);
    if (isLeft(identity)) {
      deps.logger.info({ provider, org: flow.org, reason: identity.left.message }, 'provider sign-in refused');
      return identity.left.kind === 'NOT_CONFIGURED' ? sendProviderFailure(res, identity.left) : refuse(res, 401, `ERR_LOGIN: ${provider} sign-in failed: ${identity.left.message}`);
    }
    if (flow.mode === 'signup' && flow.puzzle && !(await deps.sessions.usePuzzle(flow.puzzle.id, new Date(Math.max(flow.puzzle.expires, flow.expires)))))
      return refuse(res, 400, 'ERR_INPUT: the puzzle was used already');
    const signedIn =
      flow.mode === 'signup'
        ? await deps.providerSignIn.signUp(flow.org, identity.right, clientOf(req))
        : await deps.providerSignIn.signIn(flow.org, identity.right, clientOf(req));
    if (isLeft(signedIn)) return refuse(res, signedIn.left.status, `${signedIn.left.reason}: ${signedIn.left.message}`);
    const access = identity.right.accessToken;
    if (access) deps.providerTokens?.keep(graphUserKey(signedIn.right.session.orgName, signedIn.right.session.userId), provider, access.token, deps.clock.now().getTime() + 1000 * access.expiresIn);
    // The token travels in the fragment: browsers never send it to a server or put it in a Referer.
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `${flow.origin}${flow.redirectUrl}#token=${encodeURIComponent(signedIn.right.token)}&org=${encodeURIComponent(signedIn.right.session.orgName)}`);
  };

  // Sign-up and the callback are registered before /{provider}/{organization}, so that "signup"
  // and "callback" are never read as a provider or an organization.
  return routerOf(null, [
    route(API.providerSignUp, (query, req, res) => start(req, res, 'signup', query)),
    route(API.providerCallbackGet, (_params, req, res) => callback(req, res)),
    route(API.providerCallbackPost, (_params, req, res) => callback(req, res), express.urlencoded({ extended: false, limit: '16kb' })),
    route(API.providerSignIn, (query, req, res) => start(req, res, 'signin', query)),
  ]);
};

/** A secret nobody knows: the password of a user who signed up with a provider. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');
