import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DocumentFormat, DocumentModel, TemplateError } from '@tessera/core/internal';

/** The drawing thread: compiled JavaScript next to this file, or else (tests, `tsx` hosts) the TypeScript source through tsx (as the PDF export's thread). */
const newWorker = (): Worker => {
  const js = new URL('./report-document-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const source = new URL('./report-document-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
};

type FromWorker = { type: 'done'; bytes: Uint8Array } | { type: 'error'; error: TemplateError } | { type: 'failed'; message: string };

/**
 * Documents drawn at once on threads of this process; more wait their turn. A thread is kept for
 * the next document (its start-up and its parsed fonts are paid once) and does not keep the
 * process alive. Drawing a 5000-row document takes seconds of a core: off the request thread,
 * the server answers everyone else meanwhile.
 */
export const DOCUMENT_THREADS = Math.max(1, availableParallelism() - 1);
let running = 0;
const queue: Array<() => void> = [];
const idle: Worker[] = [];

const take = async (): Promise<Worker> => {
  if (running >= DOCUMENT_THREADS) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  const w = idle.pop() ?? newWorker();
  w.ref();
  return w;
};
const giveBack = async (w: Worker, clean: boolean): Promise<void> => {
  w.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
  if (clean) {
    w.unref();
    idle.push(w);
    w.once('exit', () => {
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
    });
  } else await w.terminate();
  running--;
  queue.shift()?.();
};

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
