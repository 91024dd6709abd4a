import { createHmac } from 'node:crypto';
import { DEFAULT_SAS_VALIDITY_MS, signSas, type BlobStore, type Clock, type IdGenerator, type MacFunction } from '@tessera/core/internal';

/** HMAC-SHA256 in base64url: the MAC of the download signatures (core/src/files/sas.ts). */
export const hmacSha256: MacFunction = (secret, text) => createHmac('sha256', secret).update(text, 'utf8').digest('base64url');

/** Largest file of a File or Image field by default (docs/operations.md "Files and blob storage"). */
export const DEFAULT_BLOB_MAX_BYTES = 25 * 1024 * 1024;

/** What the blob calls need (issue 18): the store, the signature secret, and the limits. */
export type BlobRouteDeps = {
  store: BlobStore;
  /** The HMAC secret of the download signatures (TESSERA_BLOB_SECRET, else a random one per process). */
  secret: string;
  clock: Clock;
  ids: IdGenerator;
  /** Largest upload in bytes (default DEFAULT_BLOB_MAX_BYTES): beyond is 413 ERR_TOO_LARGE. */
  maxBytes?: number;
  /** How long a user context's signature is valid (default DEFAULT_SAS_VALIDITY_MS). */
  sasValidityMs?: number;
};

/** The `sas` of a user's context: the signed query string of their downloads. */
export const blobSasSigner =
  (deps: Pick<BlobRouteDeps, 'secret' | 'clock' | 'sasValidityMs'>) =>
  (org: string, userId: string): string =>
    signSas(hmacSha256, deps.secret, { userId, org }, deps.clock.now(), deps.sasValidityMs ?? DEFAULT_SAS_VALIDITY_MS);

import type { RequestHandler, Router } from 'express';
import { API, type TenantRegistry } from '@tessera/core/internal';
import type { CallerCache } from '../caller-cache.js';
import { sendText } from '../http-errors.js';
import { route, routerOf } from '../route.js';

/** POST /api/blob and GET /api/blob/{org}/{name} (in progress: the calls are in the route table). */
export const blobRoutes = (deps: BlobRouteDeps & { tenants: TenantRegistry; callers: CallerCache; guard: RequestHandler }): Router =>
  routerOf(deps.guard, [
    route(API.blobUpload, (_q, _req, res) => sendText(res, 501, 'ERR_SERVER: not yet')),
    route(API.blobDownload, (_q, _req, res) => sendText(res, 501, 'ERR_SERVER: not yet')),
  ]);
