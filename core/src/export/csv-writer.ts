import { hasFlag, type LookupValue } from '../metadata/entity.js';
import { FIELD_TYPES, type StoredForm } from '../metadata/field-types.js';
import { BOM } from '../import/csv-preamble.js';
import { csvCell, csvQuote } from './csv-cell.js';
import type { ExportColumn } from './export-columns.js';
import type { ResolvedExportOptions } from './export-options.js';
import { needsNeutralizing, neutralizeFormula } from './formula-neutralization.js';
import type { Totals } from './totals.js';

/**
 * CSV export (spec 002 section 5): semicolon-separated, UTF-8 with a byte-order mark, an
 * optional first line `sep=;`, a header of logical names, lines ending in CRLF. Dates are ISO,
 * numbers use the configured decimal separator (the cell of each type is its stored form's
 * writer below, from the field-type registry), booleans are true/false, option sets their
 * value, lookups id / target / label. Text cells that a spreadsheet would run as a formula are
 * neutralized (unless the option is off); numbers, dates and ids are never text a formula
 * could hide in, so a negative number stays a number.
 */
export const CSV_SEPARATOR = ';';
const EOL = '\r\n';

export type CsvWriteOptions = Pick<ResolvedExportOptions, 'decimalSeparator' | 'neutralizeFormulas' | 'csvHeader'>;

/** The text before the header: the byte-order mark and, with `csvHeader`, the `sep=;` line. */
export const csvStart = (o: Pick<CsvWriteOptions, 'csvHeader'>): string => `${BOM}${o.csvHeader ? `sep=${CSV_SEPARATOR}${EOL}` : ''}`;

export const csvHeaderLine = (columns: readonly ExportColumn[]): string =>
  columns.map((c) => csvCell(c.header, CSV_SEPARATOR)).join(CSV_SEPARATOR) + EOL;

export const formatDecimal = (n: number, separator: '.' | ','): string => {
  const s = String(n);
  return separator === '.' ? s : s.replace('.', ',');
};

const textCell = (text: string, o: CsvWriteOptions): string =>
  o.neutralizeFormulas && needsNeutralizing(text) ? csvQuote(neutralizeFormula(text)) : csvCell(text, CSV_SEPARATOR);

type CellWriter = (c: ExportColumn, v: unknown, o: CsvWriteOptions) => string;

/** A value of an unexpected JS type for its column: an object as JSON text, anything else as it reads. */
const anyCell: CellWriter = (_, v, o) => (typeof v === 'object' ? textCell(JSON.stringify(v), o) : csvCell(String(v), CSV_SEPARATOR));

/** The CSV cell of each stored form of the field-type registry (option sets hold numbers: their value). */
const CELL_WRITERS: Record<StoredForm, CellWriter> = {
  text: (_, v, o) => (typeof v === 'object' ? textCell(JSON.stringify(v), o) : textCell(String(v), o)),
  // A whole number has no point, so integers and option values read the same with either separator.
  number: (c, v, o) => (typeof v === 'number' ? formatDecimal(v, o.decimalSeparator) : anyCell(c, v, o)),
  boolean: (_, v) => (v === true || v === 1 || v === 'true' ? 'true' : 'false'),
  instant: (c, v, o) => (v instanceof Date ? (hasFlag(c.property, 'DateOnly') ? v.toISOString().slice(0, 10) : v.toISOString()) : anyCell(c, v, o)),
  id: anyCell,
  lookup: (c, v, o) => {
    const l = (typeof v === 'object' ? v : { id: String(v) }) as Partial<LookupValue>;
    if (c.part === 'value') return csvCell(l.id ?? '', CSV_SEPARATOR);
    if (c.part === 'target') return textCell(l.name ?? '', o);
    return textCell(l.label ?? '', o);
  },
  base64: anyCell,
  counter: anyCell,
};

/** The writers of a column list, resolved once per list (an export writes 100k records with the same columns). */
const writersOf = new WeakMap<readonly ExportColumn[], CellWriter[]>();
const cellWriters = (columns: readonly ExportColumn[]): CellWriter[] => {
  let w = writersOf.get(columns);
  if (w === undefined) writersOf.set(columns, (w = columns.map((c) => CELL_WRITERS[FIELD_TYPES[c.property.type].stored])));
  return w;
};

export const csvRecordLine = (columns: readonly ExportColumn[], record: Readonly<Record<string, unknown>>, o: CsvWriteOptions): string => {
  const writers = cellWriters(columns);
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += CSV_SEPARATOR;
    const c = columns[i];
    const v = record[c.property.logicalName];
    if (v !== null && v !== undefined && v !== '') line += writers[i](c, v, o);
  }
  return line + EOL;
};

/** The totals row: sums with the decimal separator, counts as whole numbers; empty where not totalled. */
export const csvTotalsLine = (columns: readonly ExportColumn[], totals: Totals, o: CsvWriteOptions): string =>
  columns
    .map((c) => {
      const t = c.part === 'value' ? totals.of(c.property.logicalName) : undefined;
      return t === undefined ? '' : t.kind === 'sum' ? formatDecimal(t.value, o.decimalSeparator) : String(t.value);
    })
    .join(CSV_SEPARATOR) + EOL;
