/**
 * The content type of an uploaded file, from its first bytes, never from its name (issue 18:
 * "content type checked by its bytes, not by the name"). Known: the spec's image types (spec 001
 * section 9: jpg, jpeg, png, bmp, gif, webp, avif), PDF, zip and the Office files in a zip (docx,
 * xlsx, pptx), and UTF-8 text. Anything else is not stored.
 *
 * The name only refines what the bytes already say: a zip whose first entries do not show which
 * Office file it is takes docx/xlsx/pptx from the name, and text keeps a text extension (csv, json).
 */

export type FileKind = 'image' | 'document' | 'text';
export type Sniffed = { readonly contentType: string; readonly ext: string; readonly kind: FileKind };

/** How many first bytes the sniffing looks at (a zip's first entry names are within them). */
export const SNIFF_BYTES = 4096;

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i += 1) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

const bytes = (b: Uint8Array, at: number, values: readonly number[]): boolean => values.every((v, i) => b[at + i] === v);

/** The first bytes as Latin-1 text, for looking up names inside a zip's local headers. */
const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 1) s += String.fromCharCode(b[i]);
  return s;
};

const extOf = (fileName: string): string => {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(fileName);
  return m ? m[1].toLowerCase() : '';
};

/** ISO BMFF brands of AVIF: the major brand or one of the compatible brands of the `ftyp` box. */
const isAvif = (b: Uint8Array): boolean => {
  if (!ascii(b, 4, 'ftyp')) return false;
  const size = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  const end = Math.min(b.length, size > 0 ? size : 32);
  for (let at = 8; at + 4 <= end; at += 4) if (ascii(b, at, 'avif') || ascii(b, at, 'avis')) return true;
  return false;
};

/** BMP: 'BM' and a known info-header size at byte 14 (12, 40, 52, 56, 64, 108 or 124). */
const isBmp = (b: Uint8Array): boolean =>
  ascii(b, 0, 'BM') && b.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(b[14] | (b[15] << 8) | (b[16] << 16) | (b[17] << 24));

const OFFICE: Record<string, Sniffed> = {
  docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx', kind: 'document' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx', kind: 'document' },
  pptx: { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx', kind: 'document' },
};

const zipKind = (b: Uint8Array, fileName: string): Sniffed => {
  const names = latin1(b);
  if (names.includes('word/')) return OFFICE.docx;
  if (names.includes('xl/')) return OFFICE.xlsx;
  if (names.includes('ppt/')) return OFFICE.pptx;
  const ext = extOf(fileName);
  if (names.includes('[Content_Types].xml') && OFFICE[ext]) return OFFICE[ext];
  return { contentType: 'application/zip', ext: 'zip', kind: 'document' };
};

/**
 * Whether the bytes read as UTF-8 text: no NUL and no other control characters than tab, line
 * feed, form feed and carriage return, and well-formed sequences (one cut at the end of `b` counts,
 * as `b` may be only the start of the file).
 */
const isUtf8Text = (b: Uint8Array): boolean => {
  if (b.length === 0) return false;
  let i = ascii(b, 0, '\xef\xbb\xbf') ? 3 : 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      if (c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13) return false;
      if (c === 0x7f) return false;
      i += 1;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return false;
    for (let k = 1; k <= n; k += 1) {
      if (i + k >= b.length) return true;
      if ((b[i + k] & 0xc0) !== 0x80) return false;
    }
    i += n + 1;
  }
  return true;
};

const TEXT_TYPES: Record<string, string> = { txt: 'text/plain', csv: 'text/csv', json: 'application/json', md: 'text/markdown', log: 'text/plain' };

/** The type of a file from its first bytes (at least SNIFF_BYTES of them when the file is longer), or null: a type not stored. */
export const sniffContentType = (head: Uint8Array, fileName: string): Sniffed | null => {
  const b = head;
  if (bytes(b, 0, [0xff, 0xd8, 0xff])) return { contentType: 'image/jpeg', ext: 'jpg', kind: 'image' };
  if (bytes(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: 'image/png', ext: 'png', kind: 'image' };
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return { contentType: 'image/gif', ext: 'gif', kind: 'image' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return { contentType: 'image/webp', ext: 'webp', kind: 'image' };
  if (isAvif(b)) return { contentType: 'image/avif', ext: 'avif', kind: 'image' };
  if (isBmp(b)) return { contentType: 'image/bmp', ext: 'bmp', kind: 'image' };
  if (ascii(b, 0, '%PDF-')) return { contentType: 'application/pdf', ext: 'pdf', kind: 'document' };
  if (bytes(b, 0, [0x50, 0x4b, 0x03, 0x04]) || bytes(b, 0, [0x50, 0x4b, 0x05, 0x06])) return zipKind(b, fileName);
  if (isUtf8Text(b)) {
    const ext = extOf(fileName);
    const type = TEXT_TYPES[ext];
    return type ? { contentType: `${type}; charset=utf-8`, ext, kind: 'text' } : { contentType: 'text/plain; charset=utf-8', ext: 'txt', kind: 'text' };
  }
  return null;
};

/** What a field takes: an Image field only images; a File field every known type. */
export const fieldAccepts = (field: 'Image' | 'File', sniffed: Sniffed): boolean => field === 'File' || sniffed.kind === 'image';
