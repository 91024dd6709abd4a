import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

/**
 * The web client's built files (ui-react/dist) as the browser should get them (issue 23 item 5):
 * the build writes `.br` and `.gz` next to every compressible file, and each request gets the
 * smallest variant its Accept-Encoding allows, with the original's Content-Type. Vite's hashed
 * files under /assets/ never change under their name, so browsers keep them a year without
 * asking; index.html (also as the SPA fallback) is revalidated on every load (no-cache plus
 * ETag/Last-Modified, so that costs a 304); other unhashed files are kept an hour.
 */

/** The cache policy of a file whose name carries a content hash. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The cache policy of the page: every load asks (a 304 when unchanged), so a new build is seen at once. */
export const REVALIDATE = 'no-cache';
/**
 * Other files that keep their name across builds (public/, e.g. theme-init.js, a blocking script
 * in the page's head): an hour, as before, so a visit does not wait for a revalidation of each.
 */
export const SHORT = 'public, max-age=3600';

/** The precompressed variants, best first (brotli is ~15% smaller than gzip on the bundle). */
const VARIANTS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
export type Coding = (typeof VARIANTS)[number]['coding'];

/**
 * The codings an Accept-Encoding header allows, best first. Our preference (br, then gzip) decides
 * between codings of equal weight: browsers list gzip before br, which is no preference. A coding
 * with q=0, explicitly or through `*;q=0`, is refused. Without the header only identity is used.
 */
export const acceptedCodings = (header: string | undefined): Coding[] => {
  if (!header) return [];
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string): number => weights.get(coding) ?? weights.get('*') ?? 0;
  return VARIANTS.map((v, rank) => ({ coding: v.coding, rank, q: weightOf(v.coding) }))
    .filter((v) => v.q > 0)
    .sort((a, b) => b.q - a.q || a.rank - b.rank)
    .map((v) => v.coding);
};

/** Vite names its output `name-HASH.ext` under assets/; only those are safe to keep forever. */
const isHashed = (urlPath: string): boolean => /^\/assets\/(?:[^/]+\/)*[^/]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/.test(urlPath);

/**
 * Unhashed files the installable app must see fresh (issue 21): the service worker (the browser
 * compares its bytes to find a new version) and the manifest are revalidated like the page.
 */
const REVALIDATED = new Set(['/sw.js', '/manifest.webmanifest']);

const cachePolicy = (urlPath: string, file: string): string => {
  if (isHashed(urlPath)) return IMMUTABLE;
  if (REVALIDATED.has(urlPath)) return REVALIDATE;
  return extname(file) === '.html' ? REVALIDATE : SHORT;
};

/**
 * The file of a URL path inside `root`, or undefined when the path cannot name one: undecodable,
 * a NUL, a backslash, a `.`/`..` segment or a dotfile (after decoding, so `%2e%2e` and `..%2f`
 * count), or a place outside root. Nothing outside dist can be read, whatever the encoding.
 */
export const fileFor = (root: string, urlPath: string): string | undefined => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.length === 0 || segments.some((s) => s.startsWith('.'))) return undefined;
  const file = resolve(root, ...segments);
  if (!file.startsWith(root + sep)) return undefined;
  return file;
};

/** A weak validator of one file's bytes, as express.static made it: its size and modification time. */
const etagOf = (path: string): string | undefined => {
  try {
    const s = statSync(path);
    return `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`;
  } catch {
    return undefined;
  }
};

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * Sends one built file: the best precompressed variant on disk that the client accepts, else the
 * original. `send` (behind res.sendFile) answers HEAD, ranges and 304s on If-None-Match /
 * If-Modified-Since against the ETag and Last-Modified of the bytes actually sent, so each
 * representation validates on its own.
 */
const sendBuilt = (req: Request, res: Response, next: NextFunction, file: string, cacheControl: string): void => {
  const variants = VARIANTS.filter((v) => existsSync(file + v.suffix));
  const chosen = acceptedCodings(req.headers['accept-encoding']).map((c) => variants.find((v) => v.coding === c)).find((v) => v);
  res.type(extname(file));
  res.setHeader('Cache-Control', cacheControl);
  // Every answer for a file that has variants depends on Accept-Encoding, the identity one too.
  if (variants.length > 0) res.vary('Accept-Encoding');
  if (chosen) res.setHeader('Content-Encoding', chosen.coding);
  const sent = chosen ? file + chosen.suffix : file;
  // The app turns ETags off for API answers, and sendFile follows that setting: files get one.
  const etag = etagOf(sent);
  if (etag) res.setHeader('ETag', etag);
  res.sendFile(sent, { cacheControl: false, dotfiles: 'allow' }, (err?: Error & { code?: string }) => {
    if (!err || res.headersSent) return;
    // Deleted between the check and the read (a rebuild): answer as if it never existed.
    res.removeHeader('Content-Encoding');
    if (err.code === 'ENOENT') next();
    else next(err);
  });
};

/**
 * Serves `dist` (GET and HEAD): built files as they are named, a 404 for any other /assets/ path
 * (a stale chunk must fail as a script error, not load the page's HTML), and index.html for every
 * other path that is not /api (the client's routes: /login, /!/list/account, ...).
 */
export const staticAssets = (distDir: string): RequestHandler => {
  const dist = resolve(distDir);
  const index = join(dist, 'index.html');
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    const file = fileFor(dist, req.path);
    if (file && isFile(file)) return sendBuilt(req, res, next, file, cachePolicy(req.path, file));
    if (req.path.startsWith('/assets/')) return next();
    sendBuilt(req, res, next, index, REVALIDATE);
  };
};
