// Child of import-export-bench.ts: imports a file through the CLI code path and prints its own
// peak memory (max RSS), so the figure is the import's, not the benchmark's.
import { runCli } from '@tessera/cli';

const [data, file] = process.argv.slice(2);
const t = performance.now();
process.stderr.write = (() => true) as typeof process.stderr.write;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (() => true) as typeof process.stdout.write;
const code = await runCli(['import', '--org', 'bench', '--entity', 'item', '--file', file, '--match', 'code', '--yes', '--data', data]);
write(`exit ${code} ms ${Math.round(performance.now() - t)} peak ${Math.round(process.resourceUsage().maxRSS / 1024)}\n`);
