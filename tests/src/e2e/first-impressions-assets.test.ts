import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildUi, launchBrowser, newPage, ROOT, screenshot, signIn, startServer, type Server } from './harness.js';

/**
 * Issue 23 item 5: "The JavaScript is sent uncompressed (500 KB on the wire; 154 KB gzipped).
 * Serve precompressed brotli and gzip of the built assets with long-lived cache headers (hashed
 * names) and `index.html` with no-cache". Chromium against `tessera serve` and the production
 * build (whose .br/.gz the Vite build writes).
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const NINA = 'nina@demo.test';

let server: Server;
let browser: Browser;

/** The entry module index.html names, e.g. /assets/index-GkUy3UCZ.js. */
const entryScript = (): string => {
  const html = readFileSync(join(ROOT, 'ui-react/dist/index.html'), 'utf8');
  const m = /<script type="module"[^>]*src="([^"]+)"/.exec(html);
  if (!m) throw new Error('index.html names no entry module');
  return m[1];
};

/** What the Resource Timing API saw for a same-origin file: bytes on the wire (body) and decoded. */
const timingOf = (page: Page, path: string) =>
  page.evaluate((p) => {
    const e = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname === p) as PerformanceResourceTiming | undefined;
    return e ? { transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize } : undefined;
  }, path);

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the web client arrives compressed and is cached by its hashed names (issue 23 item 5)', () => {
  it('the main bundle arrives compressed: content-encoding br or gzip, a year immutable, well under half its size', async () => {
    const { context, page } = await newPage(browser);
    const entry = entryScript();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === entry);
    const document = await page.goto(`${server.url}/login?org=${ORG}`);
    const bundle = await (await answer).allHeaders();
    expect(['br', 'gzip']).toContain(bundle['content-encoding']);
    expect(bundle['content-type']).toMatch(/^text\/javascript/);
    expect(bundle['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(bundle['vary']).toMatch(/accept-encoding/i);
    // The page itself is revalidated on every visit, so a new build is picked up at once.
    const page0 = await document!.allHeaders();
    expect(page0['cache-control']).toBe('no-cache');
    expect(['br', 'gzip']).toContain(page0['content-encoding']);

    await page.getByLabel('Organization').waitFor();
    const t = await timingOf(page, entry);
    expect(t).toBeDefined();
    expect(t!.encoded).toBeGreaterThan(0);
    expect(t!.encoded / t!.decoded).toBeLessThan(0.35);
    await context.close();
  });

  it('the compressed client runs, and a returning visit takes the bundle from the cache (nothing transferred)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await page.goto(`${server.url}/!/list/account`);
    await page.locator('.grid').waitFor();
    const entry = entryScript();
    const t = await timingOf(page, entry);
    expect(t?.transfer).toBe(0);
    expect(t?.decoded).toBeGreaterThan(100_000);
    await screenshot(page, 'assets-compressed-accounts');
    await context.close();
  });

  it('a stale chunk name answers 404, not the page', async () => {
    const r = await fetch(`${server.url}/assets/index-00000000.js`, { headers: { 'accept-encoding': 'br' } });
    expect(r.status).toBe(404);
  });

  it('screenshots: the client from the compressed bundle at 360 px, in dark mode and in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/list/account`);
    await page.locator('.grid').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await screenshot(page, 'assets-compressed-accounts-360-dark-sk');
    await context.close();
  });
});
