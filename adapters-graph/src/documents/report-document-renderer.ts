import type { Either } from 'fp-ts/lib/Either.js';
import type { DocumentFormat, DocumentModel, DocumentRenderer, TemplateError } from '@tessera/core/internal';
import { dejaVuFonts, type PdfFonts } from './pdf-fonts.js';
import { renderReportDocx } from './report-docx-renderer.js';
import { renderReportPdf } from './report-pdf-renderer.js';

/** The DocumentRenderer port: PDF with pdfkit, Word with docx (issue 20). */
export class ReportDocumentRenderer implements DocumentRenderer {
  constructor(private readonly fonts: PdfFonts = dejaVuFonts()) {}

  render(model: DocumentModel, format: DocumentFormat): Promise<Either<TemplateError, Uint8Array>> {
    return format === 'docx' ? renderReportDocx(model) : renderReportPdf(model, this.fonts);
  }
}
