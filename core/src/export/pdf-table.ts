import { hasFlag, type Entity, type LookupValue, type Property } from '../metadata/entity.js';
import { FIELD_TYPES, isQuantity, type StoredForm } from '../metadata/field-types.js';
import { isOptionSet, optionsOf } from '../metadata/field-values.js';
import type { ResolvedExportOptions } from './export-options.js';
import type { Totals } from './totals.js';

/**
 * The table a PDF renderer draws (spec 002 section 9): A4, font size 12 by default, portrait
 * with margins 40 or landscape with margins 10, the entity's plural name as title and the date
 * in Slovak short format as subtitle, alternating row shading, an optional totals row. Cells are
 * the texts a reader expects: option labels, lookup labels, dates in Slovak format, numbers
 * with the decimal separator and grouped thousands.
 *
 * Tables wider than the page (the project's decision): columns first get their natural width;
 * when the sum is wider than the page, the font shrinks proportionally down to MIN_PDF_FONT_SIZE;
 * when even that is too wide, the columns share the page (narrow ones keep their width, wide ones
 * get equal shares of the rest) and their texts wrap inside the cell. Nothing is ever cut off
 * and no column moves to another page, so one row stays on one line of the printout.
 */
export const PDF_DEFAULT_FONT_SIZE = 12;
export const MIN_PDF_FONT_SIZE = 7;
export const PDF_MARGINS = { portrait: 40, landscape: 10 } as const;
/** A4 in PDF points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
/** Space between a cell's text and its borders, each side. */
export const PDF_CELL_PADDING = 3;
export const PDF_SHADE = '#eeeeee';
export const PDF_TIME_ZONE = 'Europe/Bratislava';

export type PdfColumn = { field: string; header: string; align: 'left' | 'right' };

export type PdfTable = {
  title: string;
  subtitle: string;
  orientation: 'portrait' | 'landscape';
  margins: number;
  fontSize: number;
  pageWidth: number;
  pageHeight: number;
  columns: PdfColumn[];
  totals: boolean;
};

const dayFormat = (timeZone: string): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('sk-SK', { timeZone, day: 'numeric', month: 'numeric', year: 'numeric' });

/** Slovak short date, `21. 11. 2026`, of the day in the given time zone. */
export const slovakShortDate = (d: Date, timeZone = PDF_TIME_ZONE): string => dayFormat(timeZone).format(d);

const pad = (n: number): string => String(n).padStart(2, '0');

export const pdfTable = (
  entity: Pick<Entity, 'displayNamePlural'>,
  properties: readonly Property[],
  options: Pick<ResolvedExportOptions, 'fontSize' | 'orientation' | 'totals'>,
  now: Date,
): PdfTable => {
  const landscape = options.orientation === 'landscape';
  return {
    title: entity.displayNamePlural,
    subtitle: slovakShortDate(now),
    orientation: options.orientation,
    margins: PDF_MARGINS[options.orientation],
    fontSize: options.fontSize,
    pageWidth: landscape ? A4.height : A4.width,
    pageHeight: landscape ? A4.width : A4.height,
    columns: properties.map((p) => ({ field: p.logicalName, header: p.displayName, align: isQuantity(p) ? 'right' : 'left' })),
    totals: options.totals !== false,
  };
};

