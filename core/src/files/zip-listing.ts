/**
 * The listing of a zip file read from its central directory (spec 001 section 7: "Zip previews
 * show only file name, modified date and size"). Pure and small: no decompression, no I/O; the
 * browser hands it the bytes of the file (or only its tail, see `tailOffset`) and draws the rows.
 *
 * Read: the end-of-central-directory record (and the zip64 one for archives over 65535 entries or
 * 4 GB), then each central-directory header: the name (UTF-8 when flagged, the Info-ZIP Unicode
 * path when present, else code page 437), the DOS modified time and the uncompressed size (the
 * zip64 extra field when the 32-bit one is saturated). Directory entries are left out.
 */

/** One file of the archive. `modified` is the DOS wall-clock time 'YYYY-MM-DDTHH:MM:SS' (zips carry no time zone). */
export type ZipEntry = { name: string; modified: string; size: number };

export type ZipListing =
  /** `entries` in central-directory order, at most `maxEntries`; `total` counts every file entry read */
  | { _tag: 'Listed'; entries: ZipEntry[]; total: number }
  /** no end-of-central-directory record, or one that points outside the file */
  | { _tag: 'NotZip' }
  /** the bytes given are a tail of the file that does not reach back to the central directory: read from `from` */
  | { _tag: 'Incomplete'; from: number };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const MAX_COMMENT = 0xffff;
const SATURATED_32 = 0xffffffff;
const SATURATED_16 = 0xffff;
/** Extra field ids: zip64 sizes, Info-ZIP Unicode path. */
const EXTRA_ZIP64 = 0x0001;
const EXTRA_UNICODE_PATH = 0x7075;
/** General-purpose flag bit 11: the name is UTF-8. */
const FLAG_UTF8 = 0x0800;

/** Code page 437, bytes 0x80 to 0xFF (the zip default for names without the UTF-8 flag). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const u16 = (b: Uint8Array, i: number): number => b[i] | (b[i + 1] << 8);
const u32 = (b: Uint8Array, i: number): number => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
/** A 64-bit little-endian value as a number (exact up to 2^53, far beyond any file a browser reads). */
const u64 = (b: Uint8Array, i: number): number => u32(b, i) + u32(b, i + 4) * 0x100000000;

/**
 * UTF-8 bytes as text, as the WHATWG decoder reads them (each maximal invalid subpart becomes one
 * U+FFFD); no TextDecoder: the core runs on bare ECMAScript.
 */
export const decodeUtf8 = (b: Uint8Array): string => {
  let out = '';
  let needed = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (needed === 0) {
      if (c <= 0x7f) out += String.fromCharCode(c);
      else if (c >= 0xc2 && c <= 0xdf) [needed, cp] = [1, c & 0x1f];
      else if (c >= 0xe0 && c <= 0xef) {
        if (c === 0xe0) lower = 0xa0;
        if (c === 0xed) upper = 0x9f;
        [needed, cp] = [2, c & 0x0f];
      } else if (c >= 0xf0 && c <= 0xf4) {
        if (c === 0xf0) lower = 0x90;
        if (c === 0xf4) upper = 0x8f;
        [needed, cp] = [3, c & 0x07];
      } else out += '\ufffd';
      continue;
    }
    if (c < lower || c > upper) {
      // the sequence so far is one replacement; this byte starts afresh
      [needed, seen, cp, lower, upper] = [0, 0, 0, 0x80, 0xbf];
      out += '\ufffd';
      i--;
      continue;
    }
    [lower, upper] = [0x80, 0xbf];
    cp = (cp << 6) | (c & 0x3f);
    if (++seen === needed) {
      out += String.fromCodePoint(cp);
      [needed, seen, cp] = [0, 0, 0];
    }
  }
  return needed === 0 ? out : out + '\ufffd';
};

