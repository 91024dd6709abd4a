import { parentPort } from 'node:worker_threads';
import type { DocumentFormat, DocumentModel } from '@tessera/core/internal';
import { renderReportDocx } from './report-docx-renderer.js';
import { renderReportPdf } from './report-pdf-renderer.js';

/** The document drawing thread (report-document-thread.ts): one model in, the file's bytes or the template error out. */
export type ToDocumentWorker = { readonly model: DocumentModel; readonly format: DocumentFormat };

parentPort?.on('message', (m: ToDocumentWorker) => {
  const draw = m.format === 'docx' ? renderReportDocx(m.model) : renderReportPdf(m.model);
  draw.then(
    (r) => {
      if (r._tag === 'Left') return parentPort?.postMessage({ type: 'error', error: r.left });
      const bytes = new Uint8Array(r.right.buffer, r.right.byteOffset, r.right.byteLength).slice();
      parentPort?.postMessage({ type: 'done', bytes }, [bytes.buffer]);
    },
    (e: unknown) => parentPort?.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
  );
});
