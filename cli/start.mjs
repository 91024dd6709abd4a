#!/usr/bin/env node
// `npm start`: builds what is missing or stale, creates the demo organization on the first run,
// and serves the API and the web client on http://localhost:8080 (PORT and DATA override).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (what, cmd, args) => {
  process.stdout.write(`${what}...\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return r.status === 0;
};

// tsc -b is incremental: when nothing changed it only checks timestamps.
if (!run('Building the server', 'npx', ['tsc', '-b', 'cli'])) {
  process.stderr.write('tessera: the server does not build; see the errors above\n');
  process.exit(1);
}
const ui = JSON.parse(readFileSync(join(root, 'ui-react', 'package.json'), 'utf8'));
if (ui.scripts?.build && !existsSync(join(root, 'ui-react', 'dist', 'index.html'))) {
  if (!run('Building the web client', 'npm', ['run', 'build', '--workspace', '@tessera/ui-react']))
    process.stderr.write('tessera: the web client did not build; serving the API only\n');
}

await import('reflect-metadata');
const { startServer, buildContainer, closeContainer, defaultHostConfig, resolve, uiBuilt } = await import('./dist/index.js');
const { createDemo, DEMO_ADMIN, DEMO_ORG } = await import('./dist/commands/demo.js');
const { Tokens } = await import('@tessera/core/internal');

const dataDir = process.env.DATA ?? join(root, 'data');
const port = Number(process.env.PORT ?? 8080);
const config = defaultHostConfig(dataDir);

const setup = await buildContainer({ ...config, logLevel: 'warn' });
try {
  if ((await resolve(setup, Tokens.OrganizationDirectory).status(DEMO_ORG)) === null) {
    process.stdout.write('Creating the demo organization (first run)...\n');
    await createDemo(setup);
  }
} finally {
  await closeContainer(setup);
}

let server;
try {
  server = await startServer({ ...config, port, host: process.env.HOST ?? '0.0.0.0' });
} catch (e) {
  process.stderr.write(`tessera: ${e.code === 'EADDRINUSE' ? `port ${port} is in use (set PORT to use another)` : e.message}\n`);
  process.exit(1);
}
process.stdout.write(
  `\nTessera is running: ${server.url}${uiBuilt() ? '' : '  (API only: the web client is not built)'}\n` +
    `Sign in: organization ${DEMO_ORG}, e-mail ${DEMO_ADMIN.email}, password ${DEMO_ADMIN.password}\n` +
    `Magic-link mails are written to ${join(config.dataDir, 'outbox')}. Stop with Ctrl+C.\n\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    server.close().then(() => process.exit(0));
  });
