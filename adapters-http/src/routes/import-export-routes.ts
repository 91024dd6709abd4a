import { Router, type Request, type RequestHandler, type Response } from 'express';
import * as t from 'io-ts';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  decode,
  ExportFormat,
  ExportOptions,
  exportFileName,
  exportableEntity,
  exportPlan,
  FetchRequest,
  importConfirmationText,
  importTemplate,
  IMPORT_MODES,
  inputError,
  loadExportDefaults,
  noObject,
  previewImport,
  primaryKeyOf,
  resolveExportOptions,
  runImport,
  type Caller,
  type Clock,
  type Entity,
  type ExportWriter,
  type ImportFile,
  type ImportFiles,
  type ImportMode,
  type ImportSettings,
  type Tenant,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
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

const ImportModeCodec = t.keyof(Object.fromEntries(IMPORT_MODES.map((m) => [m, null])) as Record<ImportMode, null>, 'mode');
const CommitBody = t.intersection([t.type({ uploadId: t.string }), t.partial({ match: t.string, mode: ImportModeCodec })], 'import commit');
const ExportBody = t.intersection(
  [t.type({ query: FetchRequest }), t.partial({ format: ExportFormat, options: ExportOptions, ids: t.array(t.string), titleSuffix: t.string })],
  'export body',
);

const entityOf = (tenant: Tenant, name: unknown): Entity | undefined =>
  typeof name === 'string' ? tenant.entities().find((e) => e.logicalName === name) : undefined;

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
  /** Where uploads wait for their commit, and how they are read. */
  files: ImportFiles;
  /** Writes the export file to the response. */
  exports: ExportWriter<Writable>;
  clock: Clock;
  logger: Logger;
};

export const importExportRoutes = (deps: ImportExportDeps): Router => {
  const r = Router();
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

  r.post('/import/upload', deps.guard, async (req, res: Response) => {
    sweep();
    const s = signed(res);
    const entity = entityOf(s.tenant, req.query.entity);
    if (!entity) return sendDomainError(res, noObject(String(req.query.entity ?? '')));
    if (entity.type === 'many') return sendDomainError(res, inputError(`${entity.logicalName} is a link entity and cannot be imported`));
    const mode = req.query.mode === undefined ? undefined : decode(ImportModeCodec, req.query.mode, 'mode');
    if (mode !== undefined && isLeft(mode)) return sendDomainError(res, mode.left);
    const fileName = typeof req.query.fileName === 'string' && req.query.fileName !== '' ? req.query.fileName : 'upload.csv';
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
    const match = typeof req.query.match === 'string' && req.query.match !== '' ? req.query.match : undefined;
    const preview = await previewImport(s.tenant.store, settingsFor(entity, s.caller, match, mode?.right), upload.file.source);
    res.json({ uploadId: upload.id, entity: entity.logicalName, fileName, confirmation: importConfirmationText(preview), ...preview });
  });

  r.post('/import/commit', deps.guard, async (req, res: Response) => {
    sweep();
    const s = signed(res);
    const body = decode(CommitBody, req.body, 'import commit');
    if (isLeft(body)) return sendDomainError(res, body.left);
    const upload = uploads.get(body.right.uploadId);
    // Another user's or organization's upload is as unknown as a missing one.
    if (!upload || upload.org !== s.tenant.name || upload.userId !== s.caller.userId) {
      return sendText(res, 404, 'ERR_NOT_FOUND: no such upload (uploads are kept for one hour)');
    }
    const entity = entityOf(s.tenant, upload.entity);
    if (!entity) return sendDomainError(res, noObject(upload.entity));
    uploads.delete(upload.id); // one commit per upload, even when two arrive at once
    try {
      const outcome = await runImport(s.tenant.store, settingsFor(entity, s.caller, body.right.match, body.right.mode), upload.file.source, {
        spool: upload.file.spool(),
      });
      res.json(outcome);
    } finally {
      drop(upload);
    }
  });

  r.get('/import/template', deps.guard, (req, res: Response) => {
    const s = signed(res);
    const entity = entityOf(s.tenant, req.query.entity);
    if (!entity) return sendDomainError(res, noObject(String(req.query.entity ?? '')));
    const tpl = importTemplate(entity);
    if (isLeft(tpl)) return sendDomainError(res, tpl.left);
    res.status(200).type(CONTENT_TYPE.csv).setHeader('Content-Disposition', attachment(tpl.right.fileName)).send(tpl.right.content);
  });

  r.post('/export', deps.guard, async (req, res: Response) => {
    const s = signed(res);
    const body = decode(ExportBody, req.body, 'export body');
    if (isLeft(body)) return sendDomainError(res, body.left);
    const { query, format, options, ids, titleSuffix } = body.right;
    const entity = entityOf(s.tenant, query.entity.name);
    if (!entity) return sendDomainError(res, noObject(query.entity.name));
    const ok = exportableEntity(entity);
    if (isLeft(ok)) return sendDomainError(res, ok.left);
    const defaults = await loadExportDefaults(s.tenant.store, s.caller);
    if (isLeft(defaults)) return sendDomainError(res, defaults.left);
    const resolved = resolveExportOptions(defaults.right, options ?? {}, format ? { format } : {});
    // Export Records: Selected narrows the query to the chosen ids.
    const request: FetchRequest =
      ids === undefined
        ? query
        : {
            ...query,
            entity: {
              ...query.entity,
              filter: { type: 'and', conditions: [{ attribute: primaryKeyOf(entity), operator: 'in', value: ids }], filters: query.entity.filter ? [query.entity.filter] : [] },
            },
          };
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
  });

  return r;
};
