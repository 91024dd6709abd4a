import express, { type ErrorRequestHandler } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Writable } from 'node:stream';
import {
  AppErrorLog,
  type Clock,
  type DocumentRenderer,
  type ExportWriter,
  type Geocoder,
  type ImportFiles,
  type OrganizationDirectory,
  type PublicCallLimits,
  type ScriptSandbox,
  type SessionStore,
  type SignInService,
  type TenantRegistry,
} from '@tessera/core/internal';
import type { PuzzleSeal } from './auth/puzzle-seal.js';
import { CallerCache } from './caller-cache.js';
import { sendText } from './http-errors.js';
import { DEFAULT_JSON_MAX_DEPTH, verifyJsonDepth } from './json-depth.js';
import { jsonCompression } from './json-compression.js';
import { requestLog } from './request-log.js';
import { adminRoutes } from './routes/admin-routes.js';
import { contextRoutes } from './routes/context-routes.js';
import { dataRoutes } from './routes/data-routes.js';
import { whatsNextRoutes } from './routes/whats-next-routes.js';
import { metadataRoutes } from './routes/metadata-routes.js';
import { importExportRoutes } from './routes/import-export-routes.js';
import { graphRoutes, type GraphRouteDeps } from './routes/graph-routes.js';
import { driveRoutes, type DriveRouteDeps } from './routes/drive-routes.js';
import { geocodeRoutes } from './routes/geocode-routes.js';
import { documentRoutes } from './routes/document-routes.js';
import { blobRoutes, blobSasSigner, type BlobRouteDeps } from './routes/blob-routes.js';
import { providerSettingsRoutes } from './routes/provider-settings-routes.js';
import { providerRoutes, type ProviderRouteDeps } from './routes/provider-routes.js';
import { organizationRoutes, type OrganizationFactory } from './routes/organization-routes.js';
import { signInRoutes } from './routes/sign-in-routes.js';
import { staticAssets } from './static-assets.js';
import { streamRoutes } from './routes/stream-routes.js';
import { StreamLimits } from './stream-limits.js';
import { surveyRecordRoutes, surveyRoutes } from './routes/survey-routes.js';
import { sessionGuard } from './session-guard.js';

/** Largest JSON body accepted (docs/api.md "Limits"): a 5000-row import batch fits. */
export const JSON_BODY_LIMIT = '5mb';
/** Largest form body (the sign-in forms). */
export const FORM_BODY_LIMIT = '64kb';

export type HttpConfig = {
  /** ISO time of the build, sent in the user context. */
  buildDate: string;
  /** The web client's built files (ui-react/dist), served with an SPA fallback when present. */
  staticDir?: string;
  /** Trust X-Forwarded-For from this many proxies (0: the socket address is the client). */
  trustProxy?: number;
  languages?: readonly string[];
  jsonLimit?: string;
  /** Deepest nesting of a JSON body (default 64): deeper is 400 ERR_INPUT before parsing (issue 22). */
  jsonMaxDepth?: number;
  /** Realtime streams open at once per session and per user (default 5 each): beyond is 429 (issue 22). */
  streamsPerSession?: number;
  streamsPerUser?: number;
  /** Exports (streamed or jobs) one user may run at once (default 2): beyond is 429 (issue 22 item 2). */
  exportsPerUser?: number;
  /** The sign-up and trial puzzle's difficulty in bits (default 19, about 1 s of a browser's work; at least 16; issue 22). */
  puzzleDifficultyBits?: number;
};

export type HttpDeps = {
  signIn: SignInService;
  sessions: SessionStore;
  directory: OrganizationDirectory;
  tenants: TenantRegistry;
  organizations: OrganizationFactory;
  puzzles: PuzzleSeal;
  clock: Clock;
  logger: Logger;
  config: HttpConfig;
  /** Trials and survey submissions per address, link and in all (issue 22); without it, in this process at the defaults. */
  publicLimits?: PublicCallLimits;
  /** Provider sign-in (/auth/...); without it those paths answer 404. */
  providers?: ProviderRouteDeps;
  /** GET /api/azure/accesstoken and POST /api/distance; without it those calls answer 404. */
  graph?: GraphRouteDeps;
  /** The CloudFiles panel's drive and the calendar view's cloud events on Microsoft Graph (issue 18); without it those calls answer 404. */
  drive?: DriveRouteDeps;
  /** POST /api/geocode (issue 14); without it that call answers 404. */
  geocoder?: Geocoder;
  /** The import files of /api/import/* (uploads kept until their commit). */
  importFiles: ImportFiles;
  /** The files of /api/export, streamed to the response. */
  exports: ExportWriter<Writable>;
  /** POST /api/document (issue 20): draws report documents as PDF or Word; without it that call answers 404. */
  documents?: DocumentRenderer;
  /** Runs What's Next rules' scripts (issue 16, docs/whats-next.md); without it a rule's script does not run. */
  scripts?: ScriptSandbox;
  /** Files of File and Image fields (issue 18): /api/blob and the user context's `sas`; without it those calls answer 404 and `sas` is ''. */
  blobs?: BlobRouteDeps;
};

/**
 * The Express application of the /api contract (API.md). Hardening: helmet headers, no
 * x-powered-by, bounded bodies (413 ERR_TOO_LARGE), text error bodies without stack traces, and
 * a request id in every log line that a 500 answer quotes.
 */
