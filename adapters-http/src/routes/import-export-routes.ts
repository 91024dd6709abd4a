import type { Request, RequestHandler, Response, Router } from 'express';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
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
  type Entity,
  type ExportWriter,
  type ImportFile,
  type ImportFiles,
  type ImportMode,
  type ImportSettings,
  type SessionStore,
  type Tenant,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

/**
 * The import and export calls (issue 7, docs/api.md "Import and export"), behind the session
 * guard, with the caller's permissions applied by the store:
 * - POST /api/import/upload?entity=E&fileName=F[&match=FIELD&mode=update|skip|create]: the file
 *   as the raw body, streamed to a temporary file; answers the parsed, marked preview.
 * - POST /api/import/commit { uploadId, match?, mode? }: checks the file again and writes it in
 *   atomic batches; answers the result with its text.
 * - GET /api/import/template?entity=E: `import_{entity}.csv`.
 * - POST /api/export { query, format?, options?, ids? }: the file, streamed.
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
};

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

    route(API.export, async (body, _req, res: Response) => {
      const s = signed(res);
      const { query, format, options, ids, titleSuffix } = body;
      const entity = entityOf(s.tenant, query.entity.name);
      if (!entity) return sendDomainError(res, noObject(query.entity.name));
      const ok = exportableEntity(entity);
      if (isLeft(ok)) return sendDomainError(res, ok.left);
      const defaults = await loadExportDefaults(s.tenant.store, s.caller);
      if (isLeft(defaults)) return sendDomainError(res, defaults.left);
      const resolved = resolveExportOptions(defaults.right, options ?? {}, format ? { format } : {});
      const request = exportRequest(entity, query, ids);
      // Errors are answered before the first byte: the plan, then one probe of the query.
      const plan = exportPlan(entity, request, resolved, resolved.format === 'pdf');
      if (isLeft(plan)) return sendDomainError(res, plan.left);
      const probe = await s.tenant.store.retrieveMultiple(s.caller, { ...plan.right.request, page: 1, pageSize: 1 });
      if (isLeft(probe)) return sendDomainError(res, probe.left);
      const fileName = exportFileName(entity, resolved.format, titleSuffix ?? '', resolved.fileName);
      res.status(200).type(CONTENT_TYPE[resolved.format]).setHeader('Content-Disposition', attachment(fileName));
      const written = await deps.exports.write(s.tenant.store, s.caller, entity, request, resolved, deps.clock.now(), res);
      if (isLeft(written)) {
        // Headers are gone: cut the response so the client sees a failed download, never a short file.
        deps.logger.warn({ err: written.left }, 'export failed while streaming');
        res.destroy();
      }
    }),
  ]);
};
