import type { Either } from 'fp-ts/lib/Either.js';
import type { DocumentFormat, DocumentModel, DocumentRenderer, TemplateError } from '@tessera/core/internal';
import { dejaVuFonts, type PdfFonts } from './pdf-fonts.js';
import { renderDocumentOffThread } from './report-document-thread.js';
import { renderReportDocx } from './report-docx-renderer.js';
import { renderReportPdf } from './report-pdf-renderer.js';

/**
 * The DocumentRenderer port: PDF with pdfkit, Word with docx (issue 20). By default on drawing
 * threads (report-document-thread.ts), so a long document does not hold the server's requests;
 * `{ offThread: false }` draws in this thread (tests, benchmarks).
 */
export class ReportDocumentRenderer implements DocumentRenderer {
  constructor(private readonly options: { offThread?: boolean; fonts?: PdfFonts } = {}) {}

  render(model: DocumentModel, format: DocumentFormat): Promise<Either<TemplateError, Uint8Array>> {
    if (this.options.offThread ?? true) return renderDocumentOffThread(model, format);
    return format === 'docx' ? renderReportDocx(model) : renderReportPdf(model, this.options.fonts ?? dejaVuFonts());
  }
}
