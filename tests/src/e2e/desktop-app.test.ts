import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildUi, CHROMIUM, launchBrowser, newPage, ROOT, startServer, type Server } from './harness.js';
import { translate } from '@tessera/core/internal';
import { startHarness } from '../http/http-harness.js';

/**
 * Issue 21, the desktop build: "the web client as an installable app (a Progressive Web App: web
 * manifest, icons, a service worker that caches the app shell and the built assets, so it starts
 * with no network) ... Chromium's install prompt works on localhost". Chromium against
 * `tessera serve` and the production build; the network is cut by the test (context.setOffline).
 */
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const SHOTS = join(ROOT, 'artifacts', 'desktop-app');

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits until a service worker controls the page and has its shell cache filled. */
const activeWorker = (p: Page) =>
  p.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((ok) => navigator.serviceWorker.addEventListener('controllerchange', ok, { once: true }));
    const names = await caches.keys();
    const urls = (await Promise.all(names.map(async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname)))).flat();
    return { state: reg.active?.state, script: new URL(reg.active?.scriptURL ?? 'x:').pathname, names, urls };
  });

describe('the installable app starts with no network (issue 21, the desktop build)', () => {
  it('the service worker becomes active and precaches the shell and the built assets, never an /api call', async () => {
    await page.goto(`${server.url}/login?org=demo`);
    await page.getByLabel('Organization').waitFor();
    const sw = await activeWorker(page);
    expect(sw.state).toBe('activated');
    expect(sw.script).toBe('/sw.js');
    expect(sw.names).toHaveLength(1);
    expect(sw.names[0]).toMatch(/^tessera-shell-[0-9a-f]{8}$/);
    expect(sw.urls).toContain('/index.html');
    expect(sw.urls).toContain('/manifest.webmanifest');
    expect(sw.urls.filter((u) => u.startsWith('/assets/') && u.endsWith('.js')).length).toBeGreaterThan(10);
    expect(sw.urls.some((u) => u.startsWith('/assets/') && u.endsWith('.css'))).toBe(true);
    expect(sw.urls.filter((u) => u.startsWith('/api'))).toEqual([]);
  }, 60_000);

  it('with the network cut, a reload and a deep link render the app from the cache', async () => {
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByLabel('Organization').waitFor();
      await expect(page.getByRole('button', { name: 'Sign in', exact: true }).isVisible()).resolves.toBe(true);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'offline-login.png') });
      // A route of the app, never visited: the cached index.html answers the navigation.
      // Not signed in here, so the app goes on to the sign-in page with the way back.
      await page.goto(`${server.url}/!/list/account`);
      await page.getByLabel('Organization').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.screenshot({ path: join(SHOTS, 'offline-deep-link.png') });
      // And /api is not answered from any cache: the call fails like without a worker.
      const api = await page.evaluate(() => fetch('/api/getusercontext').then((r) => `status ${r.status}`, (e: unknown) => `failed ${String(e)}`));
      expect(api).toMatch(/^failed/);
    } finally {
      await context.setOffline(false);
    }
  }, 60_000);

  it("requests the worker leaves alone still reach playwright's routes (other browser tests stub /api calls)", async () => {
    await page.goto(`${server.url}/login?org=demo`);
    await activeWorker(page);
    await page.route('**/api/ping-stub**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'stubbed' }));
    try {
      expect(await page.evaluate(() => fetch('/api/ping-stub?x=1').then((r) => r.text()))).toBe('stubbed');
    } finally {
      await page.unroute('**/api/ping-stub**');
    }
  }, 60_000);

  it('the manifest is valid: Chromium parses it without errors and its icons load at their sizes', async () => {
    await page.goto(`${server.url}/login?org=demo`);
    await page.getByLabel('Organization').waitFor();
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(`${server.url}${href}`);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; purpose: string }> };
    expect(manifest).toMatchObject({ name: 'Tessera', short_name: 'Tessera', start_url: '/', display: 'standalone' });
    for (const icon of manifest.icons) {
      const size = await page.evaluate(
        (src) =>
          new Promise<string>((ok, fail) => {
            const img = new Image();
            img.onload = () => ok(`${img.naturalWidth}x${img.naturalHeight}`);
            img.onerror = () => fail(new Error(`icon ${src} did not load`));
            img.src = src;
          }),
        icon.src,
      );
      expect(size).toBe(icon.sizes);
    }
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);

    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { errors: Array<{ message: string; critical: number }>; url: string };
    expect(parsed.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(parsed.errors).toEqual([]);
  }, 60_000);

  it('in a normal (not off-the-record) profile Chromium has no installability error: the install prompt is offered', async () => {
    // A playwright context is off the record ('in-incognito' would be reported): a real profile folder.
    const profile = mkdtempSync(join(tmpdir(), 'tessera-pwa-profile-'));
    const own = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const p = await own.newPage();
      await p.goto(`${server.url}/login?org=demo`);
      await p.evaluate(async () => void (await navigator.serviceWorker.ready));
      const cdp = await own.newCDPSession(p);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await own.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a new version of the installable app (issue 21: updates cleanly)', () => {
  it('a new sw.js waits, the user is asked, Reload switches to it and the old cache is deleted (360 px, dark, Slovak)', async () => {
    // A copy of the build served in-process, so this test can make a "new build" by changing its sw.js.
    const dist = mkdtempSync(join(tmpdir(), 'tessera-pwa-dist-'));
    cpSync(join(ROOT, 'ui-react/dist'), dist, { recursive: true });
    const h = await startHarness({ staticDir: dist });
    const { context: ctx, page: p } = await newPage(browser, 360, 740);
    try {
      await ctx.addInitScript(() => {
        localStorage.setItem('tessera.colorTheme', '1');
        localStorage.setItem('tessera.language', 'sk');
      });
      await p.goto(`${h.url}/login?org=demo`);
      const before = await activeWorker(p);
      const old = before.names[0];
      // A new build: another version in sw.js (the precompressed twins removed, so the new bytes are sent).
      const sw = join(dist, 'sw.js');
      writeFileSync(sw, readFileSync(sw, 'utf8').replaceAll(old.slice('tessera-shell-'.length), 'feedf00d'));
      rmSync(sw + '.br', { force: true });
      rmSync(sw + '.gz', { force: true });
      await p.evaluate(async () => void (await (await navigator.serviceWorker.ready).update()));
      const dialog = p.getByRole('dialog');
      await dialog.getByText(translate('sk', 'PwaUpdateReady')).waitFor();
      mkdirSync(SHOTS, { recursive: true });
      await p.screenshot({ path: join(SHOTS, 'update-ready-360-dark-sk.png') });
      // The old version still runs the page until the user agrees.
      expect(await p.evaluate(() => caches.keys())).toContain(old);
      const reloaded = p.waitForEvent('load');
      await dialog.getByRole('button', { name: translate('sk', 'CmdReload') }).click();
      await reloaded;
      await p.locator('input').first().waitFor();
      await expect.poll(() => p.evaluate(() => caches.keys()), { timeout: 10_000 }).toEqual(['tessera-shell-feedf00d']);
    } finally {
      await ctx.close();
      await h.close();
      rmSync(dist, { recursive: true, force: true });
    }
  }, 60_000);
});
