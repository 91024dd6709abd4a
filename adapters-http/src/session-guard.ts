import type { NextFunction, Request, Response } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Caller, SessionInfo, SignInService, Tenant, TenantRegistry } from '@tessera/core/internal';
import { tokenOf } from './auth/token-header.js';
import type { CallerCache } from './caller-cache.js';
import { sendDomainError, sendNotAuthorized } from './http-errors.js';

/** What a signed-in request carries once the guard let it through. */
export type Signed = { session: SessionInfo; tenant: Tenant; caller: Caller; token: string };

export const signed = (res: Response): Signed => res.locals as unknown as Signed;

/**
 * Lets a request through only with a live session: 401 NOT AUTHORIZED otherwise. The tenant is
 * the session's organization, whatever the request says, so a token reaches no other data.
 */
export const sessionGuard =
  (signIn: SignInService, tenants: TenantRegistry, callers: CallerCache) =>
  async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = tokenOf(req);
    const session = token ? await signIn.authenticate(token) : null;
    if (!session) return sendNotAuthorized(res);
    let tenant: Tenant;
    try {
      tenant = await tenants.open(session.orgName);
    } catch {
      // The organization's database is gone (removed by an operator): its sessions are of no use.
      await signIn.logout(token);
      return sendNotAuthorized(res);
    }
    const caller = await callers.callerOf(tenant, session);
    if (isLeft(caller)) return sendDomainError(res, caller.left);
    res.locals.session = session;
    res.locals.tenant = tenant;
    res.locals.caller = caller.right;
    res.locals.token = token;
    next();
  };
