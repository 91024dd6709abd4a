/**
 * Documents and files, the outbound services both hosts use: read an import file (csv-parse),
 * spool its rows, keep an upload, write an export (CSV, JSON, or a PDF drawn by pdfkit).
 */
export * from './import-file-reader.js';
export * from './file-row-spool.js';
export * from './local-import-files.js';
export * from './export-stream.js';
export * from './export-file.js';
export * from './stream-export-writer.js';
export * from './pdf-fonts.js';
export * from './pdf-table-renderer.js';
export * from './pdf-export.js';
export * from './report-images.js';
export * from './report-pdf-renderer.js';
export * from './report-docx-renderer.js';
export * from './report-document-thread.js';
export * from './report-document-renderer.js';
