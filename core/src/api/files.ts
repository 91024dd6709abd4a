import * as t from 'io-ts';
import { ExportFormat, ExportOptions } from '../export/export-options.js';
import { IMPORT_MODES, type ImportMode } from '../import/row-marking.js';
import { FetchRequest } from '../query/query.js';
import { queryText } from './text-fields.js';

/** update (default), skip or create: what an import does with a row that matches a record. */
export const ImportModeCodec = t.keyof(Object.fromEntries(IMPORT_MODES.map((m) => [m, null])) as Record<ImportMode, null>, 'mode');

/** POST /api/import/upload?entity=E&fileName=F[&match=FIELD&mode=...]: the file is the raw body. */
export const ImportUploadQuery = t.intersection(
  [t.type({ entity: queryText, fileName: queryText, match: queryText }), t.partial({ mode: ImportModeCodec })],
  'import upload query',
);
export type ImportUploadQuery = t.TypeOf<typeof ImportUploadQuery>;

/** POST /api/import/commit. */
export const ImportCommitRequest = t.exact(t.intersection([t.type({ uploadId: t.string }), t.partial({ match: t.string, mode: ImportModeCodec })]), 'import commit');
export type ImportCommitRequest = t.TypeOf<typeof ImportCommitRequest>;

/** GET /api/import/template?entity=E. */
export const ImportTemplateQuery = t.type({ entity: queryText }, 'import template query');

/** The preview and the result of an import (counts, error lines, notes; core/src/import). */
export const ImportPreviewAnswer = t.intersection(
  [
    t.type({ uploadId: t.string, entity: t.string, fileName: t.string, confirmation: t.string, rows: t.number, create: t.number, update: t.number, skip: t.number, errors: t.number }),
    t.type({ ignoredColumns: t.array(t.string), errorLines: t.array(t.string), notes: t.array(t.string), sample: t.array(t.unknown) }),
    t.partial({ fatal: t.string }),
  ],
  'import preview',
);
export const ImportOutcomeAnswer = t.intersection(
  [
    t.type({ imported: t.number, created: t.number, updated: t.number, skipped: t.number, errors: t.number, errorLines: t.array(t.string), notes: t.array(t.string), text: t.string }),
    t.partial({ fatal: t.string, cancelled: t.boolean }),
  ],
  'import outcome',
);

/** POST /api/export: the query, and optionally the format, options, the selected ids and a title suffix. */
export const ExportRequestBody = t.exact(
  t.intersection([t.type({ query: FetchRequest }), t.partial({ format: ExportFormat, options: ExportOptions, ids: t.array(t.string), titleSuffix: t.string })]),
  'export body',
);
export type ExportRequestBody = t.TypeOf<typeof ExportRequestBody>;

/**
 * An export job (issue 22 item 2): POST /api/export/start answers it, GET /api/export/job?id=
 * tells its progress; `rows` written of `total` (the query's count, null if unknown), and once
 * `state` is `ready` GET /api/export/download?id= sends the file.
 */
export const ExportJobAnswer = t.intersection(
  [
    t.type({ id: t.string, state: t.keyof({ running: null, ready: null, failed: null }), rows: t.number, total: t.union([t.number, t.null]), fileName: t.string }),
    t.partial({ message: t.string }),
  ],
  'export job',
);
export type ExportJobAnswer = t.TypeOf<typeof ExportJobAnswer>;

/** GET /api/export/job and /api/export/download: `?id=` of the job. */
export const ExportJobQuery = t.type({ id: t.string }, 'export job query');

/**
 * POST /api/export/link: a one-time download address for a browser, which cannot send the session
 * header on a plain link. The body is an export (as POST /api/export, checked the same way) or
 * `{ job }`, a ready export job of the caller. Answers `{ url, fileName, expires }`; `url` is
 * GET /api/export/file?ticket=T, valid once and for EXPORT_LINK_VALIDITY_MS.
 */
export const ExportLinkRequest = t.union([ExportRequestBody, t.exact(t.type({ job: t.string }))], 'export link body');
export type ExportLinkRequest = t.TypeOf<typeof ExportLinkRequest>;
export const ExportLinkAnswer = t.type({ url: t.string, fileName: t.string, expires: t.string }, 'export link');
export type ExportLinkAnswer = t.TypeOf<typeof ExportLinkAnswer>;
/** GET /api/export/file?ticket=: the ticket of /api/export/link stands for the session, once. */
export const ExportFileQuery = t.type({ ticket: t.string }, 'export file query');
/** How long a download link may wait for its browser: long enough for a slow click, too short to share. */
export const EXPORT_LINK_VALIDITY_MS = 60_000;

/** A file download (CSV, JSON or PDF with Content-Disposition): not decoded as data. */
export const FileAnswer = t.unknown;
