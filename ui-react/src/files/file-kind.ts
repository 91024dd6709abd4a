/**
 * What a file is, for its preview and its editor (spec 001 section 9: "Recognized image types:
 * image, jpg, jpeg, png, bmp, gif, webp, avif"; section 7: zip previews show name, modified date
 * and size). Read from the content type when known, else from the name's extension (a blob name
 * carries the extension of its sniffed type).
 */

export type FileKind = 'image' | 'pdf' | 'zip' | 'other';

/** The spec's image extensions ('image' is the generic one some stores use). */
export const IMAGE_EXTENSIONS = ['image', 'jpg', 'jpeg', 'png', 'bmp', 'gif', 'webp', 'avif'] as const;

/** The extension of a name, lower case, '' when none. */
export const extensionOf = (name: string): string => {
  const base = name.split(/[?#]/)[0].split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

/** The kind of a file by its content type, else its name. Office files (zip containers) are not zips to browse. */
export const fileKind = (name: string, contentType?: string): FileKind => {
  const type = (contentType ?? '').toLowerCase().split(';')[0].trim();
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/zip' || type === 'application/x-zip-compressed') return 'zip';
  if (type && type !== 'application/octet-stream') return 'other';
  const ext = extensionOf(name);
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if (ext === 'zip') return 'zip';
  return 'other';
};

/** A short label of the type for the editor's line: the extension in capitals, else the content type. */
export const typeLabel = (name: string, contentType?: string): string => extensionOf(name).toUpperCase() || contentType || '';
