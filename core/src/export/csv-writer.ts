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
  return separator === '.' || s.indexOf('.') < 0 ? s : s.replace('.', ',');
};

const textCell = (text: string, o: CsvWriteOptions): string =>
  o.neutralizeFormulas && needsNeutralizing(text) ? csvQuote(neutralizeFormula(text)) : csvCell(text, CSV_SEPARATOR);

/** A value of an unexpected JS type for its column: an object as JSON text, anything else as it reads. */
const anyCell = (v: unknown, o: CsvWriteOptions): string => (typeof v === 'object' ? textCell(JSON.stringify(v), o) : csvCell(String(v), CSV_SEPARATOR));

/**
 * The CSV cell of a non-empty value by the stored form of its column's type (the field-type
 * registry); option sets hold numbers: their value. One switch rather than a function per form:
 * the call stays monomorphic in a loop over 100k records.
 */
const cellText = (form: StoredForm, c: ExportColumn, v: unknown, o: CsvWriteOptions): string => {
  switch (form) {
    case 'text':
      return textCell(typeof v === 'object' ? JSON.stringify(v) : String(v), o);
    case 'number':
      // A whole number has no point, so integers and option values read the same with either separator.
      return typeof v === 'number' ? formatDecimal(v, o.decimalSeparator) : anyCell(v, o);
    case 'boolean':
      return v === true || v === 1 || v === 'true' ? 'true' : 'false';
    case 'instant':
      return v instanceof Date ? (hasFlag(c.property, 'DateOnly') ? v.toISOString().slice(0, 10) : v.toISOString()) : anyCell(v, o);
    case 'lookup': {
      const l = (typeof v === 'object' ? v : { id: String(v) }) as Partial<LookupValue>;
      if (c.part === 'value') return csvCell(l.id ?? '', CSV_SEPARATOR);
      if (c.part === 'target') return textCell(l.name ?? '', o);
      return textCell(l.label ?? '', o);
    }
    case 'id':
    case 'base64':
    case 'counter':
      return anyCell(v, o);
  }
};

/** The stored forms of a column list, resolved once per list (an export writes 100k records with the same columns). */
const formsOf = new WeakMap<readonly ExportColumn[], StoredForm[]>();
const columnForms = (columns: readonly ExportColumn[]): StoredForm[] => {
  let f = formsOf.get(columns);
  if (f === undefined || f.length !== columns.length) formsOf.set(columns, (f = columns.map((c) => FIELD_TYPES[c.property.type].stored)));
  return f;
};

export const csvRecordLine = (columns: readonly ExportColumn[], record: Readonly<Record<string, unknown>>, o: CsvWriteOptions): string => {
  const forms = columnForms(columns);
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += CSV_SEPARATOR;
    const c = columns[i];
    const v = record[c.property.logicalName];
    if (v !== null && v !== undefined && v !== '') line += cellText(forms[i], c, v, o);
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
