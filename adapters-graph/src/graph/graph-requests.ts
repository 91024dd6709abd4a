import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { GraphErrorBody, graphRequestFailed, type GatewayFailure, type GraphFailure, type GraphUser } from '@tessera/core/internal';

/**
 * The tokens Graph calls are made with, and where "the user's own" resources are: `/me` with a
 * delegated (on-behalf-of) token, `/users/{email}` with the application's token.
 */
export interface GraphUserTokens {
  /** `renew` skips any kept token: Graph has just answered 401 to the kept one. */
  tokenFor(user: GraphUser, renew: boolean): Promise<Either<GatewayFailure, string>>;
  userPath(user: GraphUser): string;
}

export type GraphRequestOptions = {
  /** The longest Retry-After honoured; a longer one fails the call at once (a request must not hang for minutes). */
  maxRetryAfterMs: number;
  /** How many times one call waits out 429/503 before it fails. */
  maxThrottleRetries: number;
  timeoutMs: number;
  /** Waiting, replaceable in tests. */
  sleep: (ms: number) => Promise<void>;
};

export const DEFAULT_GRAPH_REQUEST_OPTIONS: GraphRequestOptions = {
  maxRetryAfterMs: 10_000,
  maxThrottleRetries: 3,
  timeoutMs: 30_000,
  sleep: (ms) => new Promise((ok) => setTimeout(ok, ms)),
};

/** Graph JSON answers longer than this are refused (a page of 200 items with thumbnails is far smaller). */
const MAX_JSON_ANSWER = 16 * 1024 * 1024;

export type GraphCall = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A path below the Graph base (`/me/calendars`) or an absolute address Graph gave (`@odata.nextLink`, an upload URL). */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw bytes instead of JSON (uploads). */
  bytes?: Uint8Array;
  /** Upload session URLs are pre-authenticated: Graph's documentation says not to send the token there. */
  anonymous?: boolean;
};

/** Retry-After is seconds (or an HTTP date); absent, Graph's guidance is to back off: one second. */
const retryAfterMs = (h: string | null, now: number): number => {
  if (!h) return 1000;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const d = Date.parse(h);
  return Number.isFinite(d) ? Math.max(0, d - now) : 1000;
};

/**
 * One Graph request with Graph's documented failure handling: 429 and 503 wait Retry-After
 * (bounded) and try again; a 401 (InvalidAuthenticationToken, the token expired) renews the
 * token once and tries again; any other status of 400 or above is the spec's 'Request [{path}]
 * failed: {text}' (the text is Graph's error message). Addresses Graph hands back (nextLink) are
 * followed only on Graph's own origin, so the token never leaves for another host.
 */
export class GraphRequests {
  private readonly origin: string;

  constructor(
    readonly baseUrl: string,
    readonly tokens: GraphUserTokens,
    private readonly options: GraphRequestOptions = DEFAULT_GRAPH_REQUEST_OPTIONS,
  ) {
    this.origin = new URL(baseUrl).origin;
  }

  /** The path as the error text names it: without the host and the query. */
  private shownPath(url: URL): string {
    const base = new URL(this.baseUrl).pathname.replace(/\/$/, '');
    const p = decodeURIComponent(url.pathname);
    return p.startsWith(base) ? p.slice(base.length) || '/' : p;
  }

  private urlOf(c: GraphCall): Either<GraphFailure, URL> {
    let url: URL;
    if (/^https?:\/\//i.test(c.path)) {
      url = new URL(c.path);
      if (!c.anonymous && url.origin !== this.origin) return left({ kind: 'UPSTREAM', message: graphRequestFailed(url.pathname, `Graph linked to another host (${url.host})`) });
    } else url = new URL(this.baseUrl.replace(/\/$/, '') + c.path);
    for (const [k, v] of Object.entries(c.query ?? {})) url.searchParams.set(k, v);
    return right(url);
  }

