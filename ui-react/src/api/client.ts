import { isLeft } from 'fp-ts/lib/Either.js';
import type { CloudCalendarAnswer, DriveDeleteRequest, DriveFileAnswer, DriveFolderRequest, DriveListAnswer, DriveListRequest, DriveRenameRequest } from '@tessera/core/internal';
import type { MetadataAppliedAnswer, MetadataApplyBody, MetadataChangeBody, MetadataPlanAnswer } from '@tessera/core/internal';
import {
  API,
  describeErrors,
  SignInFailureAnswer,
  type CallContract,
  type DocumentRequestBody,
  type ChangeEvent as ChangeEventShape,
  type EntityRecord,
  type ExportJobAnswer,
  type ExportLinkAnswer,
  type ExportRequestBody,
  type FetchRequest,
  type FetchResult,
  type Guid,
  type PuzzleAnswer,
  type SessionEntry as SessionEntryShape,
  type ProviderSettingsAnswer,
  type SurveyPageAnswer,
  type UserContext,
  type WhatsNextAnswer,
  type GeocodeAnswer,
  type GeocodeRequest,
  type WhatsNextRequest,
  type WriteItem,
} from '@tessera/core/internal';
import { blobPath, uploadBlob as sendBlob, type UploadProgress } from './blobs.js';
import type { BlobUploadAnswer } from '@tessera/core/internal';

/**
 * The one module that talks to the server, through the HTTP contract of API.md only: the calls
 * of the core's route table (API), their answers decoded with the same codecs the server uses.
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

/**
 * An answer that does not match the contract (core/src/api): a server of another version, or a
 * proxy's page. Shown like a server error, `ERR_CONTRACT: ...` naming the call and the path.
 */
export class AnswerMismatch extends ServerError {
  constructor(status: number, statusText: string, call: string, problems: readonly string[]) {
    super(status, statusText, `ERR_CONTRACT: the answer of ${call} does not match the contract: ${problems.slice(0, 3).join('; ')}`);
    this.name = 'AnswerMismatch';
  }
}

