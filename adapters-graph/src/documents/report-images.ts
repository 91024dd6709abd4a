import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { MAX_IMAGE_PIXELS, TEMPLATE_ERRORS, templateError, type TemplateError } from '@tessera/core/internal';

/** An image of a template, decoded: its bytes, kind and pixel size (read from the file's header). */
export type ReportImage = { readonly data: Buffer; readonly type: 'png' | 'jpg'; readonly width: number; readonly height: number };

const pngSize = (b: Buffer): { width: number; height: number } | null =>
  b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null;

/** A JPEG's size from its first start-of-frame marker. */
const jpegSize = (b: Buffer): { width: number; height: number } | null => {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
};

/**
 * A data URL (or bare base64) of a PNG or JPEG, at most MAX_IMAGE_PIXELS on its longer side (spec
 * 002 section 9): anything else is 'Invalid template format' with the reason.
 */
export const decodeReportImage = (source: string): Either<TemplateError, ReportImage> => {
  const base64 = source.replace(/^data:image\/[a-z+]+;base64,/i, '');
  const data = Buffer.from(base64, 'base64');
  const png = pngSize(data);
  const jpg = png ? null : jpegSize(data);
  const size = png ?? jpg;
  if (!size || size.width <= 0 || size.height <= 0) return left(templateError(TEMPLATE_ERRORS.invalidFormat, -1, 'an image is not a PNG or JPEG'));
  if (Math.max(size.width, size.height) > MAX_IMAGE_PIXELS) return left(templateError(TEMPLATE_ERRORS.invalidFormat, -1, `an image is larger than ${MAX_IMAGE_PIXELS} px`));
  return right({ data, type: png ? 'png' : 'jpg', ...size });
};