/** Digits grouped by thousands with a no-break space, and the decimal separator. */
export const formatNumberText = (n: number, decimals: number | undefined, separator: '.' | ','): string => {
  const s = decimals === undefined ? String(n) : n.toFixed(decimals);
  if (/e/i.test(s)) return s;
  const [int, frac] = s.split('.');
  const sign = int.startsWith('-') ? '-' : '';
  const digits = sign ? int.slice(1) : int;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${sign}${grouped}${frac === undefined ? '' : separator + frac}`;
};

/** The text of a cell as a reader expects it. */
export const pdfCellText = (p: Property, v: unknown, decimalSeparator: '.' | ',', timeZone = PDF_TIME_ZONE): string => {
  if (v === null || v === undefined || v === '') return '';
  if (isOptionSet(p)) {
    const opts = optionsOf(p);
    if (hasFlag(p, 'MultiSelect') && typeof v === 'number') {
      return opts.filter((o) => o.value >= 0 && o.value < 32 && (v >>> o.value) & 1).map((o) => o.label).join(', ');
    }
    return opts.find((o) => o.value === v)?.label ?? String(v);
  }
  return PDF_CELLS[FIELD_TYPES[p.type].stored](p, v, decimalSeparator, timeZone);
};

type PdfCell = (p: Property, v: unknown, decimalSeparator: '.' | ',', timeZone: string) => string;
const anyText: PdfCell = (_, v) => (typeof v === 'object' ? JSON.stringify(v) : String(v));

/** The PDF text of each stored form of the field-type registry. */
const PDF_CELLS: Record<StoredForm, PdfCell> = {
  text: anyText,
  number: (p, v, sep, tz) => (typeof v === 'number' ? formatNumberText(v, FIELD_TYPES[p.type].decimals(p), sep) : anyText(p, v, sep, tz)),
  boolean: (_, v) => (v === true || v === 1 ? '\u2713' : ''),
  instant: (p, v, sep, timeZone) => {
    if (typeof v !== 'string') return anyText(p, v, sep, timeZone);
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) return v;
    if (hasFlag(p, 'DateOnly')) return slovakShortDate(d, 'UTC');
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d);
    const hh = Number(parts.find((x) => x.type === 'hour')?.value ?? 0);
    const mm = Number(parts.find((x) => x.type === 'minute')?.value ?? 0);
    return `${slovakShortDate(d, timeZone)} ${pad(hh)}:${pad(mm)}`;
  },
  id: anyText,
  lookup: (p, v, sep, tz) => {
    if (typeof v !== 'object') return anyText(p, v, sep, tz);
    const l = v as Partial<LookupValue>;
    return l.label ?? l.id ?? '';
  },
  base64: anyText,
  counter: anyText,
};

/** The totals row's texts, column by column ('' where a column is not totalled). */
export const pdfTotalsTexts = (properties: readonly Property[], totals: Totals, decimalSeparator: '.' | ','): string[] =>
  properties.map((p) => {
    const t = totals.of(p.logicalName);
    if (t === undefined) return '';
    return t.kind === 'count' ? String(t.value) : formatNumberText(t.value, FIELD_TYPES[p.type].decimals(p), decimalSeparator);
  });

/**
 * Fits columns to the page (the decision above), like a browser's automatic table layout.
 * `natural` are the widths the texts need on one line at `fontSize`, `minimum` the widths of
 * their longest words (both with padding). Returns the font size, the widths (summing to
 * `available` at most) and whether texts must wrap: at the smallest font, every column first
 * gets its longest word (up to an equal share of the page) and the rest of the width is shared
 * in proportion to what each column still lacks; longer words are broken.
 */
export const fitColumns = (
  natural: readonly number[],
  available: number,
  fontSize: number,
  minimum: readonly number[] = natural.map(() => 0),
  minFontSize = MIN_PDF_FONT_SIZE,
): { fontSize: number; widths: number[]; wrap: boolean } => {
  const n = natural.length;
  if (n === 0) return { fontSize, widths: [], wrap: false };
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  const total = sum(natural);
  if (total <= available) {
    // Spread the spare width evenly so the table spans the page.
    const extra = (available - total) / n;
    return { fontSize, widths: natural.map((w) => w + extra), wrap: false };
  }
  const floor = Math.min(minFontSize, fontSize);
  const scale = available / total;
  if (fontSize * scale >= floor) {
    return { fontSize: fontSize * scale, widths: natural.map((w) => w * scale), wrap: false };
  }
  const k = floor / fontSize;
  const nat = natural.map((w) => w * k);
  // A long unbreakable word (an id, a URL) may claim at most an equal share of the page.
  const min = minimum.map((w, i) => Math.min(w * k, nat[i], available / n));
  const minTotal = sum(min);
  if (minTotal >= available || minTotal === 0) {
    const base = minTotal === 0 ? nat : min;
    const f = available / sum(base);
    return { fontSize: floor, widths: base.map((w) => w * f), wrap: true };
  }
  const lack = nat.map((w, i) => w - min[i]);
  const share = (available - minTotal) / sum(lack);
  return { fontSize: floor, widths: min.map((w, i) => w + lack[i] * share), wrap: true };
};
