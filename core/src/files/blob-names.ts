import type { Sniffed } from './sniff.js';

/**
 * Blob names (issue 18: "names are a random id plus an extension by type"): 32 lower-case hex
 * characters (a random id without its dashes), a dot and the extension of the sniffed type. A
 * field keeps this name, never an address. Nothing else is a blob name, so a name from a request
 * can never climb out of its folder ('..', '/', '\\') or reach another organization.
 */
export const BLOB_EXTENSIONS: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  log: 'text/plain; charset=utf-8',
};

const BLOB_NAME = /^[0-9a-f]{32}\.([a-z0-9]{2,4})$/;

/** Whether a text is a blob name (and so safe as a file or blob path segment). */
export const isBlobName = (name: unknown): name is string => {
  if (typeof name !== 'string') return false;
  const m = BLOB_NAME.exec(name);
  return m !== null && m[1] in BLOB_EXTENSIONS;
};

/** The name of a new blob: the id (a UUID from the IdGenerator port) without dashes, and the sniffed type's extension. */
export const newBlobName = (id: string, sniffed: Pick<Sniffed, 'ext'>): string => `${id.replace(/-/g, '').toLowerCase().padEnd(32, '0').slice(0, 32)}.${sniffed.ext}`;

/** The content type of a stored blob, by its name's extension (the sniffed type it was stored as). */
export const blobContentType = (name: string): string => BLOB_EXTENSIONS[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
