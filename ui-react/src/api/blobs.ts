import { isLeft } from 'fp-ts/lib/Either.js';
import { API, describeErrors, type BlobUploadAnswer, type UserContext } from '@tessera/core/internal';

/**
 * Files of File and Image fields (issue 18): the upload before the record is saved, and the
 * signed download address. A field keeps the blob's NAME (`<id>.<ext>`); the address is built
 * here from the user context: `/api/blob/{orgName}/{name}?{sas}`.
 */

/** Bytes sent and to send, for a progress bar. */
export type UploadProgress = (loaded: number, total: number) => void;

/** What the upload needs of the client: its addresses and the session token (renewed by the answer). */
export type BlobClientHost = { url(path: string): string; readonly token: string | null; setToken(token: string | null): void };

/** The failure of an upload, as the client's ServerError shapes it ('Server Error: {text}' with the status). */
export type UploadFailure = (status: number, statusText: string, text: string) => Error;

const TOKEN_HEADER = 'x-accessptoken';
const UNAUTHORIZED_EVENT = 'tessera:unauthorized';

/** A value that is already an address (fields written before issue 18 held URLs): shown as it is. */
const isAddress = (v: string): boolean => /^(https?:|data:|blob:)/i.test(v) || v.startsWith('/');

/** The path of a stored blob for the user of this context; '' for an empty value. */
export const blobPath = (ctx: Pick<UserContext, 'orgName' | 'sas'>, name: string): string => {
  if (!name) return '';
  if (isAddress(name)) return name;
  const path = API.blobDownload.path.replace('{org}', encodeURIComponent(ctx.orgName)).replace('{name}', encodeURIComponent(name));
  return ctx.sas ? `${path}?${ctx.sas}` : path;
};

/**
 * POST /api/blob?entity=&field=&fileName=: the file as the raw body (application/octet-stream, so
 * no body parser on the way reads it). XMLHttpRequest where there is one, for the upload's progress.
 */
export const uploadBlob = (host: BlobClientHost, failure: UploadFailure, entity: string, field: string, file: Blob, fileName: string, onProgress?: UploadProgress): Promise<BlobUploadAnswer> => {
  const q = `entity=${encodeURIComponent(entity)}&field=${encodeURIComponent(field)}&fileName=${encodeURIComponent(fileName)}`;
  const url = host.url(`${API.blobUpload.path}?${q}`);
  const token = host.token;
  const settle = (status: number, statusText: string, text: string, renewed: string | null): BlobUploadAnswer => {
    if (renewed) host.setToken(renewed);
    if (status === 401 || statusText === 'NOT AUTHORIZED') window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    if (status < 200 || status >= 300) throw failure(status, statusText, text);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw failure(status, statusText, 'ERR_CONTRACT: the answer of POST /api/blob is not JSON');
    }
    const answer = API.blobUpload.answer.decode(raw);
    if (isLeft(answer)) throw failure(status, statusText, `ERR_CONTRACT: the answer of POST /api/blob does not match the contract: ${describeErrors(answer.left).slice(0, 3).join('; ')}`);
    return answer.right;
  };
  if (typeof XMLHttpRequest === 'undefined') {
    return fetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream', ...(token ? { [TOKEN_HEADER]: token } : {}) },
      body: file,
    }).then(async (res) => settle(res.status, res.statusText, await res.text(), res.headers.get(TOKEN_HEADER)));
  }
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      try {
        resolve(settle(xhr.status, xhr.statusText, xhr.responseText, xhr.getResponseHeader(TOKEN_HEADER)));
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => reject(failure(0, 'Network Error', 'the upload did not reach the server'));
    xhr.onabort = () => reject(failure(0, 'Aborted', 'the upload was cancelled'));
    xhr.send(file);
  });
};
