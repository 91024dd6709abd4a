import * as t from 'io-ts';
import type { SessionInfo } from '../ports/session-store.js';
import { queryText } from './text-fields.js';

/** A session as /api/cache_debug lists it: `name` is a handle, never the token; times are ISO. */
export const SessionEntry = t.type(
  { name: t.string, orgname: t.string, username: t.string, created: t.string, modified: t.string, read: t.string, ip: t.string, agent: t.string },
  'SessionEntry',
);
export type SessionEntry = t.TypeOf<typeof SessionEntry>;
export const SessionList = t.array(SessionEntry, 'session list');

/** The wire form of a session of the SessionStore port. */
export const sessionEntryOf = (s: SessionInfo): SessionEntry => ({
  name: s.name,
  orgname: s.orgName,
  username: s.userName,
  created: s.created.toISOString(),
  modified: s.modified.toISOString(),
  read: s.read.toISOString(),
  ip: s.ip,
  agent: s.agent,
});

/** GET /api/cache_debug_delete?name=: the session handle (when missing the call answers that it is required). */
export const EndSessionQuery = t.type({ name: queryText }, 'cache_debug_delete query');

/** POST /api/apperror: a client's error report; the known fields are kept, anything else dropped. */
export const AppErrorReport = t.exact(
  t.partial({
    message: t.unknown,
    user: t.unknown,
    appId: t.unknown,
    orgName: t.unknown,
    context: t.unknown,
    app: t.unknown,
    navigator: t.unknown,
    url: t.unknown,
    error: t.unknown,
  }),
  'apperror body',
);
export type AppErrorReport = t.TypeOf<typeof AppErrorReport>;

/** GET /api/getusercontext[?appId=]. */
export const UserContextQuery = t.type({ appId: queryText }, 'getusercontext query');

/** GET /api/ssetoken: a short-lived token that opens /api/stream. */
export const StreamTokenAnswer = t.type({ token: t.string, expires: t.string }, 'stream token');
export type StreamTokenAnswer = t.TypeOf<typeof StreamTokenAnswer>;

/** GET /api/stream?token=T&since=ISO. */
export const StreamQuery = t.type({ token: queryText, since: queryText }, 'stream query');

/** One event of /api/stream: `data: { entity, id, operation, stamp }`. */
export const ChangeEvent = t.type(
  { entity: t.string, id: t.string, operation: t.keyof({ create: null, update: null, delete: null, restore: null }), stamp: t.string },
  'change event',
);
export type ChangeEvent = t.TypeOf<typeof ChangeEvent>;
