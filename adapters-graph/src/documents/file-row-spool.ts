import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FieldValue, ImportRow, RowSpool } from '@tessera/core/internal';

/** At most this many key lists are remembered; rows of further shapes are written whole. */
export const MAX_SPOOL_SHAPES = 256;

/**
 * The import's RowSpool on disk: pass 1 appends its coerced rows as JSON lines to a temporary
 * file, pass 2 reads them back (JSON.parse is several times faster than parsing and coercing the
 * CSV again), and the file is removed at the end. Memory stays bounded by one batch.
 *
 * Compact lines: the rows of one file mostly have the same keys (the columns of its header), so
 * a row without issues is `[line, shape, value, value, ...]` with its key list (its shape) kept
 * in memory; any other row is `[line, -1, values, errors, notes]`. Lookups are resolved before
 * rows are spooled, so nothing is pending.
 */
export class FileRowSpool implements RowSpool {
  private readonly dir: string;
  private readonly path: string;
  private out: WriteStream | undefined;
  private readonly shapes: string[][] = [];
  private readonly shapeIndex = new Map<string, number>();
  private last = -1;

  constructor(parent = tmpdir()) {
    this.dir = mkdtempSync(join(parent, 'tessera-import-'));
    this.path = join(this.dir, 'rows.jsonl');
  }

  /** The shape of a key list: the last one when the keys are the same, else a remembered or new one (-1: too many). */
  private shapeOf(keys: string[]): number {
    const last = this.last >= 0 ? this.shapes[this.last] : undefined;
    if (last !== undefined && last.length === keys.length) {
      let same = true;
      for (let i = 0; i < keys.length && same; i++) same = keys[i] === last[i];
      if (same) return this.last;
    }
    const name = keys.join('\u0000');
    let shape = this.shapeIndex.get(name);
    if (shape === undefined) {
      // A `__proto__` key would set the prototype when the values are built again: written whole.
      if (this.shapes.length >= MAX_SPOOL_SHAPES || keys.includes('__proto__')) return -1;
      shape = this.shapes.push(keys) - 1;
      this.shapeIndex.set(name, shape);
    }
    return (this.last = shape);
  }

  private lineOf(r: ImportRow): string {
    if (r.errors.length === 0 && r.notes.length === 0) {
      const keys = Object.keys(r.values);
      const shape = this.shapeOf(keys);
      if (shape >= 0) {
        const cells: unknown[] = [r.line, shape];
        let defined = true;
        for (let i = 0; i < keys.length && defined; i++) {
          const v = r.values[keys[i]];
          defined = v !== undefined;
          cells.push(v);
        }
        // JSON has no undefined: such a row keeps its keys in the whole form.
        if (defined) return JSON.stringify(cells);
      }
    }
    return JSON.stringify([r.line, -1, r.values, r.errors, r.notes]);
  }

  async append(rows: readonly ImportRow[]): Promise<void> {
    this.out ??= createWriteStream(this.path);
    let text = '';
    // JSON escapes line breaks inside strings, so a newline always ends a row.
    for (const r of rows) text += `${this.lineOf(r)}\n`;
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  private rowOf(text: string): ImportRow {
    const cells = JSON.parse(text) as unknown[];
    const line = cells[0] as number;
    const shape = cells[1] as number;
    if (shape < 0) {
      return { line, values: cells[2] as ImportRow['values'], pending: [], errors: cells[3] as ImportRow['errors'], notes: cells[4] as ImportRow['notes'] };
    }
    const keys = this.shapes[shape];
    const values: Record<string, FieldValue> = {};
    for (let i = 0; i < keys.length; i++) values[keys[i]] = cells[i + 2] as FieldValue;
    return { line, values, pending: [], errors: [], notes: [] };
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
        batch.push(this.rowOf(text.slice(start, nl)));
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
