/**
 * A loopback stand-in for Microsoft Graph and the identity platform's token endpoint, answering
 * as their documentation shows (learn.microsoft.com/graph/api/...):
 * - POST /{tenant}/oauth2/v2.0/token: client_credentials, and on-behalf-of
 *   (grant_type urn:ietf:params:oauth:grant-type:jwt-bearer, assertion, requested_token_use).
 * - The drive addressed by path: `{prefix}/root[:/a/b[:]][/children|/content|/createUploadSession]`
 *   for any prefix (`/me/drive`, `/users/{upn}/drive`, `/drives/{id}`), one drive for all of them.
 *   children with $select, $expand=thumbnails, $filter=startswith(name,'x') and pages joined by an
 *   absolute `@odata.nextLink`; POST children with @microsoft.graph.conflictBehavior; PATCH rename;
 *   DELETE 204; PUT :/content; createUploadSession, then PUT byte ranges to the pre-authenticated
 *   uploadUrl (202 with nextExpectedRanges, the item on the last; a bearer token there is 401).
 * - `{prefix}/calendars` and `{prefix}/calendars/{id}/calendarView?startDateTime&endDateTime&$top`.
 * - Failures: `throttle(n, seconds)` answers the next n Graph calls 429 with Retry-After;
 *   `expireTokens()` makes every issued token answer 401 InvalidAuthenticationToken; unknown
 *   items 404 itemNotFound; taken names 409 nameAlreadyExists.
 * `requests` records every call.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeGraphRequest = { method: string; path: string; query: URLSearchParams; authorization: string | null; contentRange: string | null; bytes: number };
export type FakeDriveItem = { id: string; name: string; parentId: string | null; folder: boolean; content: Buffer; mimeType: string; created: string; modified: string };
export type FakeCalendar = { id: string; name: string; hexColor?: string; events: Array<{ id: string; subject: string; start: string; end: string; webLink?: string; isCancelled?: boolean }> };
type Token = { value: string; user: string | null; expired: boolean };
type UploadSession = { id: string; parentId: string; name: string; conflict: string; received: Buffer[]; next: number; total: number | null };

export const FAKE_TENANT = 'tenant-1';
export const UPLOAD_CHUNK_MULTIPLE = 320 * 1024;

const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf', txt: 'text/plain', zip: 'application/zip' };
const mimeOf = (name: string): string => MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

export type FakeGraph = {
  /** http://127.0.0.1:port */
  origin: string;
  /** Graph's base: {origin}/v1.0 */
  graphUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Children per page (Graph's default is 200). */
  pageSize: number;
  requests: FakeGraphRequest[];
  tokenRequests: URLSearchParams[];
  items: Map<string, FakeDriveItem>;
  calendars: FakeCalendar[];
  /** Assertions the on-behalf-of grant accepts, to the user they stand for. */
  assertions: Map<string, string>;
  /** Calendars answer this error instead (status, code, message). */
  calendarFailure: { status: number; code: string; message: string } | null;
  /** Tokens are issued already expired (a refresh that does not help). */
  issueExpired: boolean;
  throttle(count: number, retryAfterSeconds: number): void;
  expireTokens(): void;
  /** Creates the folders of a path (and a file at its end when content is given); answers the last item. */
  seed(path: readonly string[], content?: Buffer | string): FakeDriveItem;
  find(path: readonly string[]): FakeDriveItem | undefined;
  childrenOf(path: readonly string[]): FakeDriveItem[];
  close(): Promise<void>;
};