const decodeCp437 = (b: Uint8Array): string => {
  let out = '';
  for (const c of b) out += c < 0x80 ? String.fromCharCode(c) : CP437_HIGH[c - 0x80];
  return out;
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** A DOS date and time (two 16-bit words) as 'YYYY-MM-DDTHH:MM:SS'; a zero date reads as 1980-01-01. */
export const dosDateTime = (date: number, time: number): string => {
  const year = 1980 + (date >> 9);
  const month = Math.min(12, Math.max(1, (date >> 5) & 0x0f));
  const day = Math.min(31, Math.max(1, date & 0x1f));
  const hour = Math.min(23, time >> 11);
  const minute = Math.min(59, (time >> 5) & 0x3f);
  const second = Math.min(59, (time & 0x1f) * 2);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
};

/** Finds the end-of-central-directory record: the last signature whose comment length reaches the end exactly. */
const findEocd = (b: Uint8Array): number => {
  const stop = Math.max(0, b.length - EOCD_SIZE - MAX_COMMENT);
  for (let i = b.length - EOCD_SIZE; i >= stop; i--) {
    if (u32(b, i) === EOCD && i + EOCD_SIZE + u16(b, i + 20) === b.length) return i;
  }
  // A tail with trailing bytes after the comment (some writers pad): take the last signature.
  for (let i = b.length - EOCD_SIZE; i >= stop; i--) if (u32(b, i) === EOCD) return i;
  return -1;
};

/** The uncompressed size from the zip64 extra field when the 32-bit one is saturated. */
const readExtra = (b: Uint8Array, start: number, end: number, sizeSaturated: boolean): { size?: number; unicodeName?: string } => {
  const found: { size?: number; unicodeName?: string } = {};
  let i = start;
  while (i + 4 <= end) {
    const id = u16(b, i);
    const len = u16(b, i + 2);
    const data = i + 4;
    if (data + len > end) break;
    // the zip64 field holds the saturated values in order, the uncompressed size first
    if (id === EXTRA_ZIP64 && sizeSaturated && len >= 8) found.size = u64(b, data);
    // version 1, the CRC of the plain name, then the UTF-8 name
    if (id === EXTRA_UNICODE_PATH && len > 5 && b[data] === 1) found.unicodeName = decodeUtf8(b.subarray(data + 5, data + len));
    i = data + len;
  }
  return found;
};

/**
 * The files of a zip archive. `bytes` is the whole file, or its last bytes when `tailOffset` (the
 * position of `bytes[0]` in the file) is given: an answer `Incomplete` then says where to read from.
 * At most `maxEntries` entries are returned (the preview shows a bounded list), `total` counts all.
 */
export const zipListing = (bytes: Uint8Array, { tailOffset = 0, maxEntries = 10_000 }: { tailOffset?: number; maxEntries?: number } = {}): ZipListing => {
  if (bytes.length < EOCD_SIZE) return { _tag: 'NotZip' };
  const eocd = findEocd(bytes);
  if (eocd < 0) return tailOffset > 0 ? { _tag: 'Incomplete', from: Math.max(0, tailOffset - EOCD_SIZE - MAX_COMMENT) } : { _tag: 'NotZip' };
  let count = u16(bytes, eocd + 10);
  let cdSize = u32(bytes, eocd + 12);
  let cdOffset = u32(bytes, eocd + 16);
  // Zip64: the locator sits right before the record and points at the zip64 end record.
  const locator = eocd - 20;
  if ((count === SATURATED_16 || cdSize === SATURATED_32 || cdOffset === SATURATED_32) && locator >= 0 && u32(bytes, locator) === ZIP64_LOCATOR) {
    const at = u64(bytes, locator + 8) - tailOffset;
    if (at < 0) return { _tag: 'Incomplete', from: at + tailOffset };
    if (at + 56 > bytes.length || u32(bytes, at) !== ZIP64_EOCD) return { _tag: 'NotZip' };
    count = u64(bytes, at + 32);
    cdSize = u64(bytes, at + 40);
    cdOffset = u64(bytes, at + 48);
  }
  const start = cdOffset - tailOffset;
  if (start < 0) return { _tag: 'Incomplete', from: cdOffset };
  if (start + cdSize > bytes.length) return { _tag: 'NotZip' };
  const entries: ZipEntry[] = [];
  let total = 0;
  let i = start;
  const end = start + cdSize;
  for (let n = 0; n < count && i + CENTRAL_HEADER_SIZE <= end; n++) {
    if (u32(bytes, i) !== CENTRAL_HEADER) {
      if (n === 0) return { _tag: 'NotZip' };
      break;
    }
    const flags = u16(bytes, i + 8);
    const time = u16(bytes, i + 12);
    const date = u16(bytes, i + 14);
    const size32 = u32(bytes, i + 24);
    const nameLen = u16(bytes, i + 28);
    const extraLen = u16(bytes, i + 30);
    const commentLen = u16(bytes, i + 32);
    const nameAt = i + CENTRAL_HEADER_SIZE;
    const extraAt = nameAt + nameLen;
    const next = extraAt + extraLen + commentLen;
    if (next > end) break;
    const raw = bytes.subarray(nameAt, extraAt);
    const extra = readExtra(bytes, extraAt, extraAt + extraLen, size32 === SATURATED_32);
    const name = extra.unicodeName ?? ((flags & FLAG_UTF8) !== 0 ? decodeUtf8(raw) : decodeCp437(raw));
    if (!name.endsWith('/')) {
      total++;
      if (entries.length < maxEntries) entries.push({ name, modified: dosDateTime(date, time), size: extra.size ?? size32 });
    }
    i = next;
  }
  return { _tag: 'Listed', entries, total };
};
