import { unescapeQuotedCell } from '../export/csv-cell.js';
import { readCsvPreamble } from './csv-preamble.js';
import type { ImportFileEvent } from './import-rows.js';

/**
 * A pure CSV reader for import files (spec 002 section 5), for hosts without csv-parse: the web
 * client parses in a Web Worker with it (issue 17), so the rows it previews are the rows the
 * server would read. It reads the dialect the server's adapter gives csv-parse (adapters-graph
 * import-file-reader.ts: the separator from the preamble, quotes doubled to escape, relaxed
 * quotes, empty lines skipped, ragged rows passed on) and counts lines the way csv-parse does,
 * so error lines are the same; tests/src/import-export/csv-reader-parity.test.ts holds the two
 * readers to the same events on generated files cut into chunks at random.
 *
 * The rules, as csv-parse applies them with those options:
 * - the record delimiter is the first of \r\n, \n, \r met outside quotes, and only that one after;
 * - a quote opens a quoted cell only as a cell's first character; elsewhere it is a character;
 * - inside quotes, "" is one quote; a quote followed by the separator, the record delimiter or the
 *   end closes the cell; followed by anything else it ends the quoting, and the cell is read on
 *   as text with its opening quote kept (`"ab"c` is the cell `"ab"c`);
 * - a line with no character at all is skipped (a line of `""` or `;` is a row);
 * - in cells that start with a quote, \n, \r and \\ are a newline, a return and a backslash.
 */
export const MAX_CSV_RECORD_CHARS = 32 * 1024 * 1024;
/** How much of the file is read before the preamble is looked at (a `sep=` line is short). */
const HEAD_CHARS = 64 * 1024;
/** Characters of look-ahead a decision may need (a quote, then \r\n). */
const LOOKAHEAD = 3;

const QUOTE = 34;
const CR = 13;
const LF = 10;

type Cell = { text: string; quoted: boolean };

/** csv-parse's counters: `lines` is info.lines, `wasRowDelimiter` its flag, `emptyLines` info.empty_lines. */
type Counters = { lines: number; wasRowDelimiter: boolean; emptyLines: number; lastLine: number; lastEmpty: number };

export type CsvRecord = { line: number; cells: string[] };
export type CsvChunkResult = { records: CsvRecord[]; fatal?: string };

/** Splits text into records; `push` chunks in order, then `end`. Holds only the record being read. */
export class CsvTokenizer {
  private buffer = '';
  private delimiter = '';
  private failed = false;
  private readonly c: Counters = { lines: 1, wasRowDelimiter: false, emptyLines: 0, lastLine: 0, lastEmpty: 0 };

  constructor(
    private readonly separator: string,
    /** Physical lines before the text (a `sep=` line), so lines count from the file's first. */
    private readonly linesBefore = 0,
    private readonly maxRecordChars = MAX_CSV_RECORD_CHARS,
  ) {
    if (separator.length !== 1) throw new Error('the separator is one character');
  }

  push(text: string): CsvChunkResult {
    return this.run(text, false);
  }

  end(): CsvChunkResult {
    return this.run('', true);
  }

  private run(text: string, end: boolean): CsvChunkResult {
    const records: CsvRecord[] = [];
    if (this.failed) return { records };
    const buf = this.buffer.length === 0 ? text : this.buffer + text;
    let start = 0;
    for (;;) {
      const r = this.record(buf, start, end);
      if (r.kind === 'record') {
        records.push(r.record);
        start = r.next;
      } else if (r.kind === 'more') {
        this.buffer = buf.slice(r.from);
        if (this.buffer.length > this.maxRecordChars + LOOKAHEAD) return this.fail(records, `the row is longer than ${this.maxRecordChars} characters`);
        return { records };
      } else if (r.kind === 'done') {
        this.buffer = '';
        return { records };
      } else return this.fail(records, r.message);
    }
  }

  private fail(records: CsvRecord[], message: string): CsvChunkResult {
    this.failed = true;
    this.buffer = '';
    return { records, fatal: `Line ${this.c.lastLine + 1 + this.linesBefore}: ${message}` };
  }

  /** Where a record delimiter starts at `pos`: its length, or 0. Discovers the delimiter when none is known yet. */
  private delimiterAt(buf: string, pos: number, discover: boolean): number {
    if (this.delimiter !== '') return buf.startsWith(this.delimiter, pos) ? this.delimiter.length : 0;
    const ch = buf.charCodeAt(pos);
    const found = ch === CR ? (buf.charCodeAt(pos + 1) === LF ? '\r\n' : '\r') : ch === LF ? '\n' : '';
    if (discover) this.delimiter = found;
    return found.length;
  }

