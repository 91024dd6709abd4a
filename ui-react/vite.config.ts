import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const core = fileURLToPath(new URL('../core/src/index.ts', import.meta.url));
const coreInternal = fileURLToPath(new URL('../core/src/internal.ts', import.meta.url));

// The UI imports the core's TypeScript sources directly, so the browser runs the same rules as the server.
// `tessera serve` serves dist/ with an SPA fallback; during development /api is proxied to it.
export default defineConfig(({ command }) => {
  // A build is always the production build of React, even when started from a test runner
  // (vitest sets NODE_ENV=test, which would otherwise bundle React's development build).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
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
