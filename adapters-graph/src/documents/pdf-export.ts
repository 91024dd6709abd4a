import type { Writable } from 'node:stream';
import { pdfCellText, pdfTable, pdfTotalsTexts, Totals, type Entity, type Property, type RecordPage, type ResolvedExportOptions } from '@tessera/core/internal';
import { renderPdfTableOffThread } from './pdf-drawing-thread.js';

/**
 * A PDF export: the core's table model and cell texts (made here, on the request thread, as the
 * pages arrive), drawn by pdfkit on a thread of its own (pdf-drawing-thread.ts).
 */
export const writePdfExport = async (
  entity: Pick<Entity, 'displayNamePlural'>,
  properties: readonly Property[],
  pages: AsyncIterable<RecordPage>,
  options: ResolvedExportOptions,
  now: Date,
  out: Writable,
): Promise<void> => {
  const table = pdfTable(entity, properties, options, now);
  const totals = options.totals === false ? undefined : new Totals(properties, options.totals);
  async function* rows(): AsyncIterable<string[][]> {
    for await (const page of pages) {
      yield page.map((r) => {
        totals?.add(r);
        return properties.map((p) => pdfCellText(p, r[p.logicalName], options.decimalSeparator));
      });
    }
  }
  await renderPdfTableOffThread(table, rows(), () => (totals === undefined ? undefined : pdfTotalsTexts(properties, totals, options.decimalSeparator)), out);
};
