import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from './http-harness.js';

describe('the web client build is served with an SPA fallback', () => {
  let h: Harness;
  const dist = mkdtempSync(join(tmpdir(), 'tessera-dist-'));

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Tessera</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    h = await startHarness({ staticDir: dist });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('client routes answer index.html; built files are served; /api paths never fall back', async () => {
    for (const path of ['/', '/login', '/!/list/account', '/ansu/acme/key', '/magic?o=a&u=b&q=c']) {
      const r = await fetch(`${h.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(await r.text()).toContain('<div id="root">');
    }
    const asset = await fetch(`${h.url}/assets/app.js`);
    expect([asset.status, await asset.text()]).toEqual([200, 'console.log(1)']);
    const api = await fetch(`${h.url}/api/nosuch`);
    expect(api.status).toBe(404);
    expect(await api.text()).toMatch(/^ERR_NOT_FOUND/);
  });
});
