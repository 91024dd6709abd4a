import { isLeft } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { ItemResult, RecordStore, WriteItem } from '../ports/record-store.js';
import { importResultText, type ImportTextLookup, englishImportText } from './texts.js';
import { issueText, RowReader, type ImportFileEvent, type ImportRow, type RowIssue } from './import-rows.js';
import { markRows, newMatchMemory, resolveLookups, type ImportMode, type MarkedRow, type RowAction } from './row-marking.js';

/**
 * The import use case over the RecordStore port. A file is read twice, never held whole:
 * pass 1 validates every row (coercion, lookups by name, marking against existing records)
 * and counts; only when the file as a whole is readable does pass 2 write. Pass 2 reads the
 * file again in batches of `writeBatchSize` rows, marks them again against the store as it is
 * then (so an interrupted import run again with a match field completes without duplicates),
 * leaves out rows with errors and writes the good rows with one atomic executeMultiple per
 * batch: after a crash every batch is there whole or not at all.
 */
export type ImportStore = Pick<RecordStore, 'retrieveMultiple' | 'executeMultiple'>;

/**
 * Rows written per atomic executeMultiple. Measured on this project's SQLite store (100k rows,
 * 20 columns, docs/api.md "Import and export"): a transaction per 100 rows is several times
 * slower than per 1000, and 1000 is also the store's MAX_BATCH_SIZE. Smaller batches lose less
 * work on a crash; larger ones are refused by the store.
 */
export const DEFAULT_WRITE_BATCH = 1000;
/** At most this many error lines are kept and listed; the count is always complete. */
export const MAX_LISTED_ERRORS = 1000;
/** Rows of the preview grid. */
export const DEFAULT_PREVIEW_ROWS = 100;

export type ImportSettings = {
  entity: Entity;
  caller: Caller;
  mode: ImportMode;
  matchField?: string;
  /** See DEFAULT_WRITE_BATCH. */
  writeBatchSize?: number;
  /** Read cells neutralized by export back to their value (default true). */
  restoreFormulas?: boolean;
  text?: ImportTextLookup;
};

/**
 * A source of the file's events; called once per pass (the file is read twice). An adapter may
 * yield events one by one or in arrays (fewer awaits per row of a large file).
 */
export type ImportSource = () => AsyncIterable<ImportFileEvent | readonly ImportFileEvent[]>;

/**
 * Where pass 1 keeps its rows, coerced and with lookups resolved, so that pass 2 reads them back
 * instead of parsing and coercing the file again. An adapter keeps them on disk (bounded memory);
 * without a spool, pass 2 reads the source again. Rows are appended in file order.
 */
export interface RowSpool {
  append(rows: readonly ImportRow[]): Promise<void>;
  /** The rows again, in batches of `size`, after the last append. */
  batches(size: number): AsyncIterable<ImportRow[]>;
  discard(): Promise<void>;
}

export type ImportProgress = { phase: 'validate' | 'write'; rows: number; written: number; total?: number };

export type PreviewRow = { line: number; action: RowAction; values: EntityRecord; errors: string[]; notes: string[] };

export type ImportCounts = { rows: number; create: number; update: number; skip: number; errors: number };

export type ImportPreview = ImportCounts & {
  /** The file cannot be imported: nothing will be written. */
  fatal?: string;
  ignoredColumns: string[];
  errorLines: string[];
  notes: string[];
  sample: PreviewRow[];
};

export type ImportOutcome = {
  /** Created plus updated. */
  imported: number;
  created: number;
  updated: number;
  skipped: number;
  errors: number;
  errorLines: string[];
  notes: string[];
  fatal?: string;
  cancelled?: boolean;
  /** 'Imported: {n} records', then 'Errors: {count}' and the lines. */
  text: string;
};

class IssueList {
  count = 0;
  lines: string[] = [];
  add(i: RowIssue | string): void {
    this.count++;
    if (this.lines.length < MAX_LISTED_ERRORS) this.lines.push(typeof i === 'string' ? i : issueText(i));
  }
  listed(): string[] {
    return this.count > this.lines.length ? [...this.lines, `... and ${this.count - this.lines.length} more`] : this.lines;
  }
}

/** Reads a source in batches of rows, giving each batch to `each`. */
const inBatches = async (
  reader: RowReader,
  source: ImportSource,
  size: number,
  each: (rows: ImportRow[]) => Promise<boolean>,
): Promise<void> => {
  let batch: ImportRow[] = [];
  for await (const item of source()) {
    for (const e of Array.isArray(item) ? (item as readonly ImportFileEvent[]) : [item as ImportFileEvent]) {
      const row = reader.read(e);
      if (reader.fatal !== undefined) return;
      if (row === undefined) continue;
      batch.push(row);
      if (batch.length >= size) {
        if (!(await each(batch))) return;
        batch = [];
      }
    }
  }
  if (batch.length > 0) await each(batch);
};

