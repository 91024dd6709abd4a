import {
  bindColumn,
  CsvImportReader,
  DEFAULT_PREVIEW_ROWS,
  importTextIn,
  JsonArrayReader,
  previewImport,
  writeImport,
  type Caller,
  type DomainError,
  type Entity,
  type FetchRequest,
  type FetchResult,
  type ImportFileEvent,
  type ImportMode,
  type ImportOutcome,
  type ImportPreview,
  type ImportRow,
  type ImportSettings,
  type ImportSource,
  type ImportStore,
  type ItemResult,
  type Language,
  type RowAction,
  type RowSpool,
  type WriteItem,
} from '@tessera/core/internal';
import { left, right, type Either } from 'fp-ts/lib/Either.js';

/**
 * An import as the web client runs it (issue 17), off the main thread in import.worker.ts: the
 * core's own import (core/src/import: the pure CSV reader, header map, coercion, lookups by name,
 * row marking, the two passes) over a store whose two calls go to the server through the page
 * (/api/fetch, and /api/executemultiple with `atomic`), so every batch the progress bar counts is
 * one atomic call. The file is read as a stream (progress: its bytes); pass 1's rows wait in
 * memory for pass 2. Nothing here touches the DOM: tests run it in-process.
 */

/** The store calls the job asks the page to make. */
export type StoreCall = { call: 'fetch'; request: FetchRequest } | { call: 'execute'; items: WriteItem[]; atomic: boolean };
export type StoreAnswer = { ok: true; value: unknown } | { ok: false; error: DomainError };

/** A column of the file as the preview grid shows it: ignored columns are shown, marked. */
export type PreviewColumn = { header: string; ignored: boolean };
/** One row of the preview grid: the file's own cells, its marking and its problems. */
export type PreviewGridRow = { line: number; cells: string[]; action: RowAction; problems: string[] };

export type JobPreview = Omit<ImportPreview, 'sample'> & { columns: PreviewColumn[]; rowsShown: PreviewGridRow[]; parseMs: number };

export type JobProgress = { phase: 'check' | 'write'; done: number; total: number };

export type JobSettings = { file: Blob & { name: string }; entity: Entity; mode: ImportMode; matchField?: string; lang: Language; sampleSize?: number };

/** A caller for the core's signatures: the server applies the session's own permissions to every call. */
const PAGE_CALLER: Caller = { userId: '', teams: [], permissions: { permissions: {}, apps: [], owners: [], needsTeams: false } };

/** Spec 002 section 5: a `.json` file is JSON, anything else is CSV. */
export const isJsonFile = (name: string): boolean => /\.json$/i.test(name);
/** Spec 002 section 5: accepted file types, csv and json. */
export const isImportFile = (name: string): boolean => /\.(csv|json)$/i.test(name);

/**
 * Rows per atomic write of pass 2: the spec's batch of 100 (spec 002 section 9), larger for
 * large files so that a file is written in at most about 100 calls, and at most 1000 (the
 * store's largest batch and the server's own import batch, DEFAULT_WRITE_BATCH).
 */
export const writeBatchFor = (rows: number): number => Math.min(1000, Math.max(100, Math.ceil(rows / 100 / 100) * 100));

/** Pass 1's rows, copied (pass 1 marks its rows in place; pass 2 marks them again afresh). */
export class MemorySpool implements RowSpool {
  private rows: ImportRow[] = [];
  async append(rows: readonly ImportRow[]): Promise<void> {
    for (const r of rows) this.rows.push({ line: r.line, values: { ...r.values }, pending: [...r.pending], errors: [...r.errors], notes: [...r.notes] });
  }
  async *batches(size: number): AsyncIterable<ImportRow[]> {
    for (let i = 0; i < this.rows.length; i += size) yield this.rows.slice(i, i + size);
  }
  async discard(): Promise<void> {
    this.rows = [];
  }
}

const cellText = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
/** The issue texts of the core start with their line, which the grid shows in a column of its own. */
const withoutLine = (text: string, line: number): string => text.replace(new RegExp(`^Line ${line}(, |: )`), '');

export class ImportJob {
  private readonly spool = new MemorySpool();
  private preview: JobPreview | undefined;
  private stop = false;

  constructor(
    private readonly settings: JobSettings,
    private readonly call: (c: StoreCall) => Promise<StoreAnswer>,
    private readonly progress: (p: JobProgress) => void,
  ) {}

  private readonly store: ImportStore = {
    retrieveMultiple: async (_caller, request): Promise<Either<DomainError, FetchResult>> => {
      const a = await this.call({ call: 'fetch', request });
      return a.ok ? right(a.value as FetchResult) : left(a.error);
    },
    executeMultiple: async (_caller, items, options): Promise<Either<DomainError, ItemResult[]>> => {
      const a = await this.call({ call: 'execute', items: [...items], atomic: options?.atomic === true });
      return a.ok ? right(a.value as ItemResult[]) : left(a.error);
    },
  };

