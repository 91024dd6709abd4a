import { useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import { session } from '../state/session.js';

/**
 * A stored blob as the field shows it: its signed address for this user (the user context's
 * `sas`, F1's contract: `/api/blob/{org}/{name}?{sas}`), and what a HEAD request tells of it
 * (the original file name of the Content-Disposition, the size and type). A field keeps only the
 * blob name (`<id>.<ext>`), so the original name is read from the server when it is shown.
 */

/** The signed address of a field's value ('' when empty); an old value that is an address is used as it is. */
export const useBlobUrl = (name: string): string => {
  const api = useApi();
  const ctx = session.value?.context;
  if (!name || !ctx) return '';
  return api.blobUrl(ctx, name);
};

export type StoredFileInfo = { fileName?: string; size?: number; contentType?: string };

/** The file name of a Content-Disposition header: filename* (RFC 5987) first, else filename. */
export const dispositionFileName = (header: string | null): string | undefined => {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* a broken escape: take the plain one */
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/.exec(header);
  const v = plain?.[1] ?? plain?.[2];
  return v ? v.replace(/\\(.)/g, '$1').trim() : undefined;
};

/** One blob, whatever signature its address carries (a refreshed context signs anew). */
const keyOf = (url: string): string => url.split('?')[0];
const known = new Map<string, Promise<StoredFileInfo | null>>();
/** The answers already in, for lists drawn at once (the preview's files of a form). */
const resolved = new Map<string, StoredFileInfo | null>();
/** What is known of an address now, without asking. */
export const knownFileInfo = (url: string): StoredFileInfo | null => resolved.get(keyOf(url)) ?? null;
const infoOf = (url: string): Promise<StoredFileInfo | null> => {
  const key = keyOf(url);
  let p = known.get(key);
  if (!p) {
    p = fetch(url, { method: 'HEAD', credentials: 'same-origin' })
      .then((res) => {
        if (!res.ok) return null;
        const size = Number(res.headers.get('content-length'));
        return { fileName: dispositionFileName(res.headers.get('content-disposition')), size: Number.isFinite(size) && res.headers.has('content-length') ? size : undefined, contentType: res.headers.get('content-type') ?? undefined };
      })
      .catch(() => null)
      .then((info) => {
        resolved.set(key, info);
        return info;
      });
    known.set(key, p);
    // a bounded memory of addresses (signed addresses change with the sas)
    if (known.size > 200) {
      const oldest = known.keys().next().value as string;
      known.delete(oldest);
      resolved.delete(oldest);
    }
  }
  return p;
};

/** The original name, size and type of a stored blob (null until known, or when the server does not say). */
export const useStoredFileInfo = (url: string): StoredFileInfo | null => {
  const [info, setInfo] = useState<StoredFileInfo | null>(null);
  useEffect(() => {
    setInfo(null);
    if (!url || !url.startsWith('/') && !url.startsWith(location.origin)) return;
    let live = true;
    void infoOf(url).then((i) => live && setInfo(i));
    return () => {
      live = false;
    };
  }, [url]);
  return info;
};
