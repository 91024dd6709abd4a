import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from './http-harness.js';

/**
 * Issue 21 (the desktop build): the server sends the installable app's files with the right types
 * and cache headers: sw.js and the manifest revalidated on every load like index.html (a new build
 * is a new worker, found by the browser's byte comparison), icons an hour, hashed assets a year.
 */
let h: Harness;
const base = mkdtempSync(join(tmpdir(), 'tessera-pwa-'));
const dist = join(base, 'dist');

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  mkdirSync(join(dist, 'icons'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Tessera</title>');
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Tessera' }));
  writeFileSync(join(dist, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'export {};');
  h = await startHarness({ staticDir: dist });
});
afterAll(async () => {
  await h?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the installable app files (issue 21)', () => {
  it.each([
    ['/sw.js', /^text\/javascript/, 'no-cache'],
    ['/manifest.webmanifest', /^application\/manifest\+json/, 'no-cache'],
    ['/index.html', /^text\/html/, 'no-cache'],
    ['/icons/icon-192.png', /^image\/png/, 'public, max-age=3600'],
    ['/assets/index-Ab12Cd34.js', /^text\/javascript/, 'public, max-age=31536000, immutable'],
  ])('%s is sent as %s with Cache-Control %s', async (path, type, cache) => {
    const res = await fetch(h.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('cache-control')).toBe(cache);
  });
});
