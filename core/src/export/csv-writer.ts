import { hasFlag, type LookupValue } from '../metadata/entity.js';
import { isNumericType, isOptionSet } from '../import/coerce.js';
import { BOM } from '../import/csv-preamble.js';
import { csvCell, csvQuote } from './csv-cell.js';
import type { ExportColumn } from './export-columns.js';
import type { ResolvedExportOptions } from './export-options.js';
import { needsNeutralizing, neutralizeFormula } from './formula-neutralization.js';
import type { Totals } from './totals.js';

/**
 * CSV export (spec 002 section 5): semicolon-separated, UTF-8 with a byte-order mark, an
 * optional first line `sep=;`, a header of logical names, lines ending in CRLF. Dates are ISO,
 * numbers use the configured decimal separator, booleans are true/false, option sets their
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

const cell = (c: ExportColumn, v: unknown, o: CsvWriteOptions): string => {
  if (v === null || v === undefined || v === '') return '';
  const p = c.property;
  if (p.type === 'Lookup') {
    const l = (typeof v === 'object' ? v : { id: String(v) }) as Partial<LookupValue>;
    if (c.part === 'value') return csvCell(l.id ?? '', CSV_SEPARATOR);
    if (c.part === 'target') return textCell(l.name ?? '', o);
    return textCell(l.label ?? '', o);
  }
  if (typeof v === 'number') {
    if (isOptionSet(p) || p.type === 'Integer') return String(v);
    if (isNumericType(p)) return formatDecimal(v, o.decimalSeparator);
  }
  if (p.type === 'Boolean') return v === true || v === 1 || v === 'true' ? 'true' : 'false';
  if (p.type === 'DateTime' && v instanceof Date) return hasFlag(p, 'DateOnly') ? v.toISOString().slice(0, 10) : v.toISOString();
  if (typeof v === 'object') return textCell(JSON.stringify(v), o);
  const text = String(v);
  return p.type === 'String' ? textCell(text, o) : csvCell(text, CSV_SEPARATOR);
};

export const csvRecordLine = (columns: readonly ExportColumn[], record: Readonly<Record<string, unknown>>, o: CsvWriteOptions): string => {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += CSV_SEPARATOR;
    line += cell(columns[i], record[columns[i].property.logicalName], o);
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
