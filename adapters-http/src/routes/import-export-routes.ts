import type { Request, RequestHandler, Response, Router } from 'express';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { right, type Either } from 'fp-ts/lib/Either.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
  EXPORT_LINK_VALIDITY_MS,
  exportFileName,
  exportableEntity,
  exportPlan,
  exportRequest,
  importableEntity,
  importConfirmationText,
  importTemplate,
  loadExportDefaults,
  noObject,
  previewImport,
  resolveExportOptions,
  runImport,
  withWriteEffects,
  type Caller,
  type Clock,
  type DomainError,
  type Entity,
  type ExportJobAnswer,
  type ExportRequestBody,
  type FetchRequest,
  type RecordStore,
  type ExportWriter,
  type ImportFile,
  type ImportFiles,
  type ImportMode,
  type ImportSettings,
  type SessionStore,
  type Tenant,
} from '@tessera/core/internal';
import { TOKEN_HEADER } from '../auth/token-header.js';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed, type Signed } from '../session-guard.js';

/**
 * The import and export calls (issue 7, docs/api.md "Import and export"), behind the session
 * guard, with the caller's permissions applied by the store:
 * - POST /api/import/upload?entity=E&fileName=F[&match=FIELD&mode=update|skip|create]: the file
 *   as the raw body, streamed to a temporary file; answers the parsed, marked preview.
 * - POST /api/import/commit { uploadId, match?, mode? }: checks the file again and writes it in
 *   atomic batches; answers the result with its text.
 * - GET /api/import/template?entity=E: `import_{entity}.csv`.
 * - POST /api/export { query, format?, options?, ids? }: the file, streamed.
 * - POST /api/export/start (the same body): an export job written to a temporary file in the
 *   background; GET /api/export/job?id= its progress; GET /api/export/download?id= the file.
 *   A user runs at most EXPORTS_PER_USER exports at once, streamed or jobs (429 beyond).
 * - POST /api/export/link (an export body, or { job }): a one-time GET /api/export/file?ticket=
 *   for the browser's own download (a link cannot carry the session header); the ticket keeps
 *   the session's token on the server, and the file is served as if that session asked.
 * An upload belongs to the user and organization that sent it and is kept for UPLOAD_TTL_MS.
 */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
export const UPLOAD_TTL_MS = 60 * 60 * 1000;

type Upload = { id: string; org: string; userId: string; entity: string; fileName: string; file: ImportFile; expires: number };

const entityOf = (tenant: Tenant, name: string | undefined): Entity | undefined =>
  name === undefined ? undefined : tenant.entities().find((e) => e.logicalName === name);

const settingsFor = (entity: Entity, caller: Caller, match: string | undefined, mode: ImportMode | undefined): ImportSettings => ({
  entity,
  caller,
  mode: mode ?? 'update',
  ...(match ? { matchField: match } : {}),
});

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
const attachment = (fileName: string): string =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', pdf: 'application/pdf' } as const;

export type ImportExportDeps = {
  guard: RequestHandler;
  /** Imports sign out the users they deactivate, like /api/update (core applyWrites). */
  sessions: SessionStore;
  /** Where uploads wait for their commit, and how they are read. */
  files: ImportFiles;
  /** Writes the export file to the response. */
  exports: ExportWriter<Writable>;
  clock: Clock;
  logger: Logger;
  /** Exports (streamed or jobs) one user may run at once (issue 22 item 2; default EXPORTS_PER_USER). */
  exportsPerUser?: number;
};

/** Exports one user runs at once by default: more answer 429, so one user cannot fill the server. */
export const EXPORTS_PER_USER = 2;

type ExportJob = ExportJobAnswer & { org: string; userId: string; path: string; contentType: string; expires: number };

/** A download link waiting for its browser: the session it stands for, and what it downloads. */
type ExportTicket = { id: string; org: string; userId: string; token: string; expires: number; what: { body: ExportRequestBody } | { job: string } };
/** Live download links one user may hold; a newer one replaces the oldest (they are cheap, but kept in memory). */
export const EXPORT_LINKS_PER_USER = 10;

/** A store that counts the records the export reads: the job's progress. */
const countingStore = (store: RecordStore, counted: (n: number) => void): RecordStore => ({
  ...store,
  retrieveById: (...a) => store.retrieveById(...a),
  create: (...a) => store.create(...a),
  update: (...a) => store.update(...a),
  delete: (...a) => store.delete(...a),
  restore: (...a) => store.restore(...a),
  executeMultiple: (...a) => store.executeMultiple(...a),
  retrieveMultiple: async (caller: Caller, request: FetchRequest) => {
    const r = await store.retrieveMultiple(caller, request);
    if (r._tag === 'Right') counted(r.right.records.length);
    return r;
  },
});

