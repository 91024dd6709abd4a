import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { CsvError, Parser, type Options } from 'csv-parse';
import { JsonArrayReader, readCsvPreamble, unescapeQuotedCell, type ImportFileEvent, type ImportSource } from '@tessera/core/internal';

/**
 * The file side of import. The core holds every rule over rows (core/src/import); this adapter
 * only turns bytes into the core's events, in bounded memory:
 * - bytes are decoded as UTF-8 (invalid bytes become U+FFFD, which the core reports per cell);
 * - CSV: the core reads the preamble (byte-order mark, `sep=X`), then csv-parse (streamed)
 *   splits records with that separator; quoted cells are unescaped by the core's rule
 *   (`\n`, `\r`, `\\`); each record carries the line it starts on;
 * - JSON: the core's JsonArrayReader cuts the array into objects.
 * A record longer than MAX_RECORD_CHARS stops the file (it cannot be a real row, and holding
 * it would make memory unbounded), as does an unterminated quote: both are `fatal` events.
 */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024;
/** How much of the file is read before the preamble is looked at (a `sep=` line is short). */
const HEAD_CHARS = 64 * 1024;

export type ImportFileKind = 'csv' | 'json';

/** Spec 002 section 5: a `.json` file is JSON, anything else is CSV. */
export const importFileKind = (fileName: string): ImportFileKind => (/\.json$/i.test(fileName) ? 'json' : 'csv');

type Bytes = AsyncIterable<Uint8Array | string>;

async function* decode(input: Bytes): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

/** A record with the parser's counters as they stood when it was complete. */
type Parsed = { record: string[]; lines: number; emptyLines: number; bytes: number };

/**
 * csv-parse's Parser, each record pushed with the three counters import needs (lines, empty
 * lines skipped, bytes consumed). The `info: true` option gives them too, but as two copies of
 * the whole info object per record, and `raw: true` copies every character once more: together
 * a quarter of the parse of a large file.
 */
class CountingParser extends Parser {
  override push(record: unknown): boolean {
    if (record === null) return super.push(null);
    const parsed: Parsed = { record: record as string[], lines: this.info.lines, emptyLines: this.info.empty_lines, bytes: this.info.bytes };
    return super.push(parsed);
  }
}

/**
 * The last bytes given to the parser, from the start of the oldest record not yet handled: the
 * raw text of a record is read back from here (by its byte offsets) only for the rare records
 * that hold a backslash. Bounded by the records queued and the chunk being parsed.
 */
class ByteWindow {
  private chunks: Uint8Array[] = [];
  private start = 0;

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }

  /** Bytes [from, to) of the stream, decoded. */
  text(from: number, to: number): string {
    const parts: Uint8Array[] = [];
    let at = this.start;
    for (const c of this.chunks) {
      const end = at + c.length;
      if (end > from && at < to) parts.push(c.subarray(Math.max(0, from - at), Math.min(c.length, to - at)));
      at = end;
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /** Forgets the chunks that end before `offset`. */
  dropBefore(offset: number): void {
    let n = 0;
    while (n < this.chunks.length && this.start + this.chunks[n].length <= offset) this.start += this.chunks[n++].length;
    if (n > 0) this.chunks = this.chunks.slice(n);
  }
}

/** Which cells of a raw CSV record were quoted (a quoted cell starts with a quote). */
export const quotedCells = (raw: string, delimiter: string): boolean[] => {
  const quoted: boolean[] = [];
  let start = true;
  let inQuotes = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (start) {
      quoted.push(c === '"');
      start = false;
      if (c === '"') {
        inQuotes = true;
        continue;
      }
    }
    if (inQuotes) {
      if (c === '"') {
        if (raw[i + 1] === '"') i++;
        else inQuotes = false;
      }
    } else if (c === delimiter) start = true;
  }
  if (start) quoted.push(false);
  return quoted;
};

/**
 * The backslash escapes of the project's dialect, undone in quoted cells only. `raw` gives the
 * record's text (with any empty lines before it) and is asked for only when a cell holds a backslash.
 */
const unescapeRecord = (record: string[], raw: () => string, delimiter: string): string[] => {
  let backslash = false;
  for (let i = 0; i < record.length && !backslash; i++) backslash = record[i].includes('\\');
  if (!backslash) return record;
  const quoted = quotedCells(raw().replace(/^[\r\n]+/, ''), delimiter);
  return record.map((c, i) => (quoted[i] ? unescapeQuotedCell(c) : c));
};

const csvProblem = (e: unknown, line: number): string => {
  if (e instanceof CsvError) {
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') return `Line ${line}: a quote opened in this row is never closed`;
    if (e.code === 'CSV_MAX_RECORD_SIZE') return `Line ${line}: the row is longer than ${MAX_RECORD_CHARS} characters`;
    return `Line ${line}: ${e.message}`;
  }
  throw e;
};

