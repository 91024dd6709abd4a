import type { Request, RequestHandler, Response, Router } from 'express';
import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  API,
  BLOB_ENTITY,
  DEFAULT_SAS_VALIDITY_MS,
  SNIFF_BYTES,
  STATE_INACTIVE,
  blobUploadRow,
  customOwnerFields,
  fieldAccepts,
  hasFlag,
  isBlobName,
  levelOf,
  newBlobName,
  noObject,
  referencesOf,
  signSas,
  sniffContentType,
  systemCaller,
  verifySas,
  type BlobStore,
  type Caller,
  type Clock,
  type IdGenerator,
  type MacFunction,
  type SessionInfo,
  type Tenant,
  type TenantRegistry,
} from '@tessera/core/internal';
import type { Logger } from 'pino';
import type { CallerCache } from '../caller-cache.js';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed } from '../session-guard.js';

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
  logger?: Logger;
};

/** The `sas` of a user's context: the signed query string of their downloads. */
export const blobSasSigner =
  (deps: Pick<BlobRouteDeps, 'secret' | 'clock' | 'sasValidityMs'>) =>
  (org: string, userId: string): string =>
    signSas(hmacSha256, deps.secret, { userId, org }, deps.clock.now(), deps.sasValidityMs ?? DEFAULT_SAS_VALIDITY_MS);

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
const disposition = (kind: 'inline' | 'attachment', fileName: string): string =>
  `${kind}; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/** The last part of a file name a browser sent (some send a path), without control characters, at most 400 characters. */
const cleanFileName = (raw: string): string =>
  (raw.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 400);

/** Whether the caller may create or update records of the entity: what storing a file for its field needs. */
const mayWrite = (caller: Caller, entity: string): boolean =>
  (['create', 'update'] as const).some((op) => levelOf(caller.permissions, entity, op) > 0 || customOwnerFields(caller.permissions, entity, op).length > 0);

/** A refusal sent before the body is read: the connection closes, so a large body is not read in vain. */
const refuse = (res: Response, status: number, text: string): void => {
  res.setHeader('Connection', 'close');
  sendText(res, status, text);
};

const MB = 1024 * 1024;
const limitText = (bytes: number): string => (bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`);

/**
 * The request body in two parts: its first bytes (at least SNIFF_BYTES, unless the body is shorter)
 * for the sniffing, then the whole body again as a stream that starts with them.
 */
const splitHead = async (req: Request): Promise<{ head: Uint8Array; body: AsyncIterable<Uint8Array> }> => {
  const it = (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < SNIFF_BYTES) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    first.push(r.value);
    length += r.value.length;
  }
  async function* body(): AsyncGenerator<Uint8Array> {
    yield* first;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head: Buffer.concat(first), body: body() };
};

/**
 * The file calls (issue 18, docs/api.md "Files"):
 * - POST /api/blob?entity=E&field=F&fileName=N: the raw body streamed to the BlobStore (memory stays
 *   flat), its type sniffed from the first bytes; needs create or update permission on E, a File or
 *   Image field F that takes that type, and a body within the limit. The upload is registered
 *   (inu_blob) for its uploader; a record that sets the field makes it readable with the record.
 * - GET /api/blob/{org}/{name}?{sas}: the signature and its expiry, then that its user may read a
 *   record that references the blob (or uploaded it and no record does yet); streams the file.
 * Every refusal is a 4xx with the API's code; none tells whether a file exists to someone who may not read it.
 */
