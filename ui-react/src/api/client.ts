import type { EntityRecord, FetchRequest, FetchResult } from '@tessera/core/internal';

/**
 * The one module that talks to the server, through the HTTP contract of API.md only.
 * The access token arrives in the `x-accessptoken` response header of /api/login and is sent
 * back in the same request header on every later call.
 */

export const TOKEN_HEADER = 'x-accessptoken';
const TOKEN_KEY = 'tessera.token';
const HOST_KEY = 'tessera.apiHost';
/** The browser event raised when the server answers 401 / NOT AUTHORIZED (spec 000 section 4). */
export const UNAUTHORIZED_EVENT = 'tessera:unauthorized';
/** Raised when the session token changes (a sign-in or a sign-out): what was loaded for the old one is stale. */
export const TOKEN_CHANGED_EVENT = 'tessera:tokenChanged';

/** 'Server Error: {text}' carrying the status and status text (spec 000 section 8). */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly text: string,
  ) {
    super(`Server Error: ${text || statusText}`);
    this.name = 'ServerError';
  }
  /** The error code before the colon: ERR_8001, ERR_PERMISSION... */
  get code(): string {
    const m = /^([A-Z_0-9]+):/.exec(this.text);
    return m ? m[1] : '';
  }
}

/** A login failure as the server sends it: `{ reason, message }` (spec 000 section 8). */
export type LoginFailure = { reason: string; message: string };
export type LoginAnswer = { ok: true } | { ok: false; failure: LoginFailure };
export type MagicAnswer = { message: string; reason?: string; raw: string };
export type Puzzle = { salt: string; hash: string; cookie: string; iv: string };
export type SurveyAnswer = { ok: true; body: unknown } | { ok: false; status: number; text: string };
export type ExecuteItem = { operation: 'create' | 'update' | 'delete'; name: string; object: EntityRecord };
export type ExecuteResult = { id?: string; error?: string };
/** A session as /api/cache_debug lists it: `name` is a handle, never the token. */
export type SessionEntry = { name: string; orgname: string; username: string; created: string; modified: string; read: string; ip: string; agent: string };
export type ChangeEvent = { entity: string; id: string; operation: string; stamp: string };