const checkMatchField = (s: ImportSettings, reader: RowReader, isCsv: boolean): string | undefined => {
  if (s.mode === 'create' || s.matchField === undefined) return undefined;
  if (!s.entity.properties.some((p) => p.logicalName === s.matchField)) return `Field not found:${s.entity.logicalName}.${s.matchField}`;
  if (isCsv && !reader.mappedFields.has(s.matchField)) return `The match field ${s.matchField} is not a column of the file`;
  return undefined;
};

/** Pass 1: validates the whole file and marks every row; writes nothing. */
export const previewImport = async (
  store: ImportStore,
  settings: ImportSettings,
  source: ImportSource,
  options: { sampleSize?: number; onProgress?: (p: ImportProgress) => void; spool?: RowSpool } = {},
): Promise<ImportPreview> => {
  const reader = new RowReader(settings.entity, { restoreFormulas: settings.restoreFormulas });
  const size = settings.writeBatchSize ?? DEFAULT_WRITE_BATCH;
  const sampleSize = options.sampleSize ?? DEFAULT_PREVIEW_ROWS;
  const counts: ImportCounts = { rows: 0, create: 0, update: 0, skip: 0, errors: 0 };
  const errors = new IssueList();
  const notes = new IssueList();
  const sample: PreviewRow[] = [];
  const seen = newMatchMemory();
  let fatal: string | undefined;
  await inBatches(reader, source, size, async (rows) => {
    if (counts.rows === 0) fatal = checkMatchField(settings, reader, reader.hasHeader);
    if (fatal !== undefined) return false;
    await resolveLookups(store, settings.caller, rows);
    // Spooled before marking: pass 2 marks again against the store as it is then.
    await options.spool?.append(rows);
    const marked = await markRows(store, settings.caller, settings.entity, settings.mode, settings.matchField, rows, seen);
    if (isLeft(marked)) {
      fatal = marked.left.message;
      return false;
    }
    for (const r of marked.right) {
      counts.rows++;
      if (r.action === 'error') counts.errors++;
      else counts[r.action]++;
      r.errors.forEach((e) => errors.add(e));
      r.notes.forEach((n) => notes.add(n));
      if (sample.length < sampleSize) {
        sample.push({ line: r.line, action: r.action, values: r.values, errors: r.errors.map(issueText), notes: r.notes.map(issueText) });
      }
    }
    options.onProgress?.({ phase: 'validate', rows: counts.rows, written: 0 });
    return true;
  });
  fatal ??= reader.fatal;
  if (fatal === undefined && counts.rows === 0) fatal = reader.hasHeader ? 'The file has a header but no rows' : 'The file has no records';
  return {
    ...counts,
    ...(fatal === undefined ? {} : { fatal }),
    ignoredColumns: reader.ignoredColumns(),
    errorLines: errors.listed(),
    notes: notes.listed(),
    sample,
  };
};


const writeItem = (entity: Entity, r: MarkedRow): WriteItem => {
  if (r.action === 'update') {
    const { id: _ignored, ...values } = r.values;
    return {
      operation: 'update',
      name: entity.logicalName,
      object: { ...values, id: r.id, ...(r.versionnumber === undefined ? {} : { versionnumber: r.versionnumber }) },
    };
  }
  return { operation: 'create', name: entity.logicalName, object: r.values };
};

const failed = (results: readonly ItemResult[]): boolean => results.some((x) => 'error' in x);

/**
 * Writes one batch atomically. When the store refuses it (one bad item rolls the whole batch
 * back), the batch is split in halves that are written atomically again, down to the single
 * rows that fail, which are reported with their line: every write is still all or nothing.
 */
const writeBatch = async (
  store: ImportStore,
  settings: ImportSettings,
  rows: MarkedRow[],
  report: (r: MarkedRow, error: string) => void,
): Promise<number> => {
  if (rows.length === 0) return 0;
  const r = await store.executeMultiple(settings.caller, rows.map((x) => writeItem(settings.entity, x)), { atomic: true });
  if (isLeft(r) && rows.length === 1) {
    report(rows[0], `${r.left.code}: ${r.left.message}`);
    return 0;
  }
  if (!isLeft(r) && !failed(r.right)) return rows.length;
  if (rows.length === 1) {
    const e = isLeft(r) ? `${r.left.code}: ${r.left.message}` : (r.right[0] as { error: string }).error;
    report(rows[0], e);
    return 0;
  }
  const half = Math.ceil(rows.length / 2);
  return (await writeBatch(store, settings, rows.slice(0, half), report)) + (await writeBatch(store, settings, rows.slice(half), report));
};

/**
 * The whole import: pass 1 (previewImport), then `confirm` with the preview (the CLI asks the
 * confirmation question; declining cancels with no record processed), then pass 2 writes.
 */
export const runImport = async (
  store: ImportStore,
  settings: ImportSettings,
  source: ImportSource,
  options: {
    confirm?: (preview: ImportPreview) => Promise<boolean>;
    onProgress?: (p: ImportProgress) => void;
    spool?: RowSpool;
  } = {},
): Promise<ImportOutcome> => {
  try {
    return await importTwice(store, settings, source, options);
  } finally {
    await options.spool?.discard();
  }
};

