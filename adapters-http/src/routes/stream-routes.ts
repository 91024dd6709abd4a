import type { RequestHandler, Router } from 'express';
import { isRight } from 'fp-ts/lib/Either.js';
import {
  API,
  ChangeVisibility,
  STREAM_TOKEN_VALIDITY_MS,
  type Change,
  type Clock,
  type SessionStore,
} from '@tessera/core/internal';
import type { CallerCache } from '../caller-cache.js';
import { sendNotAuthorized, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';
import { StreamLimits } from '../stream-limits.js';
import type { TenantRegistry as Tenants } from '@tessera/core/internal';

/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;

/**
 * GET /api/ssetoken and GET /api/stream?token=T&since=ISO (API.md "Realtime"). The stream token
 * opens streams for one minute (so an EventSource may reconnect with it); each stream carries
 * the changes of the token's organization only, and of those only the records its user may
 * read now. A deleted record can no longer be checked: its deletion is sent to users who read
 * every record of the entity (organization level). A session, and a user, may have only so many
 * streams open at once (`limits`; 429 beyond), and whether a change reaches a user is decided
 * once for all of the user's streams (issue 22 item 7).
 */
export const streamRoutes = (
  deps: { sessions: SessionStore; tenants: Tenants; callers: CallerCache; clock: Clock; limits?: StreamLimits },
  guard: RequestHandler,
): Router => {
  const limits = deps.limits ?? new StreamLimits();
  // One visibility decider per organization's store, shared by the streams of its users.
  const visibility = new WeakMap<object, ChangeVisibility>();
  const visibilityOf = (store: ConstructorParameters<typeof ChangeVisibility>[0]): ChangeVisibility => {
    let v = visibility.get(store);
    if (!v) visibility.set(store, (v = new ChangeVisibility(store)));
    return v;
  };
  return routerOf(guard, [
    route(API.streamToken, async (_none, _req, res) => {
      const s = signed(res);
      const expires = new Date(deps.clock.now().getTime() + STREAM_TOKEN_VALIDITY_MS);
      const token = await deps.sessions.createLink(
        { orgName: s.session.orgName, userId: s.session.userId, purpose: 'STREAM' },
        expires,
      );
      limits.issued(token, s.token, expires, deps.clock.now());
      sendAnswer(res, API.streamToken, { token, expires: expires.toISOString() });
    }),

    route(API.stream, async (query, req, res) => {
      const token = query.token ?? '';
      const since =
        query.since !== undefined && !Number.isNaN(Date.parse(query.since))
          ? new Date(query.since).toISOString()
          : undefined;
      const link = await findStreamLink(deps.sessions, token, deps.clock.now());
      if (!link) return sendNotAuthorized(res);
      const tenant = await deps.tenants.open(link.orgName);
      const session = { orgName: link.orgName, userId: link.userId } as Parameters<CallerCache['callerOf']>[1];
      const first = await deps.callers.callerOf(tenant, session);
      if (!isRight(first)) return sendNotAuthorized(res);
      const opened = limits.open(token, link.orgName, link.userId);
      if ('refused' in opened) {
        res.setHeader('Retry-After', String(HEARTBEAT_MS / 1000));
        return sendText(res, 429, `ERR_TOO_MANY_STREAMS: at most ${opened.max} realtime streams per ${opened.refused} at once`);
      }
      const decider = visibilityOf(tenant.store);

      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write(': open\n\n');

      // Changes leave in the order they were made. Those that arrive while a check runs (an import's
      // batch publishes a thousand at once) are checked together: one read per entity, not per change.
      let pending: Change[] = [];
      let draining = false;
      const drain = async (): Promise<void> => {
        while (pending.length > 0) {
          const batch = pending;
          pending = [];
          const now = await deps.callers.callerOf(tenant, session);
          if (!isRight(now)) continue;
          const visible = await decider.visibleToMany(now.right, batch).catch(() => batch.map(() => false));
          const text = batch.flatMap((change, i) => (visible[i] ? [`id: ${change.stamp}\ndata: ${JSON.stringify(change)}\n\n`] : [])).join('');
          if (text && !res.writableEnded) res.write(text);
        }
      };
      const startDraining = (): void => {
        if (draining || pending.length === 0) return;
        draining = true;
        void drain()
          .catch(() => undefined)
          .finally(() => {
            draining = false;
            startDraining(); // a change that came as the last check ended
          });
      };
      const unsubscribe = tenant.feed.subscribe((change) => {
        pending.push(change);
        startDraining();
      }, since);
      // A stream lives as long as its user has a session: after the last logout it ends.
      const heartbeat = setInterval(() => {
        deps.sessions.list(link.orgName).then(
          (list) => (list.some((x) => x.userId === link.userId) ? res.write(': keep-alive\n\n') : res.end()),
          () => res.end(),
        );
      }, HEARTBEAT_MS);
      req.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        opened.close();
      });
    }),
  ]);
};

/** The stream token's link, when it is valid for this moment: the link row names the organization. */
const findStreamLink = async (sessions: SessionStore, token: string, now: Date) => {
  if (!token) return null;
  const found = await sessions.redeemLink(null, token, now, true);
  if (found._tag === 'Redeemed' && found.link.purpose === 'STREAM') return found.link;
  return null;
};
