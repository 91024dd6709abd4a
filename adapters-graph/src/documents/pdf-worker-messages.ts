import type { PdfTable } from '@tessera/core/internal';
import type { PdfFonts } from './pdf-fonts.js';

/** What the request thread sends the PDF drawing thread (pdf-drawing-thread.ts). */
export type ToPdfWorker =
  | { type: 'start'; table: PdfTable; fonts: PdfFonts }
  | { type: 'rows'; rows: string[][] }
  /** no more rows; the totals row when the table has one */
  | { type: 'end'; totals?: string[] };

/** What the drawing thread answers. */
export type FromPdfWorker =
  /** it wants the next page of rows (it asks only once the request thread took its output) */
  | { type: 'want' }
  | { type: 'chunk'; data: Uint8Array }
  | { type: 'done' }
  | { type: 'error'; message: string };