const storage = {
  get: (k: string): string | null => {
    try {
      return localStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set: (k: string, v: string | null): void => {
    try {
      if (v === null) localStorage.removeItem(k);
      else localStorage.setItem(k, v);
    } catch {
      /* storage may be disabled; the session then lasts one page */
    }
  },
};

export class ApiClient {
  /** Host prefix for calls: empty (same origin), or the host part of an 'host#org' organization value. */
  host = storage.get(HOST_KEY) ?? '';
  get token(): string | null {
    return storage.get(TOKEN_KEY);
  }
  setToken(token: string | null): void {
    const changed = token !== this.token;
    storage.set(TOKEN_KEY, token);
    if (changed) window.dispatchEvent(new Event(TOKEN_CHANGED_EVENT));
  }
  setHost(host: string): void {
    this.host = host;
    storage.set(HOST_KEY, host || null);
  }
  url(path: string): string {
    if (!this.host) return path;
    const base = /^https?:\/\//.test(this.host) ? this.host : `${location.protocol}//${this.host}`;
    return base.replace(/\/$/, '') + path;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { Accept: 'application/json', ...extra };
    const token = this.token;
    if (token) h[TOKEN_HEADER] = token;
    return h;
  }

  private async send(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
    const res = await fetch(this.url(path), { ...init, headers: this.headers(init.headers) });
    const renewed = res.headers.get(TOKEN_HEADER);
    if (renewed) this.setToken(renewed);
    if (res.status === 401 || res.statusText === 'NOT AUTHORIZED') window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    return res;
  }

  /** A data call: JSON in, JSON or text out; any non-2xx answer throws ServerError. */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, asText = false): Promise<T> {
    const res = await this.send(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new ServerError(res.status, res.statusText, text);
    if (asText) return text as T;
    return (text ? JSON.parse(text) : null) as T;
  }

  private form(path: string, fields: Record<string, string | undefined>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
    return this.send(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  /** POST /api/login; the token comes back in the x-accessptoken header. */
  login(organization: string, username: string, password: string): Promise<LoginAnswer> {
    return this.signIn('/api/login', { username, password, organization });
  }

  private async signIn(path: string, fields: Record<string, string>): Promise<LoginAnswer> {
    try {
      const res = await this.form(path, fields);
      const token = res.headers.get(TOKEN_HEADER);
      if (res.ok && token) {
        this.setToken(token);
        return { ok: true };
      }
      const text = await res.text();
      try {
        const json = JSON.parse(text) as Partial<LoginFailure>;
        return { ok: false, failure: { reason: json.reason ?? '', message: json.message ?? '' } };
      } catch {
        // Spec 000 section 8: a body that is not JSON shows ERR_SERVER with the status text.
        return { ok: false, failure: { reason: 'ERR_SERVER', message: res.statusText } };
      }
    } catch (e) {
      return { ok: false, failure: { reason: 'ERR_UNKNOWN', message: e instanceof Error ? e.message : String(e) } };
    }
  }

  /** POST /api/getmagic: a sign-in link, a forgot-password link (USER_FORGOT), or an invitation (INVITE). */
  async getMagic(fields: { username: string; organization: string; ret?: string; reason?: string }): Promise<MagicAnswer> {
    const res = await this.form('/api/getmagic', fields);
    const raw = await res.text();
    try {
      const json = JSON.parse(raw) as { message?: string; reason?: string } | string;
      if (typeof json === 'string') return { message: json, raw };
      return { message: json.message ?? json.reason ?? '', reason: json.reason, raw };
    } catch {
      return { message: raw.trim(), raw };
    }
  }

  /** POST /api/mustchangepassword: the old password (or the link token) proves who asks; answers like login. */
  async mustChangePassword(f: { username: string; password: string; organization: string; newPassword: string }): Promise<LoginAnswer> {
    return this.signIn('/api/mustchangepassword', f);
  }

  /** POST /api/changepassword: text answer, OK means success. */
  async changePassword(f: { oldPassword?: string; newPassword: string; userId: string }): Promise<string> {
    const res = await this.form('/api/changepassword', f);
    return (await res.text()).trim();
  }

  formPuzzle(): Promise<Puzzle> {
    return this.call<Puzzle>('GET', '/api/formpuzzle');
  }

  async signup(f: { organization: string; person: string; username: string; password: string; cookie: string; iv: string; solved: string }): Promise<{ ok: boolean; text: string }> {
    const res = await this.form('/api/signup', f);
    const token = res.headers.get(TOKEN_HEADER);
    if (token) this.setToken(token);
    return { ok: res.ok, text: await res.text() };
  }

  async trial(f: { person: string; username: string; password: string; organization: string }): Promise<{ ok: boolean; text: string }> {
    const res = await this.form('/api/trial', f);
    const token = res.headers.get(TOKEN_HEADER);
    if (token) this.setToken(token);
    return { ok: res.ok, text: (await res.text()).trim() };
  }

  /** Spec 000 section 4: logout calls the logout endpoint and then the 401 endpoint. */
  async logout(): Promise<void> {
    try {
      await fetch(this.url('/api/logout'), { method: 'POST', headers: this.headers() });
      await fetch(this.url('/api/401'), { headers: this.headers() });
    } finally {
      this.setToken(null);
    }
  }

  getUserContext(): Promise<unknown> {
    return this.call<unknown>('GET', '/api/getusercontext');
  }

  fetch(request: FetchRequest): Promise<FetchResult> {
    return this.call<FetchResult>('POST', '/api/fetch', request);
  }

  /** POST /api/update: answers the id as text. */
  async update(operation: 'create' | 'update' | 'delete', name: string, object: EntityRecord): Promise<string> {
    const text = await this.call<string>('POST', '/api/update', { operation, name, object }, true);
    return text.trim().replace(/^"|"$/g, '');
  }

  /** GET /api/cache_debug: the organization's sessions (administrators only). */
  cacheDebug(): Promise<SessionEntry[]> {
    return this.call<SessionEntry[]>('GET', '/api/cache_debug');
  }

  /** GET /api/cache_debug_delete?name=: ends one session, named by its handle. */
  async cacheDebugDelete(name: string): Promise<void> {
    await this.call<string>('GET', `/api/cache_debug_delete?name=${encodeURIComponent(name)}`, undefined, true);
  }

  executeMultiple(items: ExecuteItem[]): Promise<ExecuteResult[]> {
    return this.call<ExecuteResult[]>('POST', '/api/executemultiple', items);
  }

  async sseToken(): Promise<string> {
    const body = await this.call<string>('GET', '/api/ssetoken', undefined, true);
    try {
      const json = JSON.parse(body) as { token?: string } | string;
      return typeof json === 'string' ? json : (json.token ?? '');
    } catch {
      return body.trim();
    }
  }

  streamUrl(token: string, since: string): string {
    return this.url(`/api/stream?token=${encodeURIComponent(token)}&since=${encodeURIComponent(since)}`);
  }

  async getSurvey(org: string, key: string): Promise<SurveyAnswer> {
    const res = await fetch(this.url(`/api/survey/${encodeURIComponent(org)}/${encodeURIComponent(key)}`), { headers: { Accept: 'application/json' } });
    const text = await res.text();
    if (!res.ok) return { ok: false, status: res.status, text };
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      return { ok: false, status: res.status, text };
    }
  }

  async submitSurvey(org: string, key: string, answers: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
    const res = await fetch(this.url(`/api/survey/${encodeURIComponent(org)}/${encodeURIComponent(key)}`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(answers),
    });
    return { ok: res.ok, text: await res.text() };
  }

  /** POST /api/apperror; never throws (error reporting must not raise errors of its own). */
  async appError(report: Record<string, unknown>): Promise<void> {
    try {
      await fetch(this.url('/api/apperror'), {
        method: 'POST',
        headers: this.headers({ 'Content-Type': 'application/json' }),
        body: JSON.stringify(report),
      });
    } catch {
      /* nothing more to do */
    }
  }

  /** The browser address of a provider sign-in (spec 000 section 7). */
  providerUrl(provider: string, organization: string, redirectUrl: string, puzzle?: string): string {
    const q = new URLSearchParams({ redirectUrl, origin: location.origin });
    if (puzzle !== undefined) q.set('puzzle', puzzle);
    const path = puzzle === undefined ? `/auth/${provider}/${encodeURIComponent(organization)}` : `/auth/${provider}/signup/${encodeURIComponent(organization)}`;
    return this.url(`${path}?${q.toString()}`);
  }
}
