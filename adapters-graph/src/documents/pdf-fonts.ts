import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * pdfkit's standard fonts (Helvetica and friends, WinAnsi) have no Č, Ž, Ť, ľ or ň. The PDF
 * export embeds DejaVu Sans Condensed from the `dejavu-fonts-ttf` npm package (so CI needs no
 * system fonts): it covers Slovak, Czech and German, and the condensed cut fits more columns.
 * pdfkit embeds only the glyphs used, so a file stays small.
 */
const fontDir = (): string => join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export type PdfFonts = { regular: string; bold: string };

export const dejaVuFonts = (): PdfFonts => ({
  regular: join(fontDir(), 'DejaVuSansCondensed.ttf'),
  bold: join(fontDir(), 'DejaVuSansCondensed-Bold.ttf'),
});
