import type { Plugin } from 'vite';
import { build as esbuild } from 'esbuild';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { drawIcon, encodePng } from './src/pwa/icon-png.ts';
import { ICON_SIZES, webManifest } from './src/pwa/manifest.ts';
import { buildVersion, hashText, precacheList, SHELL_PAGE, WORKER_FILE } from './src/pwa/sw-plan.ts';

/**
 * The installable app's build step (issue 21): writes the icons (drawn by icon-png.ts), the web
 * manifest, and sw.js — src/pwa/service-worker.ts bundled by esbuild (vite's own bundler for
 * dependencies, no extra package) with the list of files to precache and the build's version
 * written into it. The list is every file of the build (bundle and public/) that precacheList keeps;
 * the version hashes their paths and contents, so an unchanged build keeps its sw.js byte for byte
 * (no needless update) and any change gives a new one (the browser's update check compares bytes).
 */
export const pwa = (): Plugin => {
  let publicDir = '';
  return {
    name: 'tessera-pwa',
    apply: 'build',
    // After vite's html plugin, so index.html is in the bundle.
    enforce: 'post',
    configResolved: (config) => {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      for (const n of ICON_SIZES)
        for (const purpose of ['any', 'maskable'] as const) {
          const png = encodePng(n, n, drawIcon(n, purpose), (raw) => deflateSync(raw, { level: 9 }));
          this.emitFile({ type: 'asset', fileName: `icons/${purpose === 'any' ? 'icon' : 'maskable'}-${n}.png`, source: png });
        }
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: JSON.stringify(webManifest(), null, 2) });

      const contents = new Map<string, string>();
      for (const [name, item] of Object.entries(bundle)) {
        const body = item.type === 'chunk' ? item.code : typeof item.source === 'string' ? item.source : Buffer.from(item.source).toString('base64');
        contents.set(name, hashText(body));
      }
      const publicFiles = publicDir
        ? (await readdir(publicDir, { withFileTypes: true, recursive: true }).catch(() => []))
            .filter((e) => e.isFile())
            .map((e) => join(e.parentPath, e.name))
        : [];
      for (const file of publicFiles) contents.set(relative(publicDir, file).replace(/\\/g, '/'), hashText((await readFile(file)).toString('base64')));

      const paths = precacheList([...contents.keys(), SHELL_PAGE]);
      const version = buildVersion(paths, paths.map((p) => contents.get(p.slice(1)) ?? '').join(','));
      const worker = await esbuild({
        entryPoints: [fileURLToPath(new URL('./src/pwa/service-worker.ts', import.meta.url))],
        bundle: true,
        write: false,
        format: 'iife',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        define: { __TESSERA_PRECACHE__: JSON.stringify(paths), __TESSERA_VERSION__: JSON.stringify(version) },
      });
      this.emitFile({ type: 'asset', fileName: WORKER_FILE, source: worker.outputFiles[0].text });
    },
  };
};