export const importExportRoutes = (deps: ImportExportDeps): Router => {
  const uploads = new Map<string, Upload>();
  const drop = (u: Upload): void => {
    uploads.delete(u.id);
    void u.file.discard();
  };
  const sweep = (): void => {
    const now = deps.clock.now().getTime();
    for (const u of uploads.values()) if (u.expires < now) drop(u);
  };

  /** The request body as bytes: express.json() has already read a body sent as application/json, so it is written back out. */
  const bodyBytes = (req: Request): AsyncIterable<Uint8Array | string> => {
    if ((req as Request & { _body?: boolean })._body !== true) return req as AsyncIterable<Buffer>;
    const text = JSON.stringify(req.body);
    return (async function* () {
      yield text;
    })();
  };

  /** Exports running per user (organization and user id); a turn is given back when its export ends. */
  const running = new Map<string, number>();
  const exportTurn = (org: string, userId: string): (() => void) | null => {
    const key = `${org}\u0000${userId}`;
    const n = running.get(key) ?? 0;
    if (n >= (deps.exportsPerUser ?? EXPORTS_PER_USER)) return null;
    running.set(key, n + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (running.get(key) ?? 1) - 1;
      if (left === 0) running.delete(key);
      else running.set(key, left);
    };
  };
  /** Whether the user may start one more export now (asked by a download link, which starts it later). */
  const hasExportTurn = (org: string, userId: string): boolean => (running.get(`${org}\u0000${userId}`) ?? 0) < (deps.exportsPerUser ?? EXPORTS_PER_USER);
  const sendTooManyExports = (res: Response): void => {
    res.setHeader('Retry-After', '10');
    sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${deps.exportsPerUser ?? EXPORTS_PER_USER} exports of one user at once`);
  };

  const jobs = new Map<string, ExportJob>();
  const sweepJobs = (): void => {
    const now = deps.clock.now().getTime();
    for (const j of jobs.values())
      if (j.expires < now && j.state !== 'running') {
        jobs.delete(j.id);
        rmSync(j.path, { force: true });
      }
  };
  /** A job of the signed-in user; another user's is not found, as a missing one. */
  const jobOf = (res: Response, id: string): ExportJob | undefined => {
    const s = signed(res);
    const job = jobs.get(id);
    return job && job.org === s.tenant.name && job.userId === s.caller.userId ? job : undefined;
  };
  const answerOf = (j: ExportJob): ExportJobAnswer => ({
    id: j.id,
    state: j.state,
    rows: j.rows,
    total: j.total,
    fileName: j.fileName,
    ...(j.message ? { message: j.message } : {}),
  });

  /** What an export needs, checked before the first byte: the plan, then one probe of the query (with its count for a job's progress). */
  const prepareExport = async (tenant: Tenant, caller: Caller, body: ExportRequestBody, counted: boolean) => {
    const { query, format, options, ids, titleSuffix } = body;
    type Prepared = { entity: Entity; request: ReturnType<typeof exportRequest>; resolved: ReturnType<typeof resolveExportOptions>; fileName: string; total: number | null };
    const fail = (e: DomainError): Either<DomainError, Prepared> => ({ _tag: 'Left', left: e });
    const entity = entityOf(tenant, query.entity.name);
    if (!entity) return fail(noObject(query.entity.name));
    const ok = exportableEntity(entity);
    if (isLeft(ok)) return fail(ok.left);
    const defaults = await loadExportDefaults(tenant.store, caller);
    if (isLeft(defaults)) return fail(defaults.left);
    const resolved = resolveExportOptions(defaults.right, options ?? {}, format ? { format } : {});
    const request = exportRequest(entity, query, ids);
    const plan = exportPlan(entity, request, resolved, resolved.format === 'pdf');
    if (isLeft(plan)) return fail(plan.left);
    const probe = await tenant.store.retrieveMultiple(caller, { ...plan.right.request, page: 1, pageSize: 1, ...(counted ? { count: true } : {}) });
    if (isLeft(probe)) return fail(probe.left);
    const fileName = exportFileName(entity, resolved.format, titleSuffix ?? '', resolved.fileName);
    return right<DomainError, Prepared>({ entity, request, resolved, fileName, total: counted && !probe.right.countIsCapped ? probe.right.count : null });
  };

  /** POST /api/export's work: the file streamed to the response, after the checks. */
  const streamExport = async (s: Signed, body: ExportRequestBody, res: Response): Promise<void> => {
    const turn = exportTurn(s.tenant.name, s.caller.userId);
    if (!turn) return sendTooManyExports(res);
    try {
      const prepared = await prepareExport(s.tenant, s.caller, body, false);
      if (isLeft(prepared)) return sendDomainError(res, prepared.left);
      const { entity, request, resolved, fileName } = prepared.right;
      res.status(200).type(CONTENT_TYPE[resolved.format]).setHeader('Content-Disposition', attachment(fileName));
      const written = await deps.exports.write(s.tenant.store, s.caller, entity, request, resolved, deps.clock.now(), res);
      if (isLeft(written)) {
        // Headers are gone: cut the response so the client sees a failed download, never a short file.
        deps.logger.warn({ err: written.left }, 'export failed while streaming');
        res.destroy();
      }
    } finally {
      turn();
    }
  };

  /** A ready job's file (GET /api/export/download, or its download link). */
  const sendJobFile = (job: ExportJob | undefined, res: Response): void => {
    if (!job) return sendText(res, 404, 'ERR_NOT_FOUND: no such export job');
    if (job.state !== 'ready') return sendText(res, 400, `ERR_INPUT: the export job is ${job.state}`);
    res.status(200).type(job.contentType).setHeader('Content-Disposition', attachment(job.fileName));
    createReadStream(job.path).pipe(res);
  };

  const tickets = new Map<string, ExportTicket>();
  const sweepTickets = (): void => {
    const now = deps.clock.now().getTime();
    for (const t of tickets.values()) if (t.expires < now) tickets.delete(t.id);
  };
  const issueTicket = (s: Signed, what: ExportTicket['what']): ExportTicket => {
    const mine = [...tickets.values()].filter((t) => t.org === s.tenant.name && t.userId === s.caller.userId);
    for (const old of mine.slice(0, Math.max(0, mine.length - EXPORT_LINKS_PER_USER + 1))) tickets.delete(old.id);
    const ticket: ExportTicket = { id: randomUUID(), org: s.tenant.name, userId: s.caller.userId, token: s.token, expires: deps.clock.now().getTime() + EXPORT_LINK_VALIDITY_MS, what };
    tickets.set(ticket.id, ticket);
    return ticket;
  };
  const linkOf = (ticket: ExportTicket, fileName: string) => ({
    url: `${API.exportFile.path}?ticket=${encodeURIComponent(ticket.id)}`,
    fileName,
    expires: new Date(ticket.expires).toISOString(),
  });

  return routerOf(deps.guard, [
    route(API.importUpload, async (query, req, res: Response) => {
      sweep();
      const s = signed(res);
      const importable = importableEntity(s.tenant.entities(), query.entity ?? '');
      if (isLeft(importable)) return sendDomainError(res, importable.left);
      const entity = importable.right;
      const fileName = query.fileName ? query.fileName : 'upload.csv';
      const kept = await deps.files.keep(fileName, bodyBytes(req), MAX_UPLOAD_BYTES);
      if (kept._tag === 'TooLarge') return sendText(res, 413, `ERR_TOO_LARGE: the file is over the limit of ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
      const upload: Upload = {
        id: randomUUID(),
        org: s.tenant.name,
        userId: s.caller.userId,
        entity: entity.logicalName,
        fileName,
        file: kept.file,
        expires: deps.clock.now().getTime() + UPLOAD_TTL_MS,
      };
      uploads.set(upload.id, upload);
      const match = query.match ? query.match : undefined;
      const preview = await previewImport(s.tenant.store, settingsFor(entity, s.caller, match, query.mode), upload.file.source);
      sendAnswer(res, API.importUpload, { uploadId: upload.id, entity: entity.logicalName, fileName, confirmation: importConfirmationText(preview), ...preview });
    }),

    route(API.importCommit, async (body, _req, res: Response) => {
      sweep();
      const s = signed(res);
      const upload = uploads.get(body.uploadId);
      // Another user's or organization's upload is as unknown as a missing one.
      if (!upload || upload.org !== s.tenant.name || upload.userId !== s.caller.userId) {
        return sendText(res, 404, 'ERR_NOT_FOUND: no such upload (uploads are kept for one hour)');
      }
      const entity = entityOf(s.tenant, upload.entity);
      if (!entity) return sendDomainError(res, noObject(upload.entity));
      uploads.delete(upload.id); // one commit per upload, even when two arrive at once
      try {
        const store = withWriteEffects(s.tenant.store, { sessions: deps.sessions, clock: deps.clock }, { orgName: s.session.orgName, sessionName: s.session.name });
        const outcome = await runImport(store, settingsFor(entity, s.caller, body.match, body.mode), upload.file.source, {
          spool: upload.file.spool(),
        });
        sendAnswer(res, API.importCommit, outcome);
      } finally {
        drop(upload);
      }
    }),

    route(API.importTemplate, (query, _req, res: Response) => {
      const s = signed(res);
      const entity = entityOf(s.tenant, query.entity);
      if (!entity) return sendDomainError(res, noObject(query.entity ?? ''));
      const tpl = importTemplate(entity);
      if (isLeft(tpl)) return sendDomainError(res, tpl.left);
      res.status(200).type(CONTENT_TYPE.csv).setHeader('Content-Disposition', attachment(tpl.right.fileName)).send(tpl.right.content);
    }),

    route(API.export, async (body, _req, res: Response) => streamExport(signed(res), body, res)),

    route(API.exportStart, async (body, _req, res: Response) => {
      sweepJobs();
      const s = signed(res);
      const turn = exportTurn(s.tenant.name, s.caller.userId);
      if (!turn) return sendTooManyExports(res);
      const prepared = await prepareExport(s.tenant, s.caller, body, true);
      if (isLeft(prepared)) {
        turn();
        return sendDomainError(res, prepared.left);
      }
      const { entity, request, resolved, fileName, total } = prepared.right;
      const id = randomUUID();
      const job: ExportJob = {
        id,
        state: 'running',
        rows: 0,
        total,
        fileName,
        org: s.tenant.name,
        userId: s.caller.userId,
        path: join(tmpdir(), `tessera-export-${id}`),
        contentType: CONTENT_TYPE[resolved.format],
        expires: deps.clock.now().getTime() + UPLOAD_TTL_MS,
      };
      jobs.set(id, job);
      // The file is written in the background, page by page (the store's reads run in its workers).
      const store = countingStore(s.tenant.store, (n) => (job.rows += n));
      void (async () => {
        const out = createWriteStream(job.path);
        // A file destroyed with a write in flight (a failed page) reports it as an error event: logged, never uncaught.
        out.on('error', (err) => deps.logger.warn({ err }, 'export job file'));
        try {
          const written = await deps.exports.write(store, s.caller, entity, request, resolved, deps.clock.now(), out);
          // The writer ends the file itself; only a file it left open (not destroyed) is ended here.
          if (!out.writableFinished && !out.destroyed) await new Promise<void>((resolve) => out.end(() => resolve()));
          if (isLeft(written)) Object.assign(job, { state: 'failed', message: 'the export failed while writing' });
          else Object.assign(job, { state: 'ready', rows: written.right });
        } catch (err) {
          deps.logger.warn({ err }, 'export job failed');
          out.destroy();
          Object.assign(job, { state: 'failed', message: 'the export failed while writing' });
        } finally {
          turn();
        }
      })();
      sendAnswer(res, API.exportStart, answerOf(job));
    }),

    route(API.exportJob, async (query, _req, res: Response) => {
      sweepJobs();
      const job = jobOf(res, query.id);
      if (!job) return sendText(res, 404, 'ERR_NOT_FOUND: no such export job');
      sendAnswer(res, API.exportJob, answerOf(job));
    }),

    route(API.exportDownload, async (query, _req, res: Response) => {
      sweepJobs();
      sendJobFile(jobOf(res, query.id), res);
    }),

    route(API.exportLink, async (body, _req, res: Response) => {
      sweepTickets();
      sweepJobs();
      const s = signed(res);
      if ('job' in body) {
        const job = jobOf(res, body.job);
        if (!job) return sendText(res, 404, 'ERR_NOT_FOUND: no such export job');
        if (job.state !== 'ready') return sendText(res, 400, `ERR_INPUT: the export job is ${job.state}`);
        return sendAnswer(res, API.exportLink, linkOf(issueTicket(s, { job: job.id }), job.fileName));
      }
      // Checked now, so that a refused export is an answer here and not a failed download.
      if (!hasExportTurn(s.tenant.name, s.caller.userId)) return sendTooManyExports(res);
      const prepared = await prepareExport(s.tenant, s.caller, body, false);
      if (isLeft(prepared)) return sendDomainError(res, prepared.left);
      sendAnswer(res, API.exportLink, linkOf(issueTicket(s, { body }), prepared.right.fileName));
    }),

    route(API.exportFile, async (query, req, res: Response) => {
      sweepTickets();
      const ticket = tickets.get(query.ticket);
      if (!ticket) return sendText(res, 404, 'ERR_NOT_FOUND: no such download link (a link works once, for one minute)');
      tickets.delete(ticket.id);
      // A download of one person's data: no cache on the way may keep it.
      res.setHeader('Cache-Control', 'no-store');
      // The ticket stands for its session: the session guard checks that session as it is now.
      req.headers[TOKEN_HEADER] = ticket.token;
      let passed = false;
      await Promise.resolve(
        deps.guard(req, res, () => {
          passed = true;
        }),
      );
      if (!passed) return;
      const s = signed(res);
      if (s.tenant.name !== ticket.org || s.caller.userId !== ticket.userId) return sendText(res, 404, 'ERR_NOT_FOUND: no such download link');
      if ('job' in ticket.what) return sendJobFile(jobOf(res, ticket.what.job), res);
      await streamExport(s, ticket.what.body, res);
    }),
  ]);
};
