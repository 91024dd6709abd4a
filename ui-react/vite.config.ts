import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { pwa } from './vite-pwa.ts';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const core = fileURLToPath(new URL('../core/src/index.ts', import.meta.url));
const coreInternal = fileURLToPath(new URL('../core/src/internal.ts', import.meta.url));

/** Text formats worth compressing (woff2, png, jpg are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm|txt|xml|map|ttf|otf|eot)$/;

/**
 * Writes `name.br` (brotli 11) and `name.gz` (gzip 9) next to every compressible file of the
 * build, once, so the server (adapters-http static-assets.ts) sends them without compressing per
 * request. A variant that would not be smaller is not written.
 */
const precompress = (): Plugin => {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const filesOf = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return {
    name: 'tessera-precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = join(config.root, config.build.outDir);
    },
    // After everything is on disk, public/ files included.
    closeBundle: async () => {
      const files = (await filesOf(outDir)).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const raw = await readFile(file);
          const variants: Array<[string, Buffer]> = [
            ['.br', await brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })],
            ['.gz', await gz(raw, { level: 9 })],
          ];
          for (const [suffix, bytes] of variants) if (bytes.length < raw.length) await writeFile(file + suffix, bytes);
        }),
      );
    },
  };
};

// The UI imports the core's TypeScript sources directly, so the browser runs the same rules as the server.
// `tessera serve` serves dist/ with an SPA fallback; during development /api is proxied to it.
export default defineConfig(({ command }) => {
  // A build is always the production build of React, even when started from a test runner
  // (vitest sets NODE_ENV=test, which would otherwise bundle React's development build).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), pwa(), precompress()],
    resolve: {
      alias: [
        { find: /^@tessera\/core\/internal$/, replacement: coreInternal },
        { find: /^@tessera\/core$/, replacement: core },
      ],
    },
    define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', chunkSizeWarningLimit: 800 },
    worker: { format: 'es' },
    server: {
      proxy: {
        '/api': process.env.TESSERA_API ?? 'http://localhost:3000',
        '/auth': process.env.TESSERA_API ?? 'http://localhost:3000',
      },
    },
  };
});
