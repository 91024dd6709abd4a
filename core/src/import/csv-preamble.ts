/**
 * What comes before the header of an import CSV (spec 002 section 5): an optional UTF-8
 * byte-order mark, then an optional first line `sep=X` that sets the separator; otherwise
 * the separator is a semicolon. The adapter decodes the first chunk of the file, asks this
 * function where the CSV body starts and which separator to give csv-parse.
 */
export const BOM = '\uFEFF';
export const DEFAULT_SEPARATOR = ';';

export type CsvPreamble = {
  separator: string;
  /** A byte-order mark was found (and is skipped). */
  bom: boolean;
  /** The file started with a `sep=X` line (skipped: it is not the header). */
  separatorLine: boolean;
  /** Characters of the decoded text before the header row. */
  skipChars: number;
  /** Physical lines before the header row, so error lines count from the file's first line. */
  linesBefore: number;
};

const SEP_LINE = /^"?sep=([^\r\n"])"?[^\r\n]*(\r\n|\n|\r|$)/i;

export const stripBom = (text: string): string => (text.startsWith(BOM) ? text.slice(1) : text);

/** `head` is the start of the decoded file: at least its first line, or the whole file when shorter. */
export const readCsvPreamble = (head: string): CsvPreamble => {
  const bom = head.startsWith(BOM);
  const offset = bom ? 1 : 0;
  const m = SEP_LINE.exec(head.slice(offset));
  if (m === null) return { separator: DEFAULT_SEPARATOR, bom, separatorLine: false, skipChars: offset, linesBefore: 0 };
  return { separator: m[1], bom, separatorLine: true, skipChars: offset + m[0].length, linesBefore: 1 };
};
