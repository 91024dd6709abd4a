import { ATTACHMENT_MAX_IMAGE_SIZE, downscaleImage as downscale } from '../files/image-resize.js';
import type { PendingFile } from './activity-feed-model.js';

/**
 * Spec 001 sections 5 and 9: an attached image is downscaled so its larger side is at most 1024 px,
 * as a JPEG, before it is uploaded (the file fields' canvas drawing, files/image-resize.ts). A file
 * that is no image the browser can draw, or that fits already, is sent unchanged; so is one that
 * fails to draw.
 */
export const downscaleImage = async (file: Blob, name: string): Promise<PendingFile> => {
  if (typeof createImageBitmap !== 'function') return { file, name };
  try {
    const drawn = await downscale(file, name, ATTACHMENT_MAX_IMAGE_SIZE, 'image/jpeg');
    return { file: drawn.blob, name: drawn.fileName };
  } catch {
    return { file, name };
  }
};
