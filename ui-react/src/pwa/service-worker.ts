/// <reference lib="webworker" />
import { cacheName, NAVIGATION_TIMEOUT_MS, routeOf, SERVER_PATTERNS, SHELL_PAGE, SKIP_WAITING, staleCaches } from './sw-plan.js';

/**
 * The service worker of the installable app (issue 21): it keeps the app shell (index.html and
 * every built file) so the app starts with no network, and nothing else. Built into dist/sw.js by
 * vite-pwa.ts, which replaces the two constants below with the build's file list and version.
 *
 * Updates: a new build is a new sw.js; the browser installs it beside the running one and it waits.
 * It takes over when the user agrees (the page posts SKIP_WAITING, register.ts asks) or at the next
 * start of the app (all its windows closed); activating deletes the older shells' caches.
 */

declare const self: ServiceWorkerGlobalScope;
declare const __TESSERA_PRECACHE__: string[];
declare const __TESSERA_VERSION__: string;

const PRECACHE: readonly string[] = __TESSERA_PRECACHE__;
const CACHE = cacheName(__TESSERA_VERSION__);
const precached = new Set(PRECACHE);

/** The Static Routing API (Chromium 123+): requests matched here never wake the worker. */
type RouterRule = { condition: Record<string, unknown>; source: 'network' };
type RoutingInstallEvent = ExtendableEvent & { addRoutes?: (rules: RouterRule | RouterRule[]) => Promise<void> };

self.addEventListener('install', (event) => {
  // `reload`: past the HTTP cache, so a half-updated browser cache never mixes two builds.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((p) => new Request(p, { cache: 'reload' })))));
  // Calls to the server go straight to the network where the browser can: no worker start-up on a
  // call, and the page's own network stack sees them (devtools, test interception). Elsewhere the
  // fetch handler leaves them alone (routeOf: 'network'), which has the same outcome.
  const routing = event as RoutingInstallEvent;
  if (routing.addRoutes)
    event.waitUntil(
      routing
        .addRoutes(SERVER_PATTERNS.map((urlPattern) => ({ condition: { urlPattern }, source: 'network' as const })))
        .catch((e: unknown) => console.warn('static routes not added', e)),
    );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all(staleCaches(await caches.keys(), CACHE).map((name) => caches.delete(name)));
      // The first install controls the open page at once, so it works offline without a reload.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === SKIP_WAITING) void self.skipWaiting();
});

/** The cached page of this build, or undefined before the install finished. */
const cachedShell = async (): Promise<Response | undefined> => (await caches.open(CACHE)).match(SHELL_PAGE);

/** The network's page; the cached one when the network fails or is slower than NAVIGATION_TIMEOUT_MS. */
const shell = async (request: Request): Promise<Response> => {
  const network = fetch(request);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((ok) => (timer = setTimeout(() => ok('late'), NAVIGATION_TIMEOUT_MS)));
  try {
    const first = await Promise.race([network, late]);
    if (first !== 'late') return first;
    return (await cachedShell()) ?? (await network);
  } catch (e) {
    const cached = await cachedShell();
    if (cached) return cached;
    throw e;
  } finally {
    clearTimeout(timer);
  }
};

const fromCache = async (request: Request): Promise<Response> => (await caches.open(CACHE)).match(request, { ignoreSearch: true }).then((hit) => hit ?? fetch(request));

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const route = routeOf({ method: request.method, url: request.url, mode: request.mode, origin: self.location.origin }, precached);
  if (route === 'shell') event.respondWith(shell(request));
  else if (route === 'cache') event.respondWith(fromCache(request));
  // `network` and `passthrough`: not answered here, the browser fetches as without a worker.
});
