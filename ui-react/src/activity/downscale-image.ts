import { downscaledSize, isDownscaledImage, jpegName, type PendingFile } from './activity-feed-model.js';

/** JPEG quality of a downscaled attachment. */
const JPEG_QUALITY = 0.85;

/**
 * Spec 001 sections 5 and 9: an attached image is downscaled so its larger side is at most 1024 px,
 * as a JPEG, before it is uploaded. Drawn on a canvas; a file that is no image the browser can
 * draw, or that fits already, is sent unchanged (a failure to draw sends the original too).
 */
export const downscaleImage = async (file: Blob, name: string): Promise<PendingFile> => {
  if (!isDownscaledImage(file.type) || typeof createImageBitmap !== 'function') return { file, name };
  try {
    const bitmap = await createImageBitmap(file);
    const size = downscaledSize(bitmap.width, bitmap.height);
    if (!size) {
      bitmap.close();
      return { file, name };
    }
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const g = canvas.getContext('2d');
    if (!g) return { file, name };
    // JPEG has no transparency: a transparent PNG gets a white background, not a black one.
    g.fillStyle = '#fff';
    g.fillRect(0, 0, size.width, size.height);
    g.drawImage(bitmap, 0, 0, size.width, size.height);
    bitmap.close();
    const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    return jpeg ? { file: jpeg, name: jpegName(name) } : { file, name };
  } catch {
    return { file, name };
  }
};
