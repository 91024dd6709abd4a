import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@tessera/cli';
import { ImportProgressView, progressLine } from '../../../cli/src/commands/import-progress.js';
import { createBenchOrganization, writeCsv } from './item-fixture.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let data: string;

/** `tessera` in a child process, with what it reads on standard input. */
const tessera = (args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'cli/src/main.ts'), ...args, '--data', data], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });

/** In-process run, capturing standard output. */
const run = async (args: string[]): Promise<{ code: number; stdout: string }> => {
  let stdout = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => ((stdout += s), true)) as typeof process.stdout.write;
  try {
    return { code: await runCli([...args, '--data', data]), stdout };
  } finally {
    process.stdout.write = write;
  }
};

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'tessera-cli-ie-'));
  await createBenchOrganization(data);
  await writeCsv(join(data, 'items.csv'), 3000);
}, 120_000);
afterAll(() => rmSync(data, { recursive: true, force: true }));

const importArgs = (file: string, ...more: string[]) => ['import', '--org', 'bench', '--entity', 'item', '--file', join(data, file), ...more];

describe('issue 7 section 5: tessera import and tessera export', () => {
  it('asks the confirmation question unless --yes; declining cancels with no records processed', async () => {
    const r = await tessera(importArgs('items.csv'), 'n\n');
    expect(r.stdout).toContain('Import will Create 3000 record(s) Update 0 record(s) continue? [y/N]');
    expect(r.stdout).toContain('Import cancelled: no records processed');
    expect(r.code).toBe(1);
    const count = await run(['export', '--org', 'bench', '--entity', 'item', '--format', 'json', '--out', join(data, 'none.json')]);
    expect(count.stdout).toBe(`exported 0 records to ${join(data, 'none.json')}\n`);
  });

  it('writes after a yes, with plain progress lines when not on a terminal, and prints the result text', async () => {
    const r = await tessera(importArgs('items.csv', '--match', 'code'), 'y\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/continue\? \[y\/N\] Imported: 3000 records\n$/);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toContain('3000 rows: 3000 to create, 0 to update, 0 to skip, 0 with errors');
    expect(lines.some((l) => /^checked 1,000 rows, [\d,]+ rows\/s$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\[#{24}\] 3,000\/3,000 rows, [\d,]+ rows\/s, 0:00 left$/.test(l))).toBe(true);
    expect(r.stderr).not.toContain('\r');
  });

  it('exports CSV that imports back with --yes: the same rows match and update, none is duplicated', async () => {
    const out = join(data, 'items-out.csv');
    const e = await run(['export', '--org', 'bench', '--entity', 'item', '--format', 'csv', '--out', out]);
    expect(e).toEqual({ code: 0, stdout: `exported 3000 records to ${out}\n` });
    expect(readFileSync(out).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const again = await run(importArgs('items-out.csv', '--match', 'id', '--yes'));
    expect(again).toEqual({ code: 0, stdout: 'Imported: 3000 records\n' });
    const json = join(data, 'items.json');
    await run(['export', '--org', 'bench', '--entity', 'item', '--format', 'json', '--out', json]);
    expect((JSON.parse(readFileSync(json, 'utf8')) as unknown[]).length).toBe(3000);
  });

  it('a failed import exits 1 with the error lines; a failed export leaves no file', async () => {
    writeFileSync(join(data, 'bad.csv'), 'name;qty\nA;1\nB;many\n');
    const r = await run(importArgs('bad.csv', '--yes'));
    expect(r).toEqual({ code: 1, stdout: "Imported: 1 records\nErrors: 1\nLine 3, qty: 'many' is not a number\n" });
    writeFileSync(join(data, 'q.json'), JSON.stringify({ entity: { name: 'item', attributes: [{ attribute: 'nope' }] } }));
    const e = await run(['export', '--org', 'bench', '--entity', 'item', '--format', 'pdf', '--query', join(data, 'q.json'), '--out', join(data, 'x.pdf')]);
    expect(e.code).toBe(1);
    expect(existsSync(join(data, 'x.pdf')) || existsSync(join(data, 'x.pdf.partial'))).toBe(false);
  });

  it('on a terminal the progress is one line redrawn in place, with a bar, rows, rows per second and the time left', () => {
    let text = '';
    let now = 0;
    const view = new ImportProgressView({ isTTY: true, write: (s: string) => (text += s) }, () => now);
    view.update({ phase: 'write', rows: 0, written: 0, total: 4000 });
    now = 2000;
    view.update({ phase: 'write', rows: 1000, written: 1000, total: 4000 });
    view.finish();
    expect(text).toBe(`\r\x1b[2K${progressLine({ phase: 'write', rows: 0, written: 0, total: 4000 }, 0)}\r\x1b[2K[######..................] 1,000/4,000 rows, 500 rows/s, 0:06 left\n`);
  });
});