export const startFakeGraph = async (): Promise<FakeGraph> => {
  const now = (): string => new Date().toISOString();
  const root: FakeDriveItem = { id: 'root', name: 'root', parentId: null, folder: true, content: Buffer.alloc(0), mimeType: '', created: now(), modified: now() };
  const items = new Map<string, FakeDriveItem>([[root.id, root]]);
  const tokens = new Map<string, Token>();
  const sessions = new Map<string, UploadSession>();
  let throttled = 0;
  let retryAfter = 1;
  let issued = 0;
  let origin = '';

  const kids = (id: string): FakeDriveItem[] => [...items.values()].filter((i) => i.parentId === id).sort((a, b) => a.name.localeCompare(b.name));
  const child = (id: string, name: string): FakeDriveItem | undefined => kids(id).find((i) => i.name.toLowerCase() === name.toLowerCase());
  const walk = (path: readonly string[]): FakeDriveItem | undefined => {
    let at: FakeDriveItem | undefined = root;
    for (const n of path) at = at && at.folder ? child(at.id, n) : undefined;
    return at;
  };
  const pathOf = (i: FakeDriveItem): string[] => (i.parentId === null ? [] : [...pathOf(items.get(i.parentId)!), i.name]);
  const isImage = (i: FakeDriveItem): boolean => i.mimeType.startsWith('image/');

  const driveItem = (i: FakeDriveItem, expandThumbs = false): Record<string, unknown> => ({
    id: i.id,
    name: i.name,
    size: i.folder ? kids(i.id).reduce((s, k) => s + k.content.length, 0) : i.content.length,
    createdDateTime: i.created,
    lastModifiedDateTime: i.modified,
    webUrl: `${origin}/web/${i.id}`,
    parentReference: { driveId: 'fake-drive', id: i.parentId ?? undefined, path: `/drive/root:${i.parentId ? `/${pathOf(items.get(i.parentId)!).join('/')}` : ''}` },
    createdBy: { user: { displayName: 'Fake User', email: 'fake@contoso.test' } },
    ...(i.folder ? { folder: { childCount: kids(i.id).length } } : { file: { mimeType: i.mimeType, hashes: {} }, '@microsoft.graph.downloadUrl': `${origin}/download/${i.id}?tempauth=${randomUUID()}` }),
    ...(expandThumbs ? { thumbnails: isImage(i) ? [{ id: '0', small: { url: `${origin}/thumb/${i.id}`, width: 96, height: 96 }, medium: { url: `${origin}/thumb/${i.id}`, width: 176, height: 176 }, large: { url: `${origin}/thumb/${i.id}`, width: 800, height: 800 } }] : [] } : {}),
  });

  const uniqueName = (parentId: string, name: string): string => {
    if (!child(parentId, name)) return name;
    const dot = name.lastIndexOf('.');
    const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 1; ; n++) if (!child(parentId, `${base} ${n}${ext}`)) return `${base} ${n}${ext}`;
  };

  const putFile = (parentId: string, name: string, content: Buffer, conflict: string): { status: number; item?: FakeDriveItem; error?: [number, string, string] } => {
    const existing = child(parentId, name);
    if (existing && existing.folder) return { status: 409, error: [409, 'nameAlreadyExists', 'The specified item name already exists.'] };
    if (existing && conflict === 'fail') return { status: 409, error: [409, 'nameAlreadyExists', 'The specified item name already exists.'] };
    if (existing && conflict !== 'rename') {
      existing.content = content;
      existing.modified = now();
      return { status: 200, item: existing };
    }
    const item: FakeDriveItem = { id: randomUUID(), name: existing ? uniqueName(parentId, name) : name, parentId, folder: false, content, mimeType: mimeOf(name), created: now(), modified: now() };
    items.set(item.id, item);
    return { status: 201, item };
  };

  /** Creates the folders of a path that are missing (PUT :/content does so in Graph). */
  const ensureFolders = (path: readonly string[]): FakeDriveItem => {
    let at = root;
    for (const n of path) {
      let next = child(at.id, n);
      if (!next) {
        next = { id: randomUUID(), name: n, parentId: at.id, folder: true, content: Buffer.alloc(0), mimeType: '', created: now(), modified: now() };
        items.set(next.id, next);
      }
      at = next;
    }
    return at;
  };

  const fake: FakeGraph = {
    origin: '',
    graphUrl: '',
    tokenUrl: '',
    clientId: 'fake-graph-client',
    clientSecret: 'fake-graph-secret',
    pageSize: 200,
    requests: [],
    tokenRequests: [],
    items,
    calendars: [],
    assertions: new Map(),
    calendarFailure: null,
    issueExpired: false,
    throttle(count, seconds) {
      throttled = count;
      retryAfter = seconds;
    },
    expireTokens() {
      for (const t of tokens.values()) t.expired = true;
    },
    seed(path, content) {
      if (content === undefined) return ensureFolders(path);
      const parent = ensureFolders(path.slice(0, -1));
      return putFile(parent.id, path[path.length - 1], Buffer.from(content), 'replace').item!;
    },
    find: walk,
    childrenOf: (path) => {
      const f = walk(path);
      return f ? kids(f.id) : [];
    },
    close: () => Promise.resolve(),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', origin);
    const body = await readBody(req);
    const authorization = req.headers.authorization ?? null;
    fake.requests.push({ method: req.method ?? 'GET', path: decodeURIComponent(url.pathname), query: url.searchParams, authorization, contentRange: (req.headers['content-range'] as string | undefined) ?? null, bytes: body.length });
    const json = (status: number, b: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json; odata.metadata=minimal; charset=utf-8', ...headers });
      res.end(JSON.stringify(b));
    };
    const graphError = (status: number, code: string, message: string, headers: Record<string, string> = {}): void =>
      json(status, { error: { code, message, innerError: { date: now(), 'request-id': randomUUID(), 'client-request-id': randomUUID() } } }, headers);

    // The identity platform's token endpoint.
    if (req.method === 'POST' && url.pathname === `/${FAKE_TENANT}/oauth2/v2.0/token`) {
      const form = new URLSearchParams(body.toString('utf8'));
      fake.tokenRequests.push(form);
      if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret)
        return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.', error_codes: [7000215] });
      let user: string | null = null;
      if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        user = fake.assertions.get(form.get('assertion') ?? '') ?? null;
        if (form.get('requested_token_use') !== 'on_behalf_of' || !user)
          return json(400, { error: 'invalid_grant', error_description: 'AADSTS50013: Assertion failed signature validation.', error_codes: [50013] });
      } else if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003: The app requested an unsupported grant type.' });
      const value = `eyJ0eXAiOiJKV1QiLCJub25jZSI6.fake-${user ? 'user' : 'app'}-${++issued}`;
      tokens.set(value, { value, user, expired: fake.issueExpired });
      return json(200, { token_type: 'Bearer', scope: form.get('scope') ?? '', expires_in: 3599, ext_expires_in: 3599, access_token: value });
    }

    // Pre-authenticated addresses: downloads, thumbnails, upload sessions.
    const pre = /^\/(download|thumb|upload)\/([\w-]+)$/.exec(url.pathname);
    if (pre) {
      if (pre[1] === 'upload') {
        const s = sessions.get(pre[2]);
        if (!s) return graphError(404, 'itemNotFound', 'The upload session was not found.');
        if (req.method === 'DELETE') {
          sessions.delete(s.id);
          res.writeHead(204).end();
          return;
        }
        if (authorization) return graphError(401, 'unauthenticated', 'The upload URL is pre-authenticated: no Authorization header may be sent.');
        const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((req.headers['content-range'] as string | undefined) ?? '');
        if (!m) return graphError(400, 'invalidRange', 'Content-Range is missing or malformed.');
        const [from, to, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
        if (from !== s.next || to - from + 1 !== body.length) return graphError(416, 'invalidRange', `Expected range ${s.next}-`);
        const last = to + 1 === total;
        if (!last && body.length % UPLOAD_CHUNK_MULTIPLE !== 0) return graphError(400, 'invalidRange', 'Fragments must be a multiple of 320 KiB.');
        s.received.push(body);
        s.next = to + 1;
        s.total = total;
        if (!last) return json(202, { expirationDateTime: new Date(Date.now() + 3600_000).toISOString(), nextExpectedRanges: [`${s.next}-`] });
        sessions.delete(s.id);
        const r = putFile(s.parentId, s.name, Buffer.concat(s.received), s.conflict);
        return r.item ? json(r.status, driveItem(r.item)) : graphError(...r.error!);
      }
      const item = items.get(pre[2]);
      if (!item || item.folder) return graphError(404, 'itemNotFound', 'The resource could not be found.');
      // Download URLs answer cross-origin reads (the preview fetches the bytes it turns).
      res.writeHead(200, { 'content-type': item.mimeType, 'content-length': String(item.content.length), 'access-control-allow-origin': '*' });
      res.end(item.content);
      return;
    }

    if (!url.pathname.startsWith('/v1.0/')) return graphError(404, 'BadRequest', `Resource not found for the segment '${url.pathname}'.`);
    // Graph: every call needs a valid token.
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const token = bearer ? tokens.get(bearer) : undefined;
    if (!token) return graphError(401, 'InvalidAuthenticationToken', 'IDX14100: JWT is not well formed, there are no dots (.).');
    if (token.expired) return graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
    if (throttled > 0) {
      throttled--;
      return graphError(429, 'TooManyRequests', 'Too many requests', { 'retry-after': String(retryAfter) });
    }
    const path = decodeURIComponent(url.pathname.slice('/v1.0'.length));
    if (path.startsWith('/me/') && !token.user) return graphError(400, 'BadRequest', '/me request is only valid with delegated authentication flow.');

    // Calendars.
    const cal = /^(?:\/me|\/users\/[^/]+)\/calendars(?:\/([^/]+)\/calendarView)?$/.exec(path);
    if (cal) {
      if (fake.calendarFailure) return graphError(fake.calendarFailure.status, fake.calendarFailure.code, fake.calendarFailure.message);
      if (!cal[1]) return json(200, { '@odata.context': `${fake.graphUrl}/$metadata#users('fake')/calendars`, value: fake.calendars.map((c) => ({ id: c.id, name: c.name, color: 'auto', hexColor: c.hexColor ?? '', canEdit: true, owner: { name: 'Fake User', address: 'fake@contoso.test' } })) });
      const c = fake.calendars.find((x) => x.id === cal[1]);
      if (!c) return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      const start = Date.parse(url.searchParams.get('startDateTime') ?? '');
      const end = Date.parse(url.searchParams.get('endDateTime') ?? '');
      if (!Number.isFinite(start) || !Number.isFinite(end)) return graphError(400, 'ErrorInvalidParameter', "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.");
      const top = Math.min(Number(url.searchParams.get('$top') ?? 10), 1000);
      const skip = Number(url.searchParams.get('$skip') ?? 0);
      const hits = c.events.filter((e) => Date.parse(`${e.start}Z`) < end && Date.parse(`${e.end}Z`) > start).sort((a, b) => a.start.localeCompare(b.start));
      const page = hits.slice(skip, skip + top);
      const more = skip + top < hits.length;
      const next = new URL(url.href);
      next.searchParams.set('$skip', String(skip + top));
      return json(200, {
        value: page.map((e) => ({ id: e.id, subject: e.subject, isCancelled: e.isCancelled ?? false, webLink: e.webLink ?? `https://outlook.office365.com/owa/?itemid=${e.id}`, start: { dateTime: `${e.start}.0000000`, timeZone: 'UTC' }, end: { dateTime: `${e.end}.0000000`, timeZone: 'UTC' } })),
        ...(more ? { '@odata.nextLink': next.href } : {}),
      });
    }

    // The drive, by path.
    const d = /^(?:\/me\/drive|\/users\/[^/]+\/drive|\/drives\/[^/]+|\/sites\/[^/]+\/drive)\/root(?::\/(.*?))?:?(\/children|\/content|\/createUploadSession)?$/.exec(path);
    if (!d) return graphError(400, 'BadRequest', `Resource not found for the segment '${path}'.`);
    const segments = (d[1] ?? '').split('/').filter((s) => s !== '');
    const action = d[2] ?? '';
    const target = walk(segments);
    if (action === '/children' && req.method === 'GET') {
      if (!target || !target.folder) return graphError(404, 'itemNotFound', 'The resource could not be found.');
      let list = kids(target.id);
      const filter = url.searchParams.get('$filter');
      if (filter) {
        const m = /^startswith\(name,'((?:[^']|'')*)'\)$/.exec(filter);
        if (!m) return graphError(400, 'invalidRequest', 'Invalid filter clause');
        const prefix = m[1].replace(/''/g, "'").toLowerCase();
        list = list.filter((i) => i.name.toLowerCase().startsWith(prefix));
      }
      const skip = Number(url.searchParams.get('$skiptoken') ?? 0);
      const page = list.slice(skip, skip + fake.pageSize);
      const expand = url.searchParams.get('$expand') === 'thumbnails';
      const next = new URL(url.href);
      next.searchParams.set('$skiptoken', String(skip + fake.pageSize));
      return json(200, { value: page.map((i) => driveItem(i, expand)), ...(skip + fake.pageSize < list.length ? { '@odata.nextLink': next.href } : {}) });
    }
    if (action === '/children' && req.method === 'POST') {
      if (!target || !target.folder) return graphError(404, 'itemNotFound', 'The resource could not be found.');
      const b = JSON.parse(body.toString('utf8') || '{}') as { name?: string; folder?: unknown; '@microsoft.graph.conflictBehavior'?: string };
      if (!b.name || b.folder === undefined) return graphError(400, 'invalidRequest', 'Invalid request');
      const conflict = b['@microsoft.graph.conflictBehavior'] ?? 'fail';
      const existing = child(target.id, b.name);
      if (existing && conflict === 'fail') return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
      if (existing && conflict === 'replace' && existing.folder) return json(200, driveItem(existing));
      const item: FakeDriveItem = { id: randomUUID(), name: existing ? uniqueName(target.id, b.name) : b.name, parentId: target.id, folder: true, content: Buffer.alloc(0), mimeType: '', created: now(), modified: now() };
      items.set(item.id, item);
      return json(201, driveItem(item));
    }
    if (action === '/content' && req.method === 'PUT') {
      if (segments.length === 0) return graphError(400, 'invalidRequest', 'Cannot upload to the root');
      const parent = ensureFolders(segments.slice(0, -1));
      const r = putFile(parent.id, segments[segments.length - 1], body, url.searchParams.get('@microsoft.graph.conflictBehavior') ?? 'replace');
      return r.item ? json(r.status, driveItem(r.item)) : graphError(...r.error!);
    }
    if (action === '/createUploadSession' && req.method === 'POST') {
      if (segments.length === 0) return graphError(400, 'invalidRequest', 'Cannot upload to the root');
      const b = JSON.parse(body.toString('utf8') || '{}') as { item?: { '@microsoft.graph.conflictBehavior'?: string } };
      const parent = ensureFolders(segments.slice(0, -1));
      const s: UploadSession = { id: randomUUID(), parentId: parent.id, name: segments[segments.length - 1], conflict: b.item?.['@microsoft.graph.conflictBehavior'] ?? 'replace', received: [], next: 0, total: null };
      sessions.set(s.id, s);
      return json(200, { uploadUrl: `${origin}/upload/${s.id}`, expirationDateTime: new Date(Date.now() + 3600_000).toISOString(), nextExpectedRanges: ['0-'] });
    }
    if (action === '') {
      if (!target) return graphError(404, 'itemNotFound', 'The resource could not be found.');
      if (req.method === 'GET') return json(200, driveItem(target));
      if (req.method === 'DELETE') {
        if (target === root) return graphError(403, 'accessDenied', 'Cannot delete the root');
        const drop = (i: FakeDriveItem): void => {
          for (const k of kids(i.id)) drop(k);
          items.delete(i.id);
        };
        drop(target);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'PATCH') {
        const b = JSON.parse(body.toString('utf8') || '{}') as { name?: string };
        if (b.name) {
          const clash = child(target.parentId ?? '', b.name);
          if (clash && clash !== target) return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
          target.name = b.name;
          if (!target.folder) target.mimeType = mimeOf(b.name);
          target.modified = now();
        }
        return json(200, driveItem(target));
      }
    }
    return graphError(405, 'invalidRequest', 'Method not allowed');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    origin,
    graphUrl: `${origin}/v1.0`,
    tokenUrl: `${origin}/${FAKE_TENANT}/oauth2/v2.0/token`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
};
