import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { parse, CsvError, type Info } from 'csv-parse';
import { JsonArrayReader, readCsvPreamble, unescapeQuotedCell, type ImportFileEvent, type ImportSource } from '@tessera/core';

/**
 * The file side of import. The core holds every rule over rows (packages/core/src/import); this
 * adapter only turns bytes into the core's events, in bounded memory:
 * - bytes are decoded as UTF-8 (invalid bytes become U+FFFD, which the core reports per cell);
 * - CSV: the core reads the preamble (byte-order mark, `sep=X`), then csv-parse (streamed)
 *   splits records with that separator; quoted cells are unescaped by the core's rule
 *   (`\n`, `\r`, `\\`); each record carries the line it starts on;
 * - JSON: the core's JsonArrayReader cuts the array into objects.
 * A record longer than MAX_RECORD_BYTES stops the file (it cannot be a real row, and holding
 * it would make memory unbounded), as does an unterminated quote: both are `fatal` events.
 */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024;
/** How much of the file is decoded before the preamble is read (a `sep=` line is short). */
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

/** The decoded text with the head (at least the first line, or the whole file) read first. */
const withHead = async (texts: AsyncIterator<string>): Promise<{ head: string; rest: AsyncIterator<string> }> => {
  let head = '';
  while (head.length < HEAD_CHARS && !/[\r\n]/.test(head)) {
    const n = await texts.next();
    if (n.done) break;
    head += n.value;
  }
  return { head, rest: texts };
};

type Parsed = { record: string[]; info: Info };

const csvProblem = (e: unknown, line: number): string => {
  if (e instanceof CsvError) {
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') return `Line ${line}: a quote opened in this row is never closed`;
    if (e.code === 'CSV_MAX_RECORD_SIZE') return `Line ${line}: the row is longer than ${MAX_RECORD_CHARS} characters`;
    return `Line ${line}: ${e.message}`;
  }
  throw e;
};

export async function* csvImportEvents(input: Bytes): AsyncIterable<ImportFileEvent> {
  const { head, rest } = await withHead(decode(input)[Symbol.asyncIterator]());
  let blank = head.replace(/^\uFEFF/, '').trim() === '';
  let text = head;
  // Leading empty lines: read on until something is there (an empty file has no header either).
  while (blank) {
    const n = await rest.next();
    if (n.done) {
      yield { type: 'fatal', message: 'The file is empty' };
      return;
    }
    text += n.value;
    blank = text.replace(/^\uFEFF/, '').trim() === '';
  }
  const preamble = readCsvPreamble(text);
  async function* body(): AsyncIterable<string> {
    const first = text.slice(preamble.skipChars);
    if (first.length > 0) yield first;
    for (let n = await rest.next(); !n.done; n = await rest.next()) yield n.value;
  }
  const parser = Readable.from(body(), { objectMode: false }).pipe(
    parse({
      delimiter: preamble.separator,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: MAX_RECORD_CHARS,
      cast: (value, ctx) => (ctx.quoting ? unescapeQuotedCell(value) : value),
    }),
  );
  let lastLine = 0;
  let lastEmpty = 0;
  let header = true;
  try {
    for await (const { record, info } of recordsOf(parser)) {
      const line = lastLine + 1 + (info.empty_lines - lastEmpty) + preamble.linesBefore;
      lastLine = info.lines;
      lastEmpty = info.empty_lines;
      if (header) {
        header = false;
        yield { type: 'header', line, cells: record };
      } else yield { type: 'cells', line, cells: record };
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
async function* recordsOf(parser: NodeJS.ReadableStream): AsyncIterable<Parsed> {
  const queue: Parsed[] = [];
  let head = 0;
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
    if (queue.length - head >= QUEUE_HIGH) parser.pause();
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
    if (head < queue.length) {
      const r = queue[head++];
      if (head === queue.length) {
        queue.length = 0;
        head = 0;
        parser.resume();
      }
      yield r;
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
