import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startHarness, type Harness } from './http-harness.js';

/**
 * Issue 23 item 5: "Serve precompressed brotli and gzip of the built assets with long-lived cache
 * headers (hashed names) and `index.html` with no-cache". A built folder like Vite's, with the
 * `.br`/`.gz` variants the build writes, served by the real server; requests go through
 * node:http so the bytes are the ones on the wire (fetch would decompress them) and paths reach
 * the server exactly as written (fetch would resolve `..`).
 */
const BUNDLE = 'assets/index-Ab12Cd34.js';
const SECRET = 'TOP-SECRET-OUTSIDE-DIST';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

let h: Harness;
const base = mkdtempSync(join(tmpdir(), 'tessera-assets-'));
const dist = join(base, 'dist');
const source = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: 'row ${i}' }`).join(', ')}];\n`;
const html = `<!doctype html><title>Tessera</title><script type="module" src="/${BUNDLE}"></script><div id="root"></div>${' '.repeat(200)}`;

const raw = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> =>
  new Promise((ok, fail) => {
    const url = new URL(h.url);
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(dist, '.env'), SECRET);
  for (const [name, text] of [
    ['index.html', html],
    [BUNDLE, source],
    ['theme-init.js', 'document.documentElement.dataset.theme = "light";'],
  ] as const) {
    writeFileSync(join(dist, name), text);
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(text, { level: 9 }));
  }
  // A file the build did not compress (an image): always sent as it is.
  writeFileSync(join(dist, 'assets', 'logo-Zz98Yy76.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  h = await startHarness({ staticDir: dist });
});
afterAll(async () => {
  await h?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('built assets arrive precompressed (issue 23 item 5)', () => {
  it('Accept-Encoding br: the brotli bytes, which decompress to the original, with the Content-Type of the original', async () => {
    // Chromium's header lists gzip first; br is still preferred at equal weight.
    const r = await raw(`/${BUNDLE}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(Number(r.headers['content-length'])).toBe(statSync(join(dist, `${BUNDLE}.br`)).size);
    expect(r.body.length).toBeLessThan(source.length / 3);
    expect(brotliDecompressSync(r.body).toString()).toBe(source);
  });

  it('Accept-Encoding gzip (or br refused with q=0): the gzip bytes, which decompress to the original', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip', 'br;q=0.5, gzip;q=0.8']) {
      const r = await raw(`/${BUNDLE}`, { 'accept-encoding': accept });
      expect([r.status, r.headers['content-encoding']], accept).toEqual([200, 'gzip']);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(gunzipSync(r.body).toString()).toBe(source);
    }
  });

  it('no Accept-Encoding, identity, or every coding refused: the original bytes, still marked as varying', async () => {
    for (const headers of [{} as Record<string, string>, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }, { 'accept-encoding': '*;q=0, identity' }]) {
      const r = await raw(`/${BUNDLE}`, headers);
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers['vary']).toMatch(/Accept-Encoding/i);
      expect(r.body.toString()).toBe(source);
      expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(source));
    }
  });

  it('a file without variants is sent as it is, without Vary', async () => {
    const r = await raw('/assets/logo-Zz98Yy76.png', { 'accept-encoding': 'br, gzip' });
    expect([r.status, r.headers['content-type'], r.headers['content-encoding'], r.headers['vary']]).toEqual([200, 'image/png', undefined, undefined]);
  });

  it('HEAD answers the headers of the chosen variant and no body', async () => {
    const r = await raw(`/${BUNDLE}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect([r.status, r.headers['content-encoding'], r.body.length]).toEqual([200, 'br', 0]);
    expect(Number(r.headers['content-length'])).toBe(statSync(join(dist, `${BUNDLE}.br`)).size);
  });
});

describe('cache headers: hashed files for a year, the page revalidated', () => {
  it('a hashed file under /assets/ is public, a year, immutable', async () => {
    for (const path of [`/${BUNDLE}`, '/assets/logo-Zz98Yy76.png']) {
      const r = await raw(path, { 'accept-encoding': 'br' });
      expect(r.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
    }
  });

  it('index.html and the SPA fallback are no-cache (and compressed too)', async () => {
    for (const path of ['/', '/index.html', '/login', '/!/list/account']) {
      const r = await raw(path, { 'accept-encoding': 'br, gzip' });
      expect([r.status, r.headers['cache-control'], r.headers['content-encoding']], path).toEqual([200, 'no-cache', 'br']);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(brotliDecompressSync(r.body).toString()).toBe(html);
    }
  });

  it('an unhashed file outside the page (theme-init.js) is kept an hour, as before', async () => {
    const r = await raw('/theme-init.js', { 'accept-encoding': 'gzip' });
    expect([r.status, r.headers['cache-control'], r.headers['content-encoding']]).toEqual([200, 'public, max-age=3600', 'gzip']);
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('a revalidation with the ETag or the Last-Modified of the variant answers 304', async () => {
    const first = await raw('/login', { 'accept-encoding': 'br' });
    const etag = String(first.headers['etag']);
    const modified = String(first.headers['last-modified']);
    expect(etag).toBeTruthy();
    expect(modified).toBeTruthy();
    const byTag = await raw('/login', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect([byTag.status, byTag.body.length]).toEqual([304, 0]);
    const byDate = await raw('/login', { 'accept-encoding': 'br', 'if-modified-since': modified });
    expect(byDate.status).toBe(304);
    // The identity representation has its own validator: the brotli one does not match it.
    const identity = await raw('/login', { 'if-none-match': etag });
    expect(identity.status).toBe(200);
    expect(identity.headers['etag']).not.toBe(etag);
  });
});

describe('only built files are served', () => {
  it('an unknown asset is 404, not the page (a stale chunk fails as a script error)', async () => {
    for (const path of ['/assets/index-00000000.js', '/assets/', '/assets/nosuch.css']) {
      const r = await raw(path, { 'accept-encoding': 'br' });
      expect(r.status, path).toBe(404);
      expect(r.body.toString()).toMatch(/^ERR_NOT_FOUND/);
    }
  });

  it('no path, however encoded, reads outside dist or a dotfile', async () => {
    const attempts = [
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/%2E%2E/%2E%2E/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/%252e%252e/%252e%252e/secret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/..\\..\\secret.txt',
      '/assets/%00../../secret.txt',
      '/assets/%e0%a4%a',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/.env',
      '/%2eenv',
      '//etc/passwd',
    ];
    for (const path of attempts) {
      for (const accept of [{} as Record<string, string>, { 'accept-encoding': 'br, gzip' }]) {
        const r = await raw(path, accept);
        const text = r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body).toString() : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body).toString() : r.body.toString();
        expect(text, path).not.toContain(SECRET);
        expect(text, path).not.toContain('root:');
        // Under /assets/ a path that names no built file is a 404; elsewhere it may be the page.
        if (path.startsWith('/assets/')) expect([400, 404], path).toContain(r.status);
        else if (r.status === 200) expect(text, path).toBe(html);
      }
    }
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('other methods and /api paths never reach the files', async () => {
    expect((await raw('/login', {}, 'POST')).status).toBe(404);
    const api = await raw('/api/nosuch', { 'accept-encoding': 'br' });
    expect([api.status, api.headers['content-encoding']]).toEqual([404, undefined]);
  });
});
