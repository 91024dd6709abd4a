import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import { fitColumns, PDF_CELL_PADDING, PDF_SHADE, type PdfTable } from '@tessera/core/internal';
import { dejaVuFonts, type PdfFonts } from './pdf-fonts.js';

/**
 * Draws the core's PdfTable with pdfkit: title, subtitle, a header row repeated on every page,
 * rows with alternating shading, an optional totals row. Column widths come from the core's
 * fitColumns over the header and the first SAMPLE_ROWS rows (the decision for wide tables is
 * documented there); a later, longer text wraps inside its cell, so nothing is cut off. Rows are
 * drawn as they arrive and pdfkit writes each finished page out, so memory stays bounded.
 */
export const SAMPLE_ROWS = 500;
const REGULAR = 'tessera-regular';
const BOLD = 'tessera-bold';

export type PdfRows = AsyncIterable<ReadonlyArray<readonly string[]>>;

export const renderPdfTable = async (
  table: PdfTable,
  rows: PdfRows,
  totals: () => readonly string[] | undefined,
  out: Writable,
  fonts: PdfFonts = dejaVuFonts(),
): Promise<void> => {
  const m = table.margins;
  const doc = new PDFDocument({
    size: 'A4',
    layout: table.orientation,
    margins: { top: m, bottom: m, left: m, right: m },
    autoFirstPage: true,
    info: { Title: table.title, Creator: 'Tessera' },
  });
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    doc.on('error', reject);
  });
  doc.pipe(out);
  doc.registerFont(REGULAR, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);

  const pageWidth = doc.page.width;
  const pageHeight = doc.page.height;
  const available = pageWidth - 2 * m;
  const pad = PDF_CELL_PADDING;

  doc.font(BOLD).fontSize(table.fontSize * 1.5).text(table.title, m, m, { width: available });
  doc.font(REGULAR).fontSize(table.fontSize).text(table.subtitle, { width: available });
  let y = doc.y + table.fontSize * 0.75;

  const iterator = rows[Symbol.asyncIterator]();
  // Sample rows to size the columns; they are drawn first.
  const pending: Array<readonly string[]> = [];
  let exhausted = false;
  while (pending.length < SAMPLE_ROWS) {
    const n = await iterator.next();
    if (n.done) {
      exhausted = true;
      break;
    }
    pending.push(...n.value);
  }
  const headers = table.columns.map((c) => c.header);
  const natural = table.columns.map((_, i) => {
    doc.font(BOLD).fontSize(table.fontSize);
    let w = doc.widthOfString(headers[i]);
    doc.font(REGULAR);
    for (const r of pending) w = Math.max(w, doc.widthOfString(r[i] ?? ''));
    return w + 0.5; // rounding must not make a measured line wrap
  });
  const longestWord = (text: string): number => Math.max(0, ...text.split(/\s+/).map((w) => doc.widthOfString(w)));
  const minimum = table.columns.map((_, i) => {
    doc.font(BOLD).fontSize(table.fontSize);
    let w = longestWord(headers[i]);
    doc.font(REGULAR);
    for (const r of pending) w = Math.max(w, longestWord(r[i] ?? ''));
    return w + 0.5;
  });
  // Texts scale with the font, the padding does not: fit the texts into what the padding leaves.
  const textFit = fitColumns(natural, available - 2 * pad * natural.length, table.fontSize, minimum);
  const fit = { ...textFit, widths: textFit.widths.map((w) => w + 2 * pad) };
  const fontSize = fit.fontSize;
  const xs = fit.widths.reduce<number[]>((acc, w, i) => [...acc, (acc[i] ?? m) + w], [m]);

  const heightOf = (cells: readonly string[], font: string): number => {
    doc.font(font).fontSize(fontSize);
    let h = doc.currentLineHeight(true);
    cells.forEach((t, i) => {
      if (t !== '') h = Math.max(h, doc.heightOfString(t, { width: Math.max(1, fit.widths[i] - 2 * pad) }));
    });
    return h + 2 * pad;
  };
  const drawRow = (cells: readonly string[], font: string, shade: boolean, line: 'below' | 'above' | 'none'): void => {
    const h = heightOf(cells, font);
    if (y + h > pageHeight - m) {
      doc.addPage();
      y = m;
      if (font !== BOLD || cells !== headers) drawRow(headers, BOLD, false, 'below');
    }
    if (shade) doc.rect(m, y, available, h).fill(PDF_SHADE);
    doc.fillColor('black').font(font).fontSize(fontSize);
    cells.forEach((t, i) => {
      if (t === '') return;
      doc.text(t, xs[i] + pad, y + pad, { width: Math.max(1, fit.widths[i] - 2 * pad), align: table.columns[i]?.align ?? 'left', lineBreak: true });
    });
    if (line !== 'none') {
      const ly = line === 'below' ? y + h : y;
      doc.moveTo(m, ly).lineTo(m + available, ly).lineWidth(0.5).strokeColor('#888888').stroke();
    }
    y += h;
  };

  drawRow(headers, BOLD, false, 'below');
  let index = 0;
  const draw = (r: readonly string[]): void => {
    drawRow(r, REGULAR, index % 2 === 1, 'none');
    index++;
  };
  pending.forEach(draw);
  pending.length = 0;
  while (!exhausted) {
    const n = await iterator.next();
    if (n.done) break;
    n.value.forEach(draw);
  }
  const t = table.totals ? totals() : undefined;
  if (t !== undefined) drawRow(t, BOLD, false, 'above');
  doc.end();
  await finished;
};
