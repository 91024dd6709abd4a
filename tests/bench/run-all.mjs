// Runs every benchmark script of tests/bench (`*-bench.mjs`, `*-bench.js`, `*-bench.ts`) one after
// another, each in its own Node process with tsx (so scripts may import the TypeScript sources).
// Each prints lines `bench <name>: <value> <unit> (goal <goal>) ok|short`; this prints a summary.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const scripts = readdirSync(here)
  .filter((f) => /-bench\.(mjs|js|ts)$/.test(f))
  .sort();

let ok = 0;
let short = 0;
const failed = [];
for (const script of scripts) {
  const path = join(here, script);
  process.stdout.write(`# ${relative(root, path)}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout ?? '');
  for (const line of (r.stdout ?? '').split('\n')) {
    if (/^bench .*\) ok$/.test(line)) ok += 1;
    if (/^bench .*\) short$/.test(line)) short += 1;
  }
  if (r.status !== 0) failed.push(`${script} (exit ${r.status ?? r.signal})`);
}
process.stdout.write(`\n${scripts.length} scripts: ${ok} ok, ${short} short${failed.length ? `, failed: ${failed.join(', ')}` : ''}\n`);
process.exitCode = failed.length ? 1 : 0;
