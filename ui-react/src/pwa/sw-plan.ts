/**
 * The service worker's rules as pure functions (issue 21, the desktop build), shared by the build
 * (vite-pwa.ts writes the precache list into sw.js) and the worker itself (service-worker.ts), and
 * tested without a browser: which built files are kept for a start without network, what a cache
 * is called, which old caches go, and how each request is answered.
 */

/** Every cache of the app shell starts with this; the version follows it. */
export const SHELL_CACHE_PREFIX = 'tessera-shell-';

/** The page every navigation falls back to when the network is gone (the SPA's one document). */
export const SHELL_PAGE = '/index.html';

/** The worker's own file: never precached (the browser fetches it itself to look for updates). */
export const WORKER_FILE = 'sw.js';

/** The message a page posts to a waiting worker when the user agrees to switch to the new version. */
export const SKIP_WAITING = 'tessera:skipWaiting';

/**
 * The files of a build worth keeping for an offline start, as absolute URL paths, sorted: the page,
 * the scripts, styles, fonts, images and the manifest. Not the precompressed twins (.br/.gz: the
 * browser asks for the original and the server negotiates), not source maps, not the worker itself,
 * not dotfiles or the TypeScript declarations shipped in public/ for the script editor.
 */
export const precacheList = (files: readonly string[]): string[] => {
  const keep = (f: string): boolean => {
    const path = f.replace(/\\/g, '/').replace(/^\/+/, '');
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!name || name.startsWith('.') || path.split('/').some((s) => s.startsWith('.'))) return false;
    if (name === WORKER_FILE || name === 'sw-manifest.json') return false;
    if (/\.(?:br|gz|map)$/.test(name) || name.endsWith('.d.ts')) return false;
    return true;
  };
  return [...new Set(files.filter(keep).map((f) => '/' + f.replace(/\\/g, '/').replace(/^\/+/, '')))].sort();
};

/** A short stable hash (FNV-1a, 32 bits, hex) of the text: the version of a build's file list. */
export const hashText = (text: string): string => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
};

/**
 * The version of a build: the hash of its precached paths and of a build stamp. Hashed asset
 * names change with their content, so a new build gives a new version, hence a new sw.js, which is
 * what the browser compares to notice an update.
 */
export const buildVersion = (paths: readonly string[], stamp: string): string => hashText(`${stamp}\n${paths.join('\n')}`);

export const cacheName = (version: string): string => `${SHELL_CACHE_PREFIX}${version}`;

/** The caches an activated worker deletes: older shells of this app; other caches are not ours. */
export const staleCaches = (names: readonly string[], current: string): string[] =>
  names.filter((n) => n.startsWith(SHELL_CACHE_PREFIX) && n !== current);

/**
 * How the worker answers a request:
 * - `network`: not its business, the browser's normal fetch: any call to the server (/api/*, the
 *   provider sign-in /auth/*), other origins (the desktop mode's fixed host, map tiles), anything
 *   but GET. Calls are never cached: their answers depend on the user and change.
 * - `shell`: a page navigation: the network first (a new deployment is seen at once), the cached
 *   index.html when the network fails or takes longer than NAVIGATION_TIMEOUT_MS.
 * - `cache`: a precached file: from the cache, else the network.
 * - `passthrough`: another file of the site, not precached: the network.
 */
export type RequestRoute = 'network' | 'shell' | 'cache' | 'passthrough';

export type RequestFacts = { method: string; url: string; mode: string; origin: string };

/** Server paths the worker never answers (spec 000 section 7: the calls and the provider redirects). */
export const isServerPath = (path: string): boolean => /^\/(?:api|auth)(?:\/|$)/.test(path);

/**
 * The same server paths as URL pattern dictionaries for the browser's static routes: the other
 * parts (origin, query) are wildcards, so the desktop build's fixed host matches too.
 */
export const SERVER_PATTERNS: ReadonlyArray<{ pathname: string }> = ['/api', '/api/*', '/auth', '/auth/*'].map((pathname) => ({ pathname }));

export const routeOf = (req: RequestFacts, precached: ReadonlySet<string>): RequestRoute => {
  if (req.method !== 'GET') return 'network';
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return 'network';
  }
  if (url.origin !== req.origin || isServerPath(url.pathname)) return 'network';
  if (req.mode === 'navigate') return 'shell';
  return precached.has(url.pathname) ? 'cache' : 'passthrough';
};

/** A navigation waits this long for the network before the cached shell is shown (a poor connection). */
export const NAVIGATION_TIMEOUT_MS = 4000;