export const createApp = (deps: HttpDeps): express.Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy ?? 0);
  app.set('etag', false);
  app.use(requestLog(deps.logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Map tiles, geocoding and cloud files come from other origins over https.
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'connect-src': ["'self'", 'https:'],
          // Metadata scripts run in a dedicated worker made from a Blob (ui-react/src/scripts, issue 16).
          'worker-src': ["'self'", 'blob:'],
          // The file preview shows a PDF not uploaded yet from its object URL (ui-react/src/files, issue 18).
          'frame-src': ["'self'", 'blob:'],
          // Served over plain HTTP on a LAN address, upgrading would break every request.
          'upgrade-insecure-requests': null,
        },
      },
    }),
  );

  const callers = new CallerCache(deps.clock);
  const guard = sessionGuard(deps.signIn, deps.tenants, callers);
  const api = express.Router();
  // The depth is checked on the raw bytes, before the parser and every recursive codec (json-depth.ts).
  api.use(express.json({ limit: deps.config.jsonLimit ?? JSON_BODY_LIMIT, verify: verifyJsonDepth(deps.config.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH) }));
  api.use(express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT }));
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Large JSON answers (the user context) compressed; streams untouched (json-compression.ts).
  api.use(jsonCompression());
  api.use(signInRoutes(deps.signIn, guard));
  api.use(organizationRoutes({ ...deps }));
  api.use(adminRoutes({ signIn: deps.signIn, sessions: deps.sessions, logger: deps.logger, errors: new AppErrorLog() }, guard));
  const streamLimits = new StreamLimits(deps.config.streamsPerSession, deps.config.streamsPerUser);
  api.use(streamRoutes({ sessions: deps.sessions, tenants: deps.tenants, callers, clock: deps.clock, limits: streamLimits }, guard));
  api.use(surveyRoutes({ tenants: deps.tenants, directory: deps.directory, clock: deps.clock, publicLimits: deps.publicLimits }));
  api.use(surveyRecordRoutes({ sessions: deps.sessions, clock: deps.clock }, guard));
  api.use(contextRoutes({ ...deps.config, ...(deps.blobs ? { sas: blobSasSigner(deps.blobs) } : {}) }, guard));
  api.use(dataRoutes(deps.sessions, deps.clock, guard));
  api.use(whatsNextRoutes({ clock: deps.clock, scripts: deps.scripts, logger: deps.logger }, guard));
  api.use(metadataRoutes({ clock: deps.clock }, guard));
  // Issue 18: the administrators' view of the sign-in providers.
  if (deps.providers) api.use(providerSettingsRoutes(deps.providers, guard));
  if (deps.graph) api.use(graphRoutes(deps.graph, guard));
  if (deps.drive) api.use(driveRoutes(deps.drive, guard));
  if (deps.geocoder) api.use(geocodeRoutes(deps.geocoder, guard));
  if (deps.documents) api.use(documentRoutes(deps.documents, guard));
  if (deps.blobs) api.use(blobRoutes({ ...deps.blobs, tenants: deps.tenants, callers, guard }));
  api.use(importExportRoutes({ guard, sessions: deps.sessions, files: deps.importFiles, exports: deps.exports, clock: deps.clock, logger: deps.logger, exportsPerUser: deps.config.exportsPerUser }));
  api.use((req, res) => sendText(res, 404, `ERR_NOT_FOUND: no call ${req.method} /api${req.path}`));
  app.use('/api', api);
  if (deps.providers) app.use('/auth', providerRoutes(deps.providers));

  const dist = deps.config.staticDir ? resolve(deps.config.staticDir) : undefined;
  // The built client, precompressed, with the SPA fallback (static-assets.ts).
  if (dist && existsSync(join(dist, 'index.html'))) app.use(staticAssets(dist));
  app.use((req, res) => sendText(res, 404, `ERR_NOT_FOUND: ${req.path}`));
  app.use(errorHandler(deps.logger));
  return app;
};

/** Turns thrown errors into API.md answers; a bug is logged with the request id and answered without details. */
const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err: unknown, _req, res, _next) => {
    const e = (err ?? {}) as { type?: string; status?: number; limit?: number; message?: string; code?: string };
    if (res.headersSent) {
      res.end();
      return;
    }
    if (e.type === 'entity.too.large')
      return sendText(res, 413, `ERR_TOO_LARGE: the body is over the limit of ${Math.round((e.limit ?? 0) / 1024)} KB`);
    if (e.type === 'entity.parse.failed') return sendText(res, 400, 'ERR_INPUT: the body is not valid JSON');
    // A database read past its time budget (issue 22): the server stays responsive, the caller may retry.
    if (e.code === 'ERR_TIMEOUT') return sendText(res, 503, `ERR_TIMEOUT: ${e.message ?? 'the request took too long'}`);
    if (e.type === 'entity.too.deep') return sendText(res, 400, `ERR_INPUT: ${e.message ?? 'the body is nested too deep'} (limit jsonMaxDepth)`);
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return sendText(res, 400, `ERR_INPUT: ${e.message ?? 'bad request'}`);
    const id = String(res.locals.requestId ?? '');
    logger.error({ reqId: id, err }, 'unexpected error');
    sendText(res, 500, `ERR_SERVER: an unexpected error happened (request ${id})`);
  };
