import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportFileEvent } from '@tessera/core/internal';
import { LocalImportFiles } from './local-import-files.js';

const bytes = async function* (...chunks: string[]) {
  for (const c of chunks) yield c;
};

const eventsOf = async (source: () => AsyncIterable<ImportFileEvent | readonly ImportFileEvent[]>): Promise<ImportFileEvent[]> => {
  const out: ImportFileEvent[] = [];
  for await (const e of source()) out.push(...(Array.isArray(e) ? e : [e as ImportFileEvent]));
  return out;
};

describe('import files on the local disk (the ImportFiles port)', () => {
  it('an upload is kept in its own folder, read as often as asked, by the kind its name says, and removed when discarded', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tessera-files-'));
    try {
      const files = new LocalImportFiles(root);
      const kept = await files.keep('people.csv', bytes('name;city\n', 'Ada;Žilina\n'), 1024);
      if (kept._tag !== 'Kept') throw new Error('not kept');
      expect(kept.file.kind).toBe('csv');
      const first = await eventsOf(kept.file.source);
      expect(await eventsOf(kept.file.source)).toEqual(first);
      expect(first.map((e) => e.type)).toEqual(['header', 'cells']);
      expect(readdirSync(root)).toHaveLength(1);
      await kept.file.discard();
      expect(readdirSync(root)).toEqual([]);
      const json = await files.keep('data.JSON', bytes('[{"name":"Ada"}]'), 1024);
      expect(json._tag === 'Kept' && json.file.kind).toBe('json');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('an upload over the limit is refused and nothing of it stays', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tessera-files-'));
    try {
      const r = await new LocalImportFiles(root).keep('big.csv', bytes('x'.repeat(600), 'y'.repeat(600)), 1000);
      expect(r).toEqual({ _tag: 'TooLarge', maxBytes: 1000 });
      expect(readdirSync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a named file is read where it is and stays after the import', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tessera-files-'));
    try {
      const path = join(root, 'named.csv');
      writeFileSync(path, 'name\nAda\n');
      const file = new LocalImportFiles(root).open(path);
      expect(file.kind).toBe('csv');
      expect((await eventsOf(file.source)).length).toBeGreaterThan(0);
      await file.discard();
      expect(existsSync(path)).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