/** A login failure as the server sends it: `{ reason, message }` (spec 000 section 8). */
export type LoginFailure = { reason: string; message: string };
export type LoginAnswer = { ok: true } | { ok: false; failure: LoginFailure };
export type MagicAnswer = { message: string; reason?: string; raw: string };
/** A text call's outcome as the admin dialogs show it (spec 002 section 8: the text, else the status text). */
export type TextOutcome = { ok: boolean; status: number; statusText: string; text: string };
export type Puzzle = PuzzleAnswer;
export type SurveyAnswer = { ok: true; body: unknown } | { ok: false; status: number; text: string };
export type ExecuteItem = WriteItem;
export type ExecuteResult = { id?: string; error?: string };
/** A session as /api/cache_debug lists it: `name` is a handle, never the token. */
export type SessionEntry = SessionEntryShape;
export type ChangeEvent = ChangeEventShape;

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

  /**
   * A data call of the route table: JSON in; the answer decoded with the call's answer codec
   * (JSON), or its text. A non-2xx answer throws ServerError, an answer off the contract AnswerMismatch.
   */
  private async call<I, A>(contract: CallContract<I, A>, body?: I, path: string = contract.path, signal?: AbortSignal): Promise<A> {
    const res = await this.send(path, {
      method: contract.method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    if (!res.ok) throw new ServerError(res.status, res.statusText, text);
    const call = `${contract.method} ${contract.path}`;
    let raw: unknown = text;
    if (contract.answerKind === 'json') {
      try {
        raw = text ? JSON.parse(text) : null;
      } catch {
        throw new AnswerMismatch(res.status, res.statusText, call, ['the answer is not JSON']);
      }
    }
    const decoded = contract.answer.decode(raw);
    if (isLeft(decoded)) throw new AnswerMismatch(res.status, res.statusText, call, describeErrors(decoded.left));
    return decoded.right;
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
    return this.signIn(API.login.path, { username, password, organization });
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
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        // Spec 000 section 8: a body that is not JSON shows ERR_SERVER with the status text.
        return { ok: false, failure: { reason: 'ERR_SERVER', message: res.statusText } };
      }
      const failure = SignInFailureAnswer.decode(json);
      return { ok: false, failure: isLeft(failure) ? { reason: 'ERR_SERVER', message: res.statusText } : failure.right };
    } catch (e) {
      return { ok: false, failure: { reason: 'ERR_UNKNOWN', message: e instanceof Error ? e.message : String(e) } };
    }
  }

  /** POST /api/getmagic: a sign-in link, a forgot-password link (USER_FORGOT), or an invitation (INVITE). */
  async getMagic(fields: { username: string; organization: string; ret?: string; reason?: string }): Promise<MagicAnswer> {
    const res = await this.form(API.getMagic.path, fields);
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
    return this.signIn(API.mustChangePassword.path, f);
  }

  /** POST /api/changepassword: text answer, OK means success. */
  async changePassword(f: { oldPassword?: string; newPassword: string; userId: string }): Promise<TextOutcome> {
    const res = await this.form(API.changePassword.path, f);
    return { ok: res.ok, status: res.status, statusText: res.statusText, text: (await res.text()).trim() };
  }

  /** POST /api/getmagic with reason INVITE: mails an invitation link to a user (the answer text is not read). */
  async invite(f: { username: string; organization: string }): Promise<TextOutcome> {
    const res = await this.form(API.getMagic.path, { ...f, reason: 'INVITE' });
    return { ok: res.ok, status: res.status, statusText: res.statusText, text: (await res.text()).trim() };
  }

  /** POST /api/export/link: a one-time address the browser downloads the export (or a ready job's file) from. */
  async exportLink(body: ExportRequestBody | { job: string }): Promise<ExportLinkAnswer> {
    const link = await this.call(API.exportLink, body);
    return { ...link, url: this.url(link.url) };
  }

  /** POST /api/export/start: an export job (a PDF), followed with exportJob. */
  exportStart(body: ExportRequestBody): Promise<ExportJobAnswer> {
    return this.call(API.exportStart, body);
  }

  exportJob(id: string): Promise<ExportJobAnswer> {
    return this.call(API.exportJob, undefined, `${API.exportJob.path}?id=${encodeURIComponent(id)}`);
  }

  /** POST /api/document (issue 20): a record's document (PDF or Word) as a file and its name; an error answer throws ServerError. */
  async document(body: DocumentRequestBody, signal?: AbortSignal): Promise<{ blob: Blob; fileName: string }> {
    const res = await this.send(API.document.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
    if (!res.ok) throw new ServerError(res.status, res.statusText, await res.text());
    const disposition = res.headers.get('Content-Disposition') ?? '';
    const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    const plain = /filename="([^"]*)"/i.exec(disposition);
    return { blob: await res.blob(), fileName: utf8 ? decodeURIComponent(utf8[1]) : (plain?.[1] ?? `document.${body.format ?? 'pdf'}`) };
  }

  /**
   * POST /api/blob (issue 18): stores a File or Image field's file before the record is saved;
   * answers `{ name, size, contentType, fileName }` (the field keeps `name`). A failure throws
   * ServerError ('Server Error: {text}' with the status).
   */
  uploadBlob(entity: string, field: string, file: Blob, fileName: string, onProgress?: UploadProgress): Promise<BlobUploadAnswer> {
    return sendBlob(this, (status, statusText, text) => new ServerError(status, statusText, text), entity, field, file, fileName, onProgress);
  }

  /** The CloudFiles panel's drive (issue 18; docs/cloud-files.md): the record's folder, as the user. */
  driveList(body: DriveListRequest): Promise<DriveListAnswer> {
    return this.call(API.driveList, body);
  }
  driveFolder(body: DriveFolderRequest): Promise<DriveFileAnswer> {
    return this.call(API.driveFolder, body);
  }
  driveRename(body: DriveRenameRequest): Promise<DriveFileAnswer> {
    return this.call(API.driveRename, body);
  }
  async driveDelete(body: DriveDeleteRequest): Promise<void> {
    await this.call(API.driveDelete, body);
  }
  /** POST /api/drive/upload: the file as the raw body; `replace` overwrites a file of that name (else Graph renames). */
  async driveUpload(target: { entity: string; id: string; panel: string; path?: readonly string[] }, file: Blob, fileName: string, replace = false): Promise<DriveFileAnswer> {
    const q = new URLSearchParams({ entity: target.entity, id: target.id, panel: target.panel, fileName, ...(target.path?.length ? { path: target.path.join('/') } : {}), ...(replace ? { replace: 'true' } : {}) });
    const res = await this.send(`${API.driveUpload.path}?${q.toString()}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file });
    const text = await res.text();
    if (!res.ok) throw new ServerError(res.status, res.statusText, text);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AnswerMismatch(res.status, res.statusText, 'POST /api/drive/upload', ['the answer is not JSON']);
    }
    const answer = API.driveUpload.answer.decode(raw);
    if (isLeft(answer)) throw new AnswerMismatch(res.status, res.statusText, 'POST /api/drive/upload', describeErrors(answer.left));
    return answer.right;
  }
  /** The user's Outlook calendars' events in the window, read-only in the calendar view (issue 18). */
  cloudCalendar(start: string, end: string, signal?: AbortSignal): Promise<CloudCalendarAnswer> {
    return this.call(API.cloudCalendar, { start, end }, API.cloudCalendar.path, signal);
  }

  /** The signed download address of a stored blob for this user (`/api/blob/{org}/{name}?{sas}`); '' for an empty value. */
  blobUrl(ctx: Pick<UserContext, 'orgName' | 'sas'>, name: string): string {
    const path = blobPath(ctx, name);
    return path.startsWith('/') ? this.url(path) : path;
  }

  formPuzzle(): Promise<Puzzle> {
    return this.call(API.formPuzzle);
  }

  async signup(f: { organization: string; person: string; username: string; password: string; cookie: string; iv: string; solved: string }): Promise<{ ok: boolean; text: string }> {
    const res = await this.form(API.signUp.path, f);
    const token = res.headers.get(TOKEN_HEADER);
    if (token) this.setToken(token);
    return { ok: res.ok, text: await res.text() };
  }

  async trial(f: { person: string; username: string; password: string; organization: string; cookie: string; iv: string; solved: string }): Promise<{ ok: boolean; text: string }> {
    const res = await this.form(API.trial.path, f);
    const token = res.headers.get(TOKEN_HEADER);
    if (token) this.setToken(token);
    return { ok: res.ok, text: (await res.text()).trim() };
  }

  /** Spec 000 section 4: logout calls the logout endpoint and then the 401 endpoint. */
  async logout(): Promise<void> {
    try {
      await fetch(this.url(API.logout.path), { method: 'POST', headers: this.headers() });
      await fetch(this.url(API.notAuthorized.path), { headers: this.headers() });
    } finally {
      this.setToken(null);
    }
  }

  getUserContext(): Promise<UserContext> {
    return this.call(API.userContext);
  }

  fetch(request: FetchRequest): Promise<FetchResult> {
    return this.call(API.fetch, request);
  }

  /** POST /api/update: answers the id as text. */
  async update(operation: 'create' | 'update' | 'delete', name: string, object: EntityRecord): Promise<string> {
    const text = await this.call(API.update, { operation, name, object });
    return text.trim().replace(/^"|"$/g, '');
  }

  /** POST /api/metadata/plan: the migration plan of a metadata change (the metadata editor, issue 15). */
  metadataPlan(change: MetadataChangeBody): Promise<MetadataPlanAnswer> {
    return this.call(API.metadataPlan, change);
  }

  /** POST /api/metadata/apply: applies a reviewed change (`version` of its plan, each step that can lose data confirmed). */
  metadataApply(body: MetadataApplyBody): Promise<MetadataAppliedAnswer> {
    return this.call(API.metadataApply, body);
  }

  /** POST /api/whatsnext: a page of the What's Next list; `signal` cancels the load (a filter changed meanwhile). */
  whatsNext(request: WhatsNextRequest, signal?: AbortSignal): Promise<WhatsNextAnswer> {
    return this.call(API.whatsNext, request, API.whatsNext.path, signal);
  }

  /** POST /api/geocode: an address's coordinates (`{ q, city? }`) or the address at a point (`{ lat, lon }`); `match` null when none. */
  geocode(request: GeocodeRequest, signal?: AbortSignal): Promise<GeocodeAnswer> {
    return this.call(API.geocode, request, API.geocode.path, signal);
  }

  /** POST /api/distance: the directions answer (routes[0].legs) for the stops of a maps directions URL (the travel report). */
  distance(url: string, signal?: AbortSignal): Promise<unknown> {
    return this.call(API.distance, { url }, API.distance.path, signal);
  }

  /** GET /api/cache_debug: the organization's sessions (administrators only). */
  cacheDebug(): Promise<SessionEntry[]> {
    return this.call(API.sessionList);
  }

  /** GET /api/admin/providers: how the server's sign-in providers are set up, secrets hidden (administrators; issue 18). */
  providerSettings(): Promise<ProviderSettingsAnswer> {
    return this.call(API.providerSettings);
  }

  /** GET /api/cache_debug_delete?name=: ends one session, named by its handle. */
  async cacheDebugDelete(name: string): Promise<void> {
    await this.call(API.endSession, undefined, `${API.endSession.path}?name=${encodeURIComponent(name)}`);
  }

  /** POST /api/executemultiple; `atomic`: all or nothing, one answer per item either way (the list's batch save). */
  executeMultiple(items: ExecuteItem[], options: { atomic?: boolean } = {}): Promise<ExecuteResult[]> {
    return this.call(API.executeMultiple, options.atomic ? { records: items, atomic: true } : items);
  }

  async sseToken(): Promise<string> {
    return (await this.call(API.streamToken)).token;
  }

  streamUrl(token: string, since: string): string {
    return this.url(`${API.stream.path}?token=${encodeURIComponent(token)}&since=${encodeURIComponent(since)}`);
  }

  /** POST /api/surveytarget: 'save to target' of a survey record (the answers as the panel shows them); answers the target's id. */
  async saveSurveyToTarget(id: string, answers?: EntityRecord): Promise<string> {
    return (await this.call(API.surveySaveToTarget, { id: id as Guid, ...(answers ? { answers } : {}) })).trim();
  }

  /** The path of a survey call: `/api/survey/{org}/{key}` filled in. */
  private surveyPath(org: string, key: string): string {
    return API.surveyPage.path.replace('{org}', encodeURIComponent(org)).replace('{key}', encodeURIComponent(key));
  }

  async getSurvey(org: string, key: string): Promise<SurveyAnswer> {
    const res = await fetch(this.url(this.surveyPath(org, key)), { headers: { Accept: 'application/json' } });
    const text = await res.text();
    if (!res.ok) return { ok: false, status: res.status, text };
    try {
      const page = API.surveyPage.answer.decode(JSON.parse(text));
      return isLeft(page) ? { ok: false, status: res.status, text } : { ok: true, body: page.right satisfies SurveyPageAnswer };
    } catch {
      return { ok: false, status: res.status, text };
    }
  }

  async submitSurvey(org: string, key: string, answers: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
    const res = await fetch(this.url(this.surveyPath(org, key)), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(answers),
    });
    return { ok: res.ok, text: await res.text() };
  }

  /** POST /api/apperror; never throws (error reporting must not raise errors of its own). */
  async appError(report: Record<string, unknown>): Promise<void> {
    try {
      await fetch(this.url(API.appError.path), {
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