export const blobRoutes = (deps: BlobRouteDeps & { tenants: TenantRegistry; callers: CallerCache; guard: RequestHandler }): Router => {
  const maxBytes = deps.maxBytes ?? DEFAULT_BLOB_MAX_BYTES;

  const upload = route(API.blobUpload, async (q, req, res) => {
    const s = signed(res);
    const entity = q.entity ? s.tenant.entities().find((e) => e.logicalName === q.entity) : undefined;
    if (!entity) return refuse(res, 400, `ERR_INPUT: ${noObject(q.entity ?? '').message}`);
    const prop = q.field ? entity.properties.find((p) => p.logicalName === q.field) : undefined;
    const kind = prop ? (hasFlag(prop, 'Image') ? 'Image' : hasFlag(prop, 'File') ? 'File' : null) : null;
    if (!prop || !kind) return refuse(res, 400, `ERR_INPUT: ${entity.logicalName}.${q.field ?? ''} is not a File or Image field`);
    const fileName = cleanFileName(q.fileName ?? '');
    if (!fileName) return refuse(res, 400, 'ERR_INPUT: fileName is required');
    if (!mayWrite(s.caller, entity.logicalName)) return refuse(res, 403, `ERR_PERMISSION: No create or update permission on ${entity.logicalName}`);
    if ((req as Request & { _body?: boolean })._body === true || req.is(['application/json', 'application/x-www-form-urlencoded']))
      return refuse(res, 415, 'ERR_CONTENT_TYPE: send the file as the raw body (Content-Type: application/octet-stream)');
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) return refuse(res, 413, `ERR_TOO_LARGE: the file is over the limit of ${limitText(maxBytes)}`);

    let stored: { name: string; size: number; contentType: string } | null = null;
    try {
      const { head, body } = await splitHead(req);
      const sniffed = sniffContentType(head, fileName);
      if (!sniffed) return refuse(res, 415, 'ERR_CONTENT_TYPE: the file is not of a type that can be stored (images, PDF, zip, Word, Excel, PowerPoint or text)');
      if (!fieldAccepts(kind, sniffed)) return refuse(res, 415, `ERR_CONTENT_TYPE: ${entity.logicalName}.${prop.logicalName} takes images only (jpg, png, gif, webp, avif, bmp); the file is ${sniffed.contentType}`);
      const name = newBlobName(deps.ids.newId(), sniffed);
      const put = await deps.store.put(s.tenant.name, name, body, { contentType: sniffed.contentType, maxBytes });
      if (put._tag === 'TooLarge') return refuse(res, 413, `ERR_TOO_LARGE: the file is over the limit of ${limitText(put.maxBytes)}`);
      stored = { name, size: put.size, contentType: sniffed.contentType };
    } catch (e) {
      // The client went away or the stream broke: the store kept nothing.
      deps.logger?.warn({ err: e }, 'blob upload failed while reading');
      if (!res.headersSent && !res.destroyed) refuse(res, 400, 'ERR_INPUT: the upload was cut before its end');
      return;
    }
    const row = await s.tenant.store.create(systemCaller(), BLOB_ENTITY, blobUploadRow({ ...stored, fileName, uploadedBy: s.caller.userId }));
    if (isLeft(row)) {
      await deps.store.delete(s.tenant.name, stored.name);
      return sendDomainError(res, row.left);
    }
    sendAnswer(res, API.blobUpload, { ...stored, fileName });
  });

  /** Whether the user may download the blob, and its original file name. */
  const access = async (tenant: Tenant, caller: Caller, name: string): Promise<{ fileName: string } | null> => {
    const sys = systemCaller();
    const rows = await tenant.store.retrieveMultiple(sys, {
      entity: { name: BLOB_ENTITY, allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: name }] } },
      pageSize: 200,
    });
    if (isLeft(rows)) return null;
    const upload = rows.right.records.find((r) => !r.objectname);
    if (!upload) return null;
    const fileName = typeof upload.filename === 'string' && upload.filename ? upload.filename : name;
    const refs = referencesOf(rows.right.records);
    if (refs.length === 0) return String(upload.uploadedby ?? '').toLowerCase() === caller.userId.toLowerCase() ? { fileName } : null;
    for (const ref of refs) {
      const found = await tenant.store.retrieveById(caller, ref.objectname, ref.objectid);
      if (!isLeft(found) && found.right[ref.field] === name) return { fileName };
    }
    return null;
  };

  const download = route(API.blobDownload, async (_q, req, res) => {
    const denied = (why: string): void => sendText(res, 403, `ERR_PERMISSION: ${why}`);
    const raw = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const sas = verifySas(hmacSha256, deps.secret, raw, deps.clock.now());
    if (isLeft(sas)) return denied(sas.left._tag === 'SasExpired' ? 'the file link has expired; reload the page' : 'the file link is not valid');
    const org = String(req.params.org ?? '').toLowerCase();
    if (org !== sas.right.org.toLowerCase()) return denied('the file link is not valid');
    const name = String(req.params.name ?? '');
    if (!isBlobName(name)) return sendText(res, 404, 'ERR_NOT_FOUND: no such file');
    let tenant: Tenant;
    try {
      tenant = await deps.tenants.open(sas.right.org);
    } catch {
      return denied('the file link is not valid');
    }
    const user = await tenant.store.retrieveById(systemCaller(), 'systemuser', sas.right.userId);
    if (isLeft(user) || user.right.statecode === STATE_INACTIVE) return denied('the file link is not valid');
    const session = { userId: sas.right.userId, orgName: tenant.name } as SessionInfo;
    const caller = await deps.callers.callerOf(tenant, session);
    if (isLeft(caller)) return denied('the file link is not valid');
    const allowed = await access(tenant, caller.right, name);
    // The same answer whether the file is missing or not readable: a name tells nobody whether it exists.
    if (!allowed) return denied('no record you may read has this file');
    const blob = await deps.store.get(tenant.name, name);
    if (!blob) return sendText(res, 404, 'ERR_NOT_FOUND: the file is no longer stored');
    res.status(200);
    res.setHeader('Content-Type', blob.contentType);
    res.setHeader('Content-Length', String(blob.size));
    res.setHeader('Content-Disposition', disposition(/(?:^|&)download=1(?:&|$)/.test(raw) ? 'attachment' : 'inline', allowed.fileName));
    res.setHeader('Cache-Control', 'private, max-age=300');
    // A text file is shown as text, never run as a page of this origin.
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    try {
      await pipeline(Readable.from(blob.body), res);
    } catch (e) {
      deps.logger?.warn({ err: e }, 'blob download cut');
      res.destroy();
    }
  });

  return routerOf(deps.guard, [upload, download]);
};