const importTwice = async (
  store: ImportStore,
  settings: ImportSettings,
  source: ImportSource,
  options: { confirm?: (preview: ImportPreview) => Promise<boolean>; onProgress?: (p: ImportProgress) => void; spool?: RowSpool },
): Promise<ImportOutcome> => {
  const preview = await previewImport(store, settings, source, { sampleSize: 0, onProgress: options.onProgress, spool: options.spool });
  if (preview.fatal !== undefined) {
    return importOutcome(settings, { created: 0, updated: 0, skipped: 0, errors: preview.errors, errorLines: preview.errorLines, notes: preview.notes, fatal: preview.fatal });
  }
  if (options.confirm !== undefined && !(await options.confirm(preview))) {
    return { ...importOutcome(settings, { created: 0, updated: 0, skipped: 0, errors: 0, errorLines: [], notes: [] }), cancelled: true };
  }
  return writeImport(store, settings, preview, source, options);
};

/** The outcome with its counts and its result text ('Imported: {n} records', ...). */
const importOutcome = (settings: ImportSettings, o: Omit<ImportOutcome, 'text' | 'imported'>, notProcessed?: number): ImportOutcome => {
  const imported = o.created + o.updated;
  const lines = o.fatal !== undefined ? [o.fatal, ...o.errorLines] : o.errorLines;
  const text = importResultText(imported, lines, o.errors + (o.fatal !== undefined ? 1 : 0), settings.text ?? englishImportText, notProcessed);
  return { ...o, imported, text };
};

export type WriteImportOptions = {
  onProgress?: (p: ImportProgress) => void;
  /** Pass 1's rows; without it the source is read again. */
  spool?: RowSpool;
  /** Rows per atomic batch of this pass (default settings.writeBatchSize, else DEFAULT_WRITE_BATCH). */
  batchSize?: number;
  /**
   * Asked before each batch: true stops the import there (issue 17's Cancel). The batches
   * already written stay written; the outcome is `cancelled` and its text says how many rows
   * were not processed.
   */
  shouldStop?: () => boolean;
};

/**
 * Pass 2 of an import whose preview found the file readable: reads the rows again in batches
 * (from the spool, else the source), marks them again against the store as it is now, leaves out
 * rows with errors and writes the others, each batch atomically. `preview.rows` is the progress total.
 * A host that asks its own confirmation (the web client) calls previewImport, then this.
 */
export const writeImport = async (
  store: ImportStore,
  settings: ImportSettings,
  preview: Pick<ImportCounts, 'rows'>,
  source: ImportSource,
  options: WriteImportOptions = {},
): Promise<ImportOutcome> => {
  const reader = new RowReader(settings.entity, { restoreFormulas: settings.restoreFormulas });
  const errors = new IssueList();
  const notes = new IssueList();
  const seen = newMatchMemory();
  const done = { created: 0, updated: 0, skipped: 0, rows: 0 };
  let fatal: string | undefined;
  let stopped = false;
  const size = options.batchSize ?? settings.writeBatchSize ?? DEFAULT_WRITE_BATCH;
  const writeRows = async (rows: ImportRow[]): Promise<boolean> => {
    if (options.shouldStop?.() === true) {
      stopped = true;
      return false;
    }
    if (options.spool === undefined) await resolveLookups(store, settings.caller, rows);
    const marked = await markRows(store, settings.caller, settings.entity, settings.mode, settings.matchField, rows, seen);
    if (isLeft(marked)) {
      fatal = marked.left.message;
      return false;
    }
    const good = marked.right.filter((r) => r.action === 'create' || r.action === 'update');
    const failedLines = new Set<number>();
    await writeBatch(store, settings, good, (r, e) => {
      failedLines.add(r.line);
      r.errors.push({ line: r.line, message: e });
    });
    for (const r of marked.right) {
      done.rows++;
      r.errors.forEach((e) => errors.add(e));
      r.notes.forEach((n) => notes.add(n));
      if (r.action === 'skip') done.skipped++;
      if (failedLines.has(r.line)) continue;
      if (r.action === 'create') done.created++;
      if (r.action === 'update') done.updated++;
    }
    options.onProgress?.({ phase: 'write', rows: done.rows, written: done.created + done.updated, total: preview.rows });
    return true;
  };
  if (options.spool === undefined) await inBatches(reader, source, size, writeRows);
  else {
    for await (const rows of options.spool.batches(size)) if (!(await writeRows(rows))) break;
  }
  const outcome = importOutcome(
    settings,
    {
      created: done.created,
      updated: done.updated,
      skipped: done.skipped,
      errors: errors.count,
      errorLines: errors.listed(),
      notes: notes.listed(),
      ...(fatal === undefined ? {} : { fatal }),
    },
    stopped ? Math.max(0, preview.rows - done.rows) : undefined,
  );
  return stopped ? { ...outcome, cancelled: true } : outcome;
};