  private importSettings(): ImportSettings {
    const s = this.settings;
    return { entity: s.entity, caller: PAGE_CALLER, mode: s.mode, ...(s.matchField ? { matchField: s.matchField } : {}), text: importTextIn(s.lang) };
  }

  /** Pass 1: reads and checks the whole file; the grid gets the file's first rows as they are in it. */
  async check(): Promise<JobPreview> {
    const started = performance.now();
    const { file, entity } = this.settings;
    const sampleSize = this.settings.sampleSize ?? DEFAULT_PREVIEW_ROWS;
    const raw = new Map<number, string[]>();
    let columns: PreviewColumn[] = [];
    const keys = new Map<string, number>(); // JSON: the keys seen in the sampled objects, in order
    const size = file.size || 1;
    let lastReport = 0;
    const keep = (e: ImportFileEvent): void => {
      if (e.type === 'header') columns = e.cells.map((h) => ({ header: h, ignored: 'reason' in bindColumn(entity, h) }));
      else if (raw.size < sampleSize) {
        if (e.type === 'cells') raw.set(e.line, [...e.cells]);
        else if (e.type === 'object') {
          for (const k of Object.keys(e.value)) if (!keys.has(k)) keys.set(k, keys.size);
          const cells: string[] = [];
          for (const [k, i] of keys) cells[i] = cellText(e.value[k]);
          raw.set(e.line, cells);
        }
      }
    };
    const source: ImportSource = () => this.events((bytes) => {
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        this.progress({ phase: 'check', done: bytes, total: size });
      }
    }, keep);
    const preview = await previewImport(this.store, this.importSettings(), source, { sampleSize, spool: this.spool });
    if (keys.size > 0) columns = [...keys.keys()].map((k) => ({ header: k, ignored: 'reason' in bindColumn(entity, k) }));
    const rowsShown: PreviewGridRow[] = preview.sample.map((r) => ({
      line: r.line,
      cells: raw.get(r.line) ?? [],
      action: r.action,
      problems: [...r.errors, ...r.notes].map((x) => withoutLine(x, r.line)),
    }));
    const { sample: _sample, ...counts } = preview;
    this.preview = { ...counts, columns, rowsShown, parseMs: Math.round(performance.now() - started) };
    return this.preview;
  }

  /** Pass 2: writes the checked rows in atomic batches until done or stopped. */
  async write(batchSize?: number): Promise<ImportOutcome> {
    const preview = this.preview;
    if (preview === undefined || preview.fatal !== undefined) throw new Error('write before a successful check');
    const size = batchSize ?? writeBatchFor(preview.rows);
    const outcome = await writeImport(this.store, this.importSettings(), preview, () => this.events(() => undefined), {
      spool: this.spool,
      batchSize: size,
      shouldStop: () => this.stop,
      onProgress: (p) => this.progress({ phase: 'write', done: p.rows, total: preview.rows }),
    });
    await this.spool.discard();
    return outcome;
  }

  /** Cancel: no further batch starts; the one being written completes (it is atomic). */
  requestStop(): void {
    this.stop = true;
  }

  /** The file's events, read as a stream of bytes decoded as UTF-8 (invalid bytes as U+FFFD). */
  private async *events(onBytes: (n: number) => void, tap: (e: ImportFileEvent) => void = () => undefined): AsyncIterable<ImportFileEvent[]> {
    const json = isJsonFile(this.settings.file.name);
    const csv = json ? undefined : new CsvImportReader();
    const arr = json ? new JsonArrayReader() : undefined;
    const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    const out = (text: string, end: boolean): ImportFileEvent[] => {
      let events: ImportFileEvent[];
      if (csv !== undefined) events = end ? [...csv.push(text), ...csv.end()] : csv.push(text);
      else {
        events = [];
        const r = arr!.push(text);
        for (const item of r.items) events.push('value' in item ? { type: 'object', line: item.line, value: item.value } : { type: 'invalid', line: item.line, message: item.error });
        if (r.fatal !== undefined) events.push({ type: 'fatal', message: r.fatal });
        else if (end) {
          const e = arr!.end();
          if (e.fatal !== undefined) events.push({ type: 'fatal', message: e.fatal });
        }
      }
      for (const e of events) tap(e);
      return events;
    };
    const reader = this.settings.file.stream().getReader();
    let bytes = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        onBytes(bytes);
        const events = out(decoder.decode(value, { stream: true }), false);
        if (events.length > 0) yield events;
      }
      const last = out(decoder.decode(), true);
      if (last.length > 0) yield last;
    } finally {
      reader.releaseLock();
    }
  }
}
