import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createBenchOrganization, rowCells, writeCsv } from './item-fixture.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const ROWS = 12_000;
const BATCH = 500;

let data: string;
let file: string;

/** Runs `tessera import` in a real child process; with `killAfter`, SIGKILLs it once that many rows are reported written. */
const importChild = (killAfter?: number): Promise<{ killed: boolean; code: number | null; stdout: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'cli/src/main.ts'), 'import', '--org', 'bench', '--entity', 'item', '--file', file, '--match', 'code', '--yes', '--data', data, '--batch-size', String(BATCH)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let killed = false;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      for (const m of b.toString().matchAll(/\] ([\d,]+)\/[\d,]+ rows/g)) {
        if (killAfter !== undefined && !killed && Number(m[1].replace(/,/g, '')) >= killAfter) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
      if (killAfter === 0 && !killed && /checked/.test(b.toString())) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ killed, code, stdout }));
  });

const storedCodes = (): string[] => {
  const db = new Database(join(data, 'orgs', 'bench.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT code FROM item ORDER BY code').all() as Array<{ code: string }>).map((r) => r.code);
  } finally {
    db.close();
  }
};

const codeOf = (i: number): string => rowCells(i)[1];

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'tessera-crash-'));
  await createBenchOrganization(data);
  file = join(data, 'items.csv');
  await writeCsv(file, ROWS);
}, 120_000);

afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('issue 7 section 4: a process killed in the middle of an import', () => {
  it(
    'leaves each batch fully present or fully absent, and the same import run again with a match field completes it without duplicates',
    async () => {
      // Kill points: while checking the file (nothing written yet), after the first batch, and further on.
      const observed: number[] = [];
      for (const killAfter of [0, BATCH, 4 * BATCH, 9 * BATCH]) {
        const r = await importChild(killAfter);
        expect(r.killed).toBe(true);
        const codes = storedCodes();
        observed.push(codes.length);
        // Batches are written in file order, so what is there is whole batches of the first rows.
        expect(codes.length % BATCH).toBe(0);
        expect(codes).toEqual(Array.from({ length: codes.length }, (_, i) => codeOf(i)).sort());
        expect(new Set(codes).size).toBe(codes.length);
      }
      expect(observed[0]).toBe(0);
      expect(observed[observed.length - 1]).toBeGreaterThan(0);
      const done = await importChild();
      expect(done.code).toBe(0);
      expect(done.stdout).toMatch(/^Imported: 12000 records$/m);
      const codes = storedCodes();
      expect(codes.length).toBe(ROWS);
      expect(new Set(codes).size).toBe(ROWS);
    },
    600_000,
  );
});
