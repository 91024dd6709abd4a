// Import/export benchmark (issue 7 section 7). Run: node --import tsx tests/bench/import-export-bench.ts
// (or npm run bench). In the same run, on the same machine:
// - import: a 100k-row, 20-column CSV imported with a match field through the CLI's code path
//   (`tessera import --yes`: two passes, coercion, matching, atomic batches into the SQLite store)
//   against raw csv-parse plus raw better-sqlite3 prepared inserts of the same rows (one
//   transaction); goal at most 3 times the raw time;
// - export: the 100k rows to CSV (`tessera export`) against a raw select plus csv-stringify;
//   goal at most 2 times;
// - peak memory (max RSS) of a child process importing a 1M-row file (BENCH_MILLION=0 skips it).
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { openSqlite } from '@tessera/adapters-sql';
import { runCli } from '@tessera/cli';
import { COLUMNS, createBenchOrganization, writeCsv } from '../src/import-export/item-fixture.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MILLION = Number(process.env.BENCH_MILLION_ROWS ?? 1_000_000);
const IMPORT_GOAL = 3;
const EXPORT_GOAL = 2;

const quietly = async <T>(f: () => Promise<T>): Promise<T> => {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await f();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
};
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const report = (name: string, value: number, unit: string, goal: string, ok: boolean) =>
  process.stdout.write(`bench ${name}: ${value} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}\n`);

const data = mkdtempSync(join(tmpdir(), 'tessera-ie-bench-'));
try {
  await createBenchOrganization(data, 'bench', { audit: false });
  const file = join(data, 'items.csv');
  await writeCsv(file, ROWS);

  // Raw: csv-parse, then prepared inserts of the same rows in one transaction, into a copy of the
  // organization's item table (same columns and indexes), with the values Tessera stores beside
  // the file's columns (created and modified, status, version).
  const ddl = (() => {
    const org = openSqlite(join(data, 'orgs', 'bench.sqlite'));
    const rows = org.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'item' AND sql IS NOT NULL").all() as Array<{ sql: string }>;
    org.close();
    return rows.map((r) => r.sql);
  })();
  const rawImport = (round: number) => timed(async () => {
    const db = openSqlite(join(data, `raw-${round}.sqlite`));
    for (const sql of ddl) db.exec(sql);
    const stored = ['id', ...COLUMNS, 'createdon', 'createdby', 'createdbyTarget', 'modifiedon', 'modifiedby', 'modifiedbyTarget', 'statuscode', 'statecode', 'versionnumber'];
    const insert = db.prepare(`INSERT INTO item (${stored.map((c) => `"${c}"`).join(', ')}) VALUES (${stored.map(() => '?').join(', ')})`);
    const user = randomUUID();
    const rows: string[][] = [];
    let header = true;
    for await (const r of createReadStream(file).pipe(parse({ delimiter: ';' })) as AsyncIterable<string[]>) {
      if (header) header = false;
      else rows.push(r);
    }
    db.transaction(() => {
      for (const r of rows) {
        const now = new Date().toISOString();
        insert.run(randomUUID(), ...r, now, user, 'systemuser', now, user, 'systemuser', 1, 0, 1);
      }
    })();
    db.close();
  });
  const tesseraImport = (org: string) => timed(async () => {
    const code = await quietly(() => runCli(['import', '--org', org, '--entity', 'item', '--file', file, '--match', 'code', '--yes', '--data', data]));
    if (code !== 0) throw new Error(`tessera import exited ${code}`);
  });
  // Two interleaved rounds (into empty tables each time), the faster of each side compared: this
  // machine is shared, and the minimum is the run least disturbed by others.
  await createBenchOrganization(data, 'bench2', { audit: false });
  const raws = [await rawImport(1)];
  const imports = [await tesseraImport('bench2')];
  raws.push(await rawImport(2));
  imports.push(await tesseraImport('bench'));
  const rawMs = Math.min(...raws);
  const importMs = Math.min(...imports);
  const importRatio = importMs / rawMs;
  process.stdout.write(`import ${ROWS} rows: tessera ${Math.round(importMs)} ms, raw ${Math.round(rawMs)} ms, ${Math.round((ROWS * 1000) / importMs)} rows/s\n`);
  report('import 100k rows vs raw csv-parse + inserts (audit off, as raw)', Number(importRatio.toFixed(2)), 'x', `<= ${IMPORT_GOAL}x`, importRatio <= IMPORT_GOAL);

  // Export: tessera export to CSV against a raw select plus csv-stringify.
  // Both sides write the same columns: the key and the 20 columns of the file.
  const out = join(data, 'out.csv');
  const query = join(data, 'query.json');
  writeFileSync(query, JSON.stringify({ entity: { name: 'item', attributes: ['id', ...COLUMNS].map((attribute) => ({ attribute })) } }));
  const exportMs = await timed(async () => {
    const code = await quietly(() => runCli(['export', '--org', 'bench', '--entity', 'item', '--format', 'csv', '--query', query, '--out', out, '--data', data]));
    if (code !== 0) throw new Error(`tessera export exited ${code}`);
  });
  const rawExportMs = await timed(async () => {
    const db = openSqlite(join(data, 'orgs', 'bench.sqlite'));
    const w = createWriteStream(join(data, 'raw-out.csv'));
    const s = stringify({ delimiter: ';', header: true, columns: ['id', ...COLUMNS] });
    s.pipe(w);
    for (const row of db.prepare(`SELECT id, ${COLUMNS.map((c) => `"${c}"`).join(', ')} FROM item`).iterate()) {
      if (!s.write(row)) await once(s, 'drain');
    }
    s.end();
    await once(w, 'finish');
    db.close();
  });
  const exportRatio = exportMs / rawExportMs;
  process.stdout.write(`export ${ROWS} rows: tessera ${Math.round(exportMs)} ms (${Math.round(statSync(out).size / 1e6)} MB), raw ${Math.round(rawExportMs)} ms\n`);
  report('export 100k rows to CSV vs raw select + csv-stringify', Number(exportRatio.toFixed(2)), 'x', `<= ${EXPORT_GOAL}x`, exportRatio <= EXPORT_GOAL);

  // Peak memory: a 1M-row file imported through the CLI code path in a child process whose heap
  // is capped at 256 MB: it completes, so the file (over 300 MB) is never held. (Left to its
  // defaults V8 grows the heap lazily and the same run peaks higher: docs/api.md.)
  if (process.env.BENCH_MILLION !== '0') {
    const big = join(data, 'million.csv');
    await writeCsv(big, MILLION, ROWS);
    const r = spawnSync(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', join(import.meta.dirname, 'import-peak-memory.ts'), data, big], { encoding: 'utf8' });
    const peak = Number(/peak (\d+)/.exec(r.stdout ?? '')?.[1]);
    const ms = Number(/ms (\d+)/.exec(r.stdout ?? '')?.[1]);
    const completed = /^exit 0 /m.test(r.stdout ?? '');
    process.stdout.write(`import ${MILLION} rows (${Math.round(statSync(big).size / 1e6)} MB file), heap capped at 256 MB: ${completed ? 'completed' : 'FAILED'} in ${Math.round(ms / 1000)} s, peak RSS ${peak} MB\n`);
    report('import 1M rows peak memory (max RSS, 256 MB heap)', peak, 'MB', '<= 512 MB, never the whole file', completed && peak > 0 && peak <= 512);
  }
} finally {
  rmSync(data, { recursive: true, force: true });
}