  /** The answer decoded with `codec`; `null` codec for answers without a body (204). */
  async send<A>(user: GraphUser, c: GraphCall, codec: t.Type<A, unknown, unknown> | null): Promise<Either<GraphFailure, { status: number; body: A | undefined }>> {
    const url = this.urlOf(c);
    if (isLeft(url)) return url;
    const shown = this.shownPath(url.right);
    const failed = (kind: GraphFailure['kind'], text: string): Either<GraphFailure, never> => left({ kind, message: graphRequestFailed(shown, text) });
    let renewed = false;
    let throttled = 0;
    for (;;) {
      const headers: Record<string, string> = { accept: 'application/json', ...(c.headers ?? {}) };
      if (!c.anonymous) {
        const token = await this.tokens.tokenFor(user, renewed);
        if (isLeft(token)) return left({ kind: token.left.kind === 'NOT_CONFIGURED' ? 'NOT_CONFIGURED' : 'UPSTREAM', message: graphRequestFailed(shown, token.left.message) });
        headers.authorization = `Bearer ${token.right}`;
      }
      let body: RequestInit['body'];
      if (c.bytes) {
        body = c.bytes as unknown as RequestInit['body'];
        headers['content-type'] ??= 'application/octet-stream';
      } else if (c.body !== undefined) {
        body = JSON.stringify(c.body);
        headers['content-type'] = 'application/json';
      }
      let res: Response;
      try {
        res = await fetch(url.right, { method: c.method, headers, body, redirect: 'error', signal: AbortSignal.timeout(this.options.timeoutMs) });
      } catch (e) {
        return failed('UPSTREAM', `Graph cannot be reached (${(e as Error).message})`);
      }
      if (res.status === 429 || res.status === 503) {
        const wait = retryAfterMs(res.headers.get('retry-after'), Date.now());
        await res.body?.cancel();
        if (throttled >= this.options.maxThrottleRetries || wait > this.options.maxRetryAfterMs)
          return failed('UPSTREAM', `${res.status === 429 ? 'too many requests' : 'service unavailable'}; retry after ${Math.ceil(wait / 1000)} s`);
        throttled++;
        await this.options.sleep(wait);
        continue;
      }
      if (res.status === 401 && !renewed && !c.anonymous) {
        await res.body?.cancel();
        renewed = true;
        continue;
      }
      const text = await this.readText(res);
      if (text === null) return failed('UPSTREAM', 'the answer was too long or broke off');
      if (res.status >= 400) {
        const kind = res.status === 404 ? 'NOT_FOUND' : res.status === 409 ? 'CONFLICT' : 'UPSTREAM';
        return failed(kind, errorTextOf(res, text));
      }
      if (codec === null || text === '') return right({ status: res.status, body: undefined });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return failed('UPSTREAM', `Graph answered ${res.status} without JSON`);
      }
      const decoded = codec.decode(json);
      if (isLeft(decoded)) return failed('UPSTREAM', `Graph answered an unexpected ${codec.name}`);
      return right({ status: res.status, body: decoded.right });
    }
  }

  /**
   * Every item of a collection: the first page, then each `@odata.nextLink` (which carries the
   * query already), at most `maxPages` pages.
   */
  async pages<A>(user: GraphUser, first: GraphCall, codec: t.Type<{ value: A[]; '@odata.nextLink'?: string }, unknown, unknown>, maxPages: number): Promise<Either<GraphFailure, A[]>> {
    const out: A[] = [];
    let next: GraphCall | null = first;
    for (let page = 0; next !== null && page < maxPages; page++) {
      const r: Either<GraphFailure, { status: number; body: { value: A[]; '@odata.nextLink'?: string } | undefined }> = await this.send(user, next, codec);
      if (isLeft(r)) return r;
      const body: { value: A[]; '@odata.nextLink'?: string } = r.right.body ?? { value: [] };
      out.push(...body.value);
      const link: string | undefined = body['@odata.nextLink'];
      next = link ? { method: 'GET', path: link, headers: first.headers } : null;
    }
    return right(out);
  }

  private async readText(res: Response): Promise<string | null> {
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_JSON_ANSWER) {
      await res.body?.cancel();
      return null;
    }
    try {
      const text = await res.text();
      return text.length > MAX_JSON_ANSWER ? null : text;
    } catch {
      // The connection broke off while the answer was coming.
      return null;
    }
  }
}

/** Graph's `error.message` (its `code` when there is no message), else the status line. */
const errorTextOf = (res: Response, text: string): string => {
  try {
    const b = GraphErrorBody.decode(JSON.parse(text));
    if (b._tag === 'Right') return b.right.error.message || b.right.error.code;
  } catch {
    /* not JSON: the status says it */
  }
  return `${res.status} ${res.statusText}`.trim();
};
