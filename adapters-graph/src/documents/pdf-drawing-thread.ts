import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import type { PdfTable } from '@tessera/core/internal';
import { dejaVuFonts } from './pdf-fonts.js';
import { keptThreadPool, workerOf } from './kept-thread-pool.js';
import type { PdfRows } from './pdf-table-renderer.js';
import type { FromPdfWorker, ToPdfWorker } from './pdf-worker-messages.js';

/**
 * PDFs drawn at once in this process; more wait their turn (each drawing keeps a core busy, and a
 * burst of exports from many users must not start a thread each).
 */
export const PDF_THREADS = Math.max(1, availableParallelism() - 1);
const { take, giveBack } = keptThreadPool(() => workerOf(new URL('./pdf-worker', import.meta.url)), PDF_THREADS);

/**
 * Draws the table on a thread of its own and writes the PDF to `out` (issue 22 item 2: a large
 * PDF export no longer holds the request thread). Back-pressure end to end: the next page of
 * rows is read from the store only when the drawing thread asks for it, and it is sent only after
 * `out` drained, so memory stays flat whatever the number of rows. Resolves when `out` has
 * finished; rejects when reading the rows or drawing fails (then `out` is left to the caller).
 */
export const renderPdfTableOffThread = async (table: PdfTable, rows: PdfRows, totals: () => readonly string[] | undefined, out: Writable): Promise<void> => {
  const worker = await take();
  const iterator = rows[Symbol.asyncIterator]();
  const send = (m: ToPdfWorker): void => worker.postMessage(m);
  let clean = false;
  let onOutError: ((e: unknown) => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (e: unknown): void => {
        if (failed) return;
        failed = true;
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      // Set while `out` is full: the next rows are sent only once it drained.
      let writing: Promise<void> | undefined;
      worker.on('message', (m: FromPdfWorker) => {
        if (failed) return;
        if (out.destroyed || out.writableEnded) return fail(new Error('the PDF output was closed before the export ended'));
        if (m.type === 'chunk') {
          if (!out.write(m.data) && !writing) writing = once(out, 'drain').then(() => (writing = undefined));
        } else if (m.type === 'want') {
          void (writing ?? Promise.resolve())
            .then(() => iterator.next())
            .then((n) => (n.done ? send({ type: 'end', totals: table.totals ? totals()?.slice() : undefined }) : send({ type: 'rows', rows: n.value.map((r) => [...r]) })))
            .catch(fail);
        } else if (m.type === 'done') {
          clean = true;
          out.end((e?: Error | null) => (e ? fail(e) : resolve()));
        } else fail(new Error(`drawing the PDF failed: ${m.message}`));
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the PDF drawing thread stopped (exit code ${code})`)));
      onOutError = fail;
      out.on('error', onOutError);
      send({ type: 'start', table, fonts: dejaVuFonts() });
    });
  } finally {
    if (onOutError) out.off('error', onOutError);
    await giveBack(worker, clean);
  }
};