  /**
   * Reads one record from `from`. 'more': the text ends inside it (it is read again with the next
   * chunk, the counters as they were); 'done': the end of the file, nothing left.
   */
  private record(
    buf: string,
    from: number,
    end: boolean,
  ): { kind: 'record'; record: CsvRecord; next: number } | { kind: 'more'; from: number } | { kind: 'done' } | { kind: 'fatal'; message: string } {
    const c = this.c;
    const saved = { ...c };
    let savedDelimiter = this.delimiter;
    const sep = this.separator.charCodeAt(0);
    const len = buf.length;
    const cells: Cell[] = [];
    let recordChars = 0;
    let field = ''; // the cell's text before `run`
    let run = from; // the cell's text continues from here up to pos
    let quoting = false;
    let wasQuoting = false;
    let quoted = false;
    let escaping = false;
    let empty = true; // nothing of the record read yet (no cell, no character)
    let recordStart = from;
    const more = () => {
      Object.assign(c, saved);
      this.delimiter = savedDelimiter;
      return { kind: 'more' as const, from: recordStart };
    };
    const endCell = (pos: number): string | undefined => {
      const text = field + buf.slice(run, pos);
      recordChars += text.length;
      if (recordChars > this.maxRecordChars) return `the row is longer than ${this.maxRecordChars} characters`;
      cells.push({ text, quoted });
      field = '';
      wasQuoting = false;
      quoted = false;
      empty = false;
      return undefined;
    };
    const emit = (next: number) => {
      const line = c.lastLine + 1 + (c.emptyLines - c.lastEmpty) + this.linesBefore;
      c.lastLine = c.lines;
      c.lastEmpty = c.emptyLines;
      const out = cells.map((x) => (x.quoted && x.text.includes('\\') ? unescapeQuotedCell(x.text) : x.text));
      return { kind: 'record' as const, record: { line, cells: out }, next };
    };
    for (let pos = from; ; pos++) {
      if (!end && pos + LOOKAHEAD > len) return more();
      if (pos >= len) {
        // The end of the file (csv-parse counts a last line break after the last record).
        if (quoting) {
          return { kind: 'fatal', message: 'a quote opened in this row is never closed' };
        }
        if (wasQuoting || cells.length > 0 || field.length > 0 || run < pos) {
          const e = endCell(pos);
          if (e !== undefined) return { kind: 'fatal', message: e };
          return emit(pos);
        }
        return { kind: 'done' };
      }
      if (c.wasRowDelimiter) {
        c.lines++;
        c.wasRowDelimiter = false;
      }
      if (!quoting && this.delimiter === '') this.delimiterAt(buf, pos, true);
      const ch = buf.charCodeAt(pos);
      if ((ch === CR || ch === LF) && !c.wasRowDelimiter) c.wasRowDelimiter = true;
      if (escaping) {
        escaping = false;
        continue; // the second quote of "" is text: it stays in the run
      }
      if (ch === QUOTE) {
        if (quoting) {
          if (pos + 1 < len && buf.charCodeAt(pos + 1) === QUOTE) {
            // "" inside quotes: drop the first, keep the second
            field += buf.slice(run, pos);
            run = pos + 1;
            escaping = true;
            continue;
          }
          const next = pos + 1;
          if (next >= len || buf.charCodeAt(next) === sep || this.delimiterAt(buf, next, false) > 0) {
            field += buf.slice(run, pos);
            run = pos + 1;
            quoting = false;
            wasQuoting = true;
            continue;
          }
          // Relaxed: the quoting ends here, the cell goes on as text with both quotes kept.
          field = `"${field}${buf.slice(run, pos)}`;
          run = pos;
          quoting = false;
          wasQuoting = true;
        } else if (field.length === 0 && run === pos) {
          quoting = true;
          quoted = true;
          empty = false;
          run = pos + 1;
          continue;
        }
      }
      if (!quoting) {
        const rd = this.delimiterAt(buf, pos, false);
        if (rd > 0) {
          if (empty && !wasQuoting && field.length === 0 && run === pos) {
            // An empty line: skipped.
            c.emptyLines++;
            pos += rd - 1;
            run = pos + 1;
            recordStart = run;
            Object.assign(saved, c);
            savedDelimiter = this.delimiter;
            continue;
          }
          const e = endCell(pos);
          if (e !== undefined) return { kind: 'fatal', message: e };
          return emit(pos + rd);
        }
        if (ch === sep) {
          const e = endCell(pos);
          if (e !== undefined) return { kind: 'fatal', message: e };
          run = pos + 1;
          continue;
        }
      }
    }
  }
}

/**
 * The events of a CSV import file from its text in chunks (decoded UTF-8; invalid bytes as
 * U+FFFD, which the core reports per cell): the preamble (byte-order mark, `sep=X`), then the
 * header and the rows, as adapters-graph's csvImportEvents gives them from csv-parse.
 */
export class CsvImportReader {
  private head = '';
  private tokenizer: CsvTokenizer | undefined;
  private header = true;
  private over = false;

  push(text: string): ImportFileEvent[] {
    if (this.over) return [];
    if (this.tokenizer !== undefined) return this.events(this.tokenizer.push(text));
    this.head += text;
    const blank = this.head.replace(/^\uFEFF/, '').trim() === '';
    // The first line is complete at a \n, or at a \r with something after it (it may be a \r\n).
    if (blank || (!/\n|\r[^]/.test(this.head) && this.head.length < HEAD_CHARS)) return [];
    return this.start();
  }

  end(): ImportFileEvent[] {
    if (this.over) return [];
    if (this.tokenizer === undefined) {
      if (this.head.replace(/^\uFEFF/, '').trim() === '') {
        this.over = true;
        return [{ type: 'fatal', message: 'The file is empty' }];
      }
      const first = this.start();
      return this.over ? first : [...first, ...this.events(this.tokenizer!.end())];
    }
    return this.events(this.tokenizer.end());
  }

  private start(): ImportFileEvent[] {
    const preamble = readCsvPreamble(this.head);
    this.tokenizer = new CsvTokenizer(preamble.separator, preamble.linesBefore);
    const body = this.head.slice(preamble.skipChars);
    this.head = '';
    return this.events(this.tokenizer.push(body));
  }

  private events(r: CsvChunkResult): ImportFileEvent[] {
    const out: ImportFileEvent[] = r.records.map((x) => {
      const type = this.header ? ('header' as const) : ('cells' as const);
      this.header = false;
      return { type, line: x.line, cells: x.cells };
    });
    if (r.fatal !== undefined) {
      this.over = true;
      out.push({ type: 'fatal', message: r.fatal });
    }
    return out;
  }
}

/** All events of a CSV text held whole (a small file, tests). */
export const csvTextEvents = (text: string): ImportFileEvent[] => {
  const reader = new CsvImportReader();
  return [...reader.push(text), ...reader.end()];
};
