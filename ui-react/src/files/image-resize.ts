/**
 * Images made smaller and turned in the browser, before they are uploaded (spec 001 section 5:
 * "images are resized on upload (default maximum 1200 px; activity attachments 1024; the size
 * may come from field parameters, 0 means none)"; spec 002: "outputs JPEG limited to a maximum
 * side length"). A PNG stays a PNG (its transparency), everything else drawn becomes JPEG; an
 * image already within the maximum is sent as it is (no second compression). GIFs are never
 * redrawn when resizing (a canvas keeps only the first frame of an animation).
 * The sizing rules are pure (tested); the drawing uses createImageBitmap and a canvas.
 */

/** The default maximum side of an uploaded image (spec 001 section 9). */
export const DEFAULT_MAX_IMAGE_SIZE = 1200;
/** Activity attachments are resized to this (spec 001 section 9). */
export const ATTACHMENT_MAX_IMAGE_SIZE = 1024;
const JPEG_QUALITY = 0.9;

/** The maximum of a form field: its customComponentParameters.maxImageSize, else the default; 0 means none. */
export const maxImageSizeOf = (params: Record<string, unknown> | undefined, fallback = DEFAULT_MAX_IMAGE_SIZE): number => {
  const v = params?.maxImageSize;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
};

/** The size that fits within `max` on the longer side, aspect kept (at least 1 px); `max` 0 keeps the size. */
export const fitWithin = (width: number, height: number, max: number): { width: number; height: number } => {
  if (max <= 0 || (width <= max && height <= max)) return { width, height };
  const scale = max / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
};

/** The type a redrawn image is written as: PNG for PNG (and GIF, when turned), JPEG for the rest. */
export const drawnType = (type: string): 'image/png' | 'image/jpeg' => (/^image\/(png|gif)$/i.test(type) ? 'image/png' : 'image/jpeg');

/** Whether an image of this type is redrawn to make it smaller (not GIF: the animation would be lost). */
export const resizable = (type: string): boolean => /^image\/(jpeg|jpg|pjpeg|png|webp|bmp|avif)$/i.test(type);

/** The file name after a redraw: the extension of the written type ('photo.bmp' drawn as JPEG is 'photo.jpg'). */
export const renamed = (fileName: string, type: string): string => {
  const ext = type === 'image/png' ? 'png' : 'jpg';
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const current = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  if (ext === 'jpg' && (current === 'jpg' || current === 'jpeg')) return fileName;
  return `${stem || 'image'}.${ext}`;
};

/** The size of an image turned by a number of quarter turns. */
export const turnedSize = (width: number, height: number, quarterTurns: number): { width: number; height: number } =>
  ((quarterTurns % 4) + 4) % 2 === 1 ? { width: height, height: width } : { width, height };

/** The decoding failure of spec 002 ('Cannot load image'): the file is not an image the browser reads. */
export class ImageLoadError extends Error {
  constructor() {
    super('Cannot load image');
    this.name = 'ImageLoadError';
  }
}

/** A picture ready to draw, with its size (the EXIF orientation applied). */
type Decoded = { source: CanvasImageSource; width: number; height: number; close: () => void };

const decode = async (blob: Blob): Promise<Decoded> => {
  try {
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
    return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
  } catch {
    throw new ImageLoadError();
  }
};

type Canvas = HTMLCanvasElement | OffscreenCanvas;
const canvasOf = (width: number, height: number): Canvas => {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
};
const encode = (canvas: Canvas, type: string): Promise<Blob> =>
  'convertToBlob' in canvas
    ? canvas.convertToBlob({ type, quality: JPEG_QUALITY })
    : new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new ImageLoadError())), type, JPEG_QUALITY));

/** Draws `image` on a new canvas of `width` x `height`, turned by `quarterTurns`; JPEG gets a white ground (no black where it was transparent). */
const draw = (image: Decoded, width: number, height: number, quarterTurns: number, type: string): Canvas => {
  const size = turnedSize(width, height, quarterTurns);
  const canvas = canvasOf(size.width, size.height);
  const g = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!g) throw new ImageLoadError();
  if (type === 'image/jpeg') {
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, size.width, size.height);
  }
  g.imageSmoothingEnabled = true;
  g.imageSmoothingQuality = 'high';
  g.translate(size.width / 2, size.height / 2);
  g.rotate((quarterTurns * Math.PI) / 2);
  g.drawImage(image.source, -width / 2, -height / 2, width, height);
  return canvas;
};

export type PreparedImage = { blob: Blob; fileName: string; width: number; height: number; resized: boolean };

/**
 * An image as it is uploaded: smaller than `max` on its longer side (0: any size), or the file
 * itself when it fits already or is a GIF. Written as PNG or JPEG by its type, or always as
 * `as` (activity attachments are JPEG). Rejects with ImageLoadError when it does not decode.
 */
export const downscaleImage = async (file: Blob, fileName: string, max: number, as?: 'image/jpeg'): Promise<PreparedImage> => {
  const image = await decode(file);
  try {
    const fit = fitWithin(image.width, image.height, max);
    const fits = fit.width === image.width && fit.height === image.height;
    if (fits || !resizable(file.type)) return { blob: file, fileName, width: image.width, height: image.height, resized: false };
    const type = as ?? drawnType(file.type);
    const blob = await encode(draw(image, fit.width, fit.height, 0, type), type);
    return { blob, fileName: renamed(fileName, type), width: fit.width, height: fit.height, resized: true };
  } finally {
    image.close();
  }
};

/** An image turned by quarter turns (positive: clockwise), written as PNG or JPEG by its type. */
export const rotateImage = async (file: Blob, fileName: string, quarterTurns: number): Promise<PreparedImage> => {
  const image = await decode(file);
  try {
    const type = drawnType(file.type);
    const blob = await encode(draw(image, image.width, image.height, quarterTurns, type), type);
    const size = turnedSize(image.width, image.height, quarterTurns);
    return { blob, fileName: renamed(fileName, type), width: size.width, height: size.height, resized: true };
  } finally {
    image.close();
  }
};
