import type { Either } from 'fp-ts/lib/Either.js';
import type { DocumentModel } from '../templates/report-template.js';
import type { TemplateError } from '../templates/template-errors.js';

export const DOCUMENT_FORMATS = ['pdf', 'docx'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/**
 * Draws a filled document (the core's layout model, core/src/templates) as a PDF or a Word file
 * (spec 002 "Document generation"). A layout the page cannot hold ('PDF cannot split grid to
 * page') or an image that is not a PNG or JPEG up to 2000 px is a Left with the spec's text.
 * Implementation: ReportDocumentRenderer in adapters-graph/src/documents (pdfkit and docx).
 */
export interface DocumentRenderer {
  render(model: DocumentModel, format: DocumentFormat): Promise<Either<TemplateError, Uint8Array>>;
}