async function* bytesOf(input: Bytes): AsyncIterable<Uint8Array> {
  for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/**
 * CSV: the head of the file is decoded for the core's preamble rule; csv-parse then reads the
 * bytes after it (decoding UTF-8 itself, invalid bytes as U+FFFD, which the core reports).
 */
export async function* csvImportEvents(input: Bytes): AsyncIterable<ImportFileEvent | ImportFileEvent[]> {
  const chunks = bytesOf(input)[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  const decodeHead = (): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(head);
  // Read until the first line is complete (a sep= line is short) and something is there.
  for (;;) {
    const text = decodeHead();
    const blank = text.replace(/^\uFEFF/, '').trim() === '';
    // A first line ending in \r may be a \r\n cut between chunks: its \n read as the body's first
    // character would make csv-parse take \n as the record delimiter (cells ending in \r).
    if (!blank && (/\n|\r[^]/.test(text) || head.length >= HEAD_CHARS)) break;
    const n = await chunks.next();
    if (n.done) {
      if (blank) {
        yield { type: 'fatal', message: 'The file is empty' };
        return;
      }
      break;
    }
    head = Buffer.concat([head, n.value]);
  }
  const preamble = readCsvPreamble(decodeHead());
  const skipBytes = Buffer.byteLength(decodeHead().slice(0, preamble.skipChars), 'utf8');
  const window = new ByteWindow();
  async function* body(): AsyncIterable<Uint8Array> {
    const first = head.subarray(skipBytes);
    if (first.length > 0) {
      window.add(first);
      yield first;
    }
    for (let n = await chunks.next(); !n.done; n = await chunks.next()) {
      window.add(n.value);
      yield n.value;
    }
  }
  const options: Options = {
    delimiter: preamble.separator,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    // csv-parse's `cast` hook costs ten times the parse itself; the record's bytes tell which
    // cells were quoted, and are read only for the rare rows holding a backslash.
  };
  const parser = Readable.from(body(), { objectMode: false }).pipe(new CountingParser(options));
  let lastLine = 0;
  let lastEmpty = 0;
  let lastBytes = 0;
  let header = true;
  try {
    for await (const records of recordsOf(parser)) {
      const events: ImportFileEvent[] = [];
      for (const { record: parsed, lines, emptyLines, bytes } of records) {
        const from = lastBytes;
        const record = unescapeRecord(parsed, () => window.text(from, bytes), preamble.separator);
        const line = lastLine + 1 + (emptyLines - lastEmpty) + preamble.linesBefore;
        lastLine = lines;
        lastEmpty = emptyLines;
        lastBytes = bytes;
        events.push({ type: header ? 'header' : 'cells', line, cells: record });
        header = false;
      }
      window.dropBefore(lastBytes);
      yield events;
    }
  } catch (e) {
    yield { type: 'fatal', message: csvProblem(e, lastLine + 1 + preamble.linesBefore) };
  }
}

/**
 * The records of the parser, every one parsed before an error included (a stream's own async
 * iterator drops what it buffered when the error comes), with back-pressure: the parser is
 * paused while QUEUE_HIGH records wait.
 */
const QUEUE_HIGH = 1000;
async function* recordsOf(parser: NodeJS.ReadableStream): AsyncIterable<Parsed[]> {
  let queue: Parsed[] = [];
  let failure: unknown;
  let ended = false;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  parser.on('data', (r: Parsed) => {
    queue.push(r);
    if (queue.length >= QUEUE_HIGH) parser.pause();
    signal();
  });
  parser.on('error', (e: unknown) => {
    failure = e;
    signal();
  });
  parser.on('end', () => {
    ended = true;
    signal();
  });
  for (;;) {
    if (queue.length > 0) {
      // Everything parsed so far, at once; the parser goes on while it is handled.
      const taken = queue;
      queue = [];
      parser.resume();
      yield taken;
      continue;
    }
    if (failure !== undefined) throw failure;
    if (ended) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

export async function* jsonImportEvents(input: Bytes): AsyncIterable<ImportFileEvent> {
  const reader = new JsonArrayReader();
  for await (const text of decode(input)) {
    const r = reader.push(text);
    for (const item of r.items) yield 'value' in item ? { type: 'object', line: item.line, value: item.value } : { type: 'invalid', line: item.line, message: item.error };
    if (r.fatal !== undefined) {
      yield { type: 'fatal', message: r.fatal };
      return;
    }
  }
  const end = reader.end();
  if (end.fatal !== undefined) yield { type: 'fatal', message: end.fatal };
}

/** The events of a file on disk; each call reads it again from the start (import reads it twice). */
export const importFileSource =
  (path: string, kind: ImportFileKind = importFileKind(path)): ImportSource =>
  () => {
    const bytes = createReadStream(path, { highWaterMark: 256 * 1024 });
    return kind === 'json' ? jsonImportEvents(bytes) : csvImportEvents(bytes);
  };

/** The events of bytes held in memory (an upload small enough, tests). */
export const importBytesSource =
  (bytes: Uint8Array | string, kind: ImportFileKind): ImportSource =>
  () => {
    async function* once(): AsyncIterable<Uint8Array | string> {
      yield bytes;
    }
    return kind === 'json' ? jsonImportEvents(once()) : csvImportEvents(once());
  };
