import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportRow, RowSpool } from '@tessera/core';

/**
 * The import's RowSpool on disk: pass 1 appends its coerced rows as JSON lines to a temporary
 * file, pass 2 reads them back (JSON.parse is several times faster than parsing and coercing the
 * CSV again), and the file is removed at the end. Memory stays bounded by one batch.
 */
export class FileRowSpool implements RowSpool {
  private readonly dir: string;
  private readonly path: string;
  private out: WriteStream | undefined;

  constructor(parent = tmpdir()) {
    this.dir = mkdtempSync(join(parent, 'tessera-import-'));
    this.path = join(this.dir, 'rows.jsonl');
  }

  async append(rows: readonly ImportRow[]): Promise<void> {
    this.out ??= createWriteStream(this.path);
    let text = '';
    // JSON escapes line breaks inside strings, so a newline always ends a row.
    // Compact lines: line, values, and the issues only when there are any. Lookups are resolved
    // before rows are spooled, so nothing is pending.
    for (const r of rows) {
      const issues = r.errors.length > 0 || r.notes.length > 0;
      text += `${JSON.stringify(issues ? [r.line, r.values, r.errors, r.notes] : [r.line, r.values])}\n`;
    }
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async *batches(size: number): AsyncIterable<ImportRow[]> {
    if (this.out === undefined) return;
    if (!this.out.writableFinished) {
      this.out.end();
      await once(this.out, 'finish');
    }
    let rest = '';
    let batch: ImportRow[] = [];
    for await (const chunk of createReadStream(this.path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const text = rest + (chunk as string);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        const [line, values, errors, notes] = JSON.parse(text.slice(start, nl)) as [number, ImportRow['values'], ImportRow['errors']?, ImportRow['notes']?];
        batch.push({ line, values, pending: [], errors: errors ?? [], notes: notes ?? [] });
        start = nl + 1;
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      rest = text.slice(start);
    }
    if (batch.length > 0) yield batch;
  }

  async discard(): Promise<void> {
    if (this.out !== undefined && !this.out.closed) {
      this.out.destroy();
      await once(this.out, 'close');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
