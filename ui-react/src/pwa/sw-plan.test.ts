import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildVersion, cacheName, isServerPath, precacheList, routeOf, SERVER_PATTERNS, SHELL_CACHE_PREFIX, staleCaches } from './sw-plan.js';

const ORIGIN = 'https://crm.example.com';
const req = (path: string, over: Partial<{ method: string; mode: string; url: string }> = {}) => ({ method: 'GET', mode: 'cors', url: ORIGIN + path, origin: ORIGIN, ...over });

describe('the service worker plan (issue 21: caches the app shell and the built assets)', () => {
  it('precaches the built files, not their precompressed twins, maps, the worker or declarations', () => {
    const built = [
      'index.html',
      'index.html.br',
      'index.html.gz',
      'assets/index-Ab12Cd34.js',
      'assets/index-Ab12Cd34.js.br',
      'assets/list-Zz98Yy76.css',
      'assets/index-Ab12Cd34.js.map',
      'sw.js',
      'sw.js.gz',
      'theme-init.js',
      'script-api.d.ts',
      'manifest.webmanifest',
      'icons/icon-192.png',
      '.env',
      'assets/.hidden/x.js',
    ];
    expect(precacheList(built)).toEqual([
      '/assets/index-Ab12Cd34.js',
      '/assets/list-Zz98Yy76.css',
      '/icons/icon-192.png',
      '/index.html',
      '/manifest.webmanifest',
      '/theme-init.js',
    ]);
  });

  it('a list is sorted, without duplicates, and the same whatever order the build gave', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6})?\.(js|css|png)$/)), (files) => {
        const list = precacheList(files);
        expect(list).toEqual([...new Set(list)].sort());
        expect(precacheList([...files].reverse())).toEqual(list);
        expect(list.every((p) => p.startsWith('/'))).toBe(true);
      }),
    );
  });

  it('the version changes with the file list or their contents, and only then', () => {
    const v = buildVersion(['/a.js', '/index.html'], 'x,y');
    expect(buildVersion(['/a.js', '/index.html'], 'x,y')).toBe(v);
    expect(buildVersion(['/b.js', '/index.html'], 'x,y')).not.toBe(v);
    expect(buildVersion(['/a.js', '/index.html'], 'x,z')).not.toBe(v);
    expect(cacheName(v)).toBe(`${SHELL_CACHE_PREFIX}${v}`);
  });

  it('an activated worker deletes older shells of the app and leaves other caches alone', () => {
    const current = cacheName('new');
    expect(staleCaches([cacheName('old'), current, 'someone-else', cacheName('older')], current)).toEqual([cacheName('old'), cacheName('older')]);
  });

  it('never answers calls to the server: /api/* and /auth/* go to the network, also as navigations', () => {
    const cached = new Set(['/index.html']);
    for (const path of ['/api/fetch', '/api', '/api/getusercontext?x=1', '/auth/google/login/demo'])
      for (const mode of ['cors', 'navigate']) expect(routeOf(req(path, { mode }), cached)).toBe('network');
    // The browser's static routes (network, never the worker) name the same paths.
    for (const { pathname } of SERVER_PATTERNS) expect(isServerPath(pathname.replace('*', 'fetch'))).toBe(true);
    expect(isServerPath('/apis')).toBe(false);
    expect(isServerPath('/!/list/api')).toBe(false);
  });

  it('navigations get the shell (network first, the cached index.html offline); other methods and origins the network', () => {
    const cached = new Set(['/assets/a-12345678.js']);
    expect(routeOf(req('/!/list/account', { mode: 'navigate' }), cached)).toBe('shell');
    expect(routeOf(req('/login?org=demo', { mode: 'navigate' }), cached)).toBe('shell');
    expect(routeOf(req('/assets/a-12345678.js'), cached)).toBe('cache');
    expect(routeOf(req('/assets/b-12345678.js'), cached)).toBe('passthrough');
    expect(routeOf(req('/assets/a-12345678.js', { method: 'POST' }), cached)).toBe('network');
    expect(routeOf(req('', { url: 'https://api.example.com/assets/a-12345678.js' }), cached)).toBe('network');
    expect(routeOf(req('', { url: 'not a url' }), cached)).toBe('network');
  });
});
