import * as t from 'io-ts';
import { queryText } from './text-fields.js';

/**
 * Files of File and Image fields (issue 18, /work/briefs contract "blob"): the field stores the
 * blob NAME (`<random id>.<ext>`), never an address.
 *
 * POST /api/blob?entity=E&field=F&fileName=N: the raw bytes as the body (application/octet-stream),
 * streamed to the organization's blob store; the content type is sniffed from the bytes.
 */
export const BlobUploadQuery = t.type({ entity: queryText, field: queryText, fileName: queryText }, 'blob upload query');
export type BlobUploadQuery = t.TypeOf<typeof BlobUploadQuery>;

/** The stored blob: its name (what the field keeps), size in bytes, sniffed type and the original file name. */
export const BlobUploadAnswer = t.type({ name: t.string, size: t.number, contentType: t.string, fileName: t.string }, 'blob upload');
export type BlobUploadAnswer = t.TypeOf<typeof BlobUploadAnswer>;

/**
 * GET /api/blob/{org}/{name}?{sas}: the user context's `sas` is the query string (core/src/files/sas.ts:
 * version, user, organization, expiry, signature). Every parameter is read as optional text, so a
 * missing or broken one is a 403 of the signature check, never a 400 that tells which part was wrong.
 */
export const BlobDownloadQuery = t.UnknownRecord;
