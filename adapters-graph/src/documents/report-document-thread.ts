import { availableParallelism } from 'node:os';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DocumentFormat, DocumentModel, TemplateError } from '@tessera/core/internal';
import { keptThreadPool, workerOf } from './kept-thread-pool.js';

type FromWorker = { type: 'done'; bytes: Uint8Array } | { type: 'error'; error: TemplateError } | { type: 'failed'; message: string };

/**
 * Documents drawn at once on threads of this process; more wait their turn. Drawing a 5000-row
 * document takes seconds of a core: off the request thread, the server answers everyone else meanwhile.
 */
export const DOCUMENT_THREADS = Math.max(1, availableParallelism() - 1);
const { take, giveBack } = keptThreadPool(() => workerOf(new URL('./report-document-worker', import.meta.url)), DOCUMENT_THREADS);

/** Draws a document on a drawing thread: its bytes, or the renderer's template error; a crashed thread rejects. */
export const renderDocumentOffThread = async (model: DocumentModel, format: DocumentFormat): Promise<Either<TemplateError, Uint8Array>> => {
  const worker = await take();
  let clean = false;
  try {
    const answer = await new Promise<FromWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the document drawing thread stopped (exit code ${code})`)));
      worker.postMessage({ model, format });
    });
    clean = answer.type !== 'failed';
    if (answer.type === 'failed') throw new Error(`drawing the document failed: ${answer.message}`);
    return answer.type === 'error' ? left(answer.error) : right(answer.bytes);
  } finally {
    await giveBack(worker, clean);
  }
};
