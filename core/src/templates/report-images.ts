import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { MAX_IMAGE_PIXELS, type ReportBody } from './report-template.js';
import { TEMPLATE_ERRORS, templateError, type TemplateError } from './template-errors.js';

/**
 * Report images (spec 002 section 3 "Report image: body."): images stored as report_image
 * records, named by a body's image block `{ "type": "image", "image": { "name": "Logo" } }`, so
 * one logo serves every template. A missing, unreadable or malformed one is spec 002 section 8's
 * "Image load failure": 'Cannot load image'.
 */
export const REPORT_IMAGE_ENTITY = 'report_image';
/** A report image's body: a PNG or JPEG data URL (a 2000 px JPEG fits, as in a report body). */
export const MAX_REPORT_IMAGE_CHARS = 3_000_000;
/** Named images one body may use (they are read in one query, and all travel to the renderer). */
export const MAX_NAMED_IMAGES = 10;
/** All named images of one document together. */
export const MAX_NAMED_IMAGES_CHARS = 6_000_000;

const cannotLoad = (detail: string): TemplateError => templateError(TEMPLATE_ERRORS.cannotLoadImage, -1, detail);

/** The report images a body names, each once, in the order of its blocks. */
export const reportImageNames = (body: ReportBody): string[] => [
  ...new Set(body.content.flatMap((b) => (b.type === 'image' && typeof b.image !== 'string' ? [b.image.name] : []))),
];

const DATA_URL = /^data:image\/(png|jpeg);base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Bytes of base64 text, decoded on demand (a JPEG's size sits after its header segments, a PNG's in its first 24 bytes). */
const base64Bytes = (text: string): { length: number; at: (i: number) => number } => {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const length = (text.length / 4) * 3 - padding;
  const at = (i: number): number => {
    const q = Math.floor(i / 3) * 4;
    const n = (ALPHABET.indexOf(text[q]) << 18) | (ALPHABET.indexOf(text[q + 1]) << 12) | (Math.max(0, ALPHABET.indexOf(text[q + 2])) << 6) | Math.max(0, ALPHABET.indexOf(text[q + 3]));
    return (n >> (16 - 8 * (i % 3))) & 0xff;
  };
  return { length, at };
};

type Bytes = ReturnType<typeof base64Bytes>;
const u16 = (b: Bytes, i: number): number => (b.at(i) << 8) | b.at(i + 1);
const u32 = (b: Bytes, i: number): number => u16(b, i) * 65536 + u16(b, i + 2);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pngSize = (b: Bytes): { width: number; height: number } | null =>
  b.length >= 24 && PNG_SIGNATURE.every((x, i) => b.at(i) === x) ? { width: u32(b, 16), height: u32(b, 20) } : null;

/** A JPEG's size from its first start-of-frame marker. */
const jpegSize = (b: Bytes): { width: number; height: number } | null => {
  if (b.length < 4 || b.at(0) !== 0xff || b.at(1) !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b.at(i) !== 0xff) return null;
    const marker = b.at(i + 1);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: u16(b, i + 5), width: u16(b, i + 7) };
    i += 2 + u16(b, i + 2);
  }
  return null;
};

/**
 * A report image's body checked: a `data:image/png;base64,` or `data:image/jpeg;base64,` URL
 * whose bytes are that kind of image, at most MAX_IMAGE_PIXELS on its longer side (spec 002
 * section 9) and MAX_REPORT_IMAGE_CHARS long; else why not.
 */
export const checkImageDataUrl = (source: string): Either<string, { type: 'png' | 'jpeg'; width: number; height: number }> => {
  if (source.length > MAX_REPORT_IMAGE_CHARS) return left(`longer than ${MAX_REPORT_IMAGE_CHARS} characters`);
  const head = DATA_URL.exec(source);
  if (!head) return left('not a data:image/png;base64 or data:image/jpeg;base64 URL');
  const text = source.slice(head[0].length);
  if (text.length % 4 !== 0 || !BASE64.test(text)) return left('not base64');
  const bytes = base64Bytes(text);
  const size = head[1] === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size.width <= 0 || size.height <= 0) return left(`not a ${head[1] === 'png' ? 'PNG' : 'JPEG'} image`);
  if (Math.max(size.width, size.height) > MAX_IMAGE_PIXELS) return left(`larger than ${MAX_IMAGE_PIXELS} px`);
  return right({ type: head[1] as 'png' | 'jpeg', ...size });
};

/**
 * Reads the report images a body names, as the caller (their permissions apply), in one query:
 * name to data URL. A name with no record the caller may read, a body that is not a PNG/JPEG data
 * URL within the limits, or an organization without report images is 'Cannot load image'. Of
 * two records with one name, the last modified wins (a re-uploaded logo replaces the old one).
 */
export const loadReportImages = async (
  deps: { store: Pick<RecordStore, 'retrieveMultiple'>; entities: readonly Entity[] },
  caller: Caller,
  names: readonly string[],
): Promise<Either<TemplateError | DomainError, Record<string, string>>> => {
  if (names.length === 0) return right({});
  if (names.length > MAX_NAMED_IMAGES) return left(templateError(TEMPLATE_ERRORS.invalidFormat, -1, `more than ${MAX_NAMED_IMAGES} report images`));
  if (!deps.entities.some((e) => e.logicalName === REPORT_IMAGE_ENTITY)) return left(cannotLoad(`no report image named '${names[0]}'`));
  const found = await deps.store.retrieveMultiple(caller, {
    entity: {
      name: REPORT_IMAGE_ENTITY,
      attributes: [{ attribute: 'name' }, { attribute: 'body' }],
      filter: { conditions: [{ attribute: 'name', operator: 'in', value: [...names] }] },
      orders: [{ attribute: 'modifiedon', descending: true }],
    },
    pageSize: MAX_NAMED_IMAGES * 10,
  });
  if (isLeft(found)) return found.left.code === 'ERR_PERMISSION' || found.left.code === 'ERR_NOT_FOUND' ? left(cannotLoad(`no report image named '${names[0]}'`)) : found;
  const images: Record<string, string> = {};
  let total = 0;
  for (const name of names) {
    const rec = found.right.records.find((r) => r.name === name);
    if (!rec) return left(cannotLoad(`no report image named '${name}'`));
    const body = typeof rec.body === 'string' ? rec.body : '';
    const checked = checkImageDataUrl(body);
    if (isLeft(checked)) return left(cannotLoad(`the report image '${name}' is ${checked.left}`));
    total += body.length;
    if (total > MAX_NAMED_IMAGES_CHARS) return left(cannotLoad(`the report images are longer than ${MAX_NAMED_IMAGES_CHARS} characters together`));
    images[name] = body;
  }
  return right(images);
};
