import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string) => fileURLToPath(new URL(`./${pkg}/src/index.ts`, import.meta.url));

// Tests run against the TypeScript sources: no build step is needed before `vitest run`.
export default defineConfig({
  resolve: {
    alias: {
      // Longest first: '@tessera/core' would otherwise also catch '@tessera/core/internal'.
      '@tessera/core/internal': fileURLToPath(new URL('./core/src/internal.ts', import.meta.url)),
      '@tessera/core': src('core'),
      '@tessera/adapters-sql': src('adapters-sql'),
      '@tessera/adapters-http': src('adapters-http'),
      '@tessera/adapters-graph': src('adapters-graph'),
      '@tessera/cli': src('cli'),
    },
  },
  test: {
    include: ['{core,adapters-sql,adapters-http,adapters-graph,cli,tests,ui-react}/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on the 2-core CI machine: browser and HTTP files wait on I/O much of the
    // time (vitest's default here is one worker, cores - 1), which kept CI near its 30-minute budget.
    maxWorkers: 2,
  },
});
