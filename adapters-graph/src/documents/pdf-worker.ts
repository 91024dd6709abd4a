import { parentPort } from 'node:worker_threads';
import { Writable } from 'node:stream';
import type { FromPdfWorker, ToPdfWorker } from './pdf-worker-messages.js';
import { renderPdfTable } from './pdf-table-renderer.js';

/**
 * A thread that draws PDF exports one after another (issue 22 item 2): pdfkit's layout and compression are
 * CPU work of seconds for a large table, so they run here and not on the request thread. Rows
 * arrive a page at a time when asked for; finished PDF bytes go back as they are written.
 */
const port = parentPort!;
const post = (m: FromPdfWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

const waiting: Array<(m: ToPdfWorker) => void> = [];
const early: ToPdfWorker[] = [];
const nextMessage = (): Promise<ToPdfWorker> => new Promise((resolve) => (early.length ? resolve(early.shift()!) : waiting.push(resolve)));
port.on('message', (m: ToPdfWorker) => {
  const w = waiting.shift();
  if (w) w(m);
  else early.push(m);
});

/** One export: the table, then rows as asked for, then the end; the thread then waits for the next export. */
const drawOne = async (): Promise<void> => {
  const start = await nextMessage();
  if (start.type !== 'start') throw new Error('the PDF worker expected its table first');
  let totals: string[] | undefined;
  async function* rows(): AsyncIterable<string[][]> {
    for (;;) {
      post({ type: 'want' });
      const m = await nextMessage();
      if (m.type === 'end') {
        totals = m.totals;
        return;
      }
      if (m.type === 'rows') yield m.rows;
    }
  }
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      // A copy: pdfkit's buffers may share a pooled slab, which cannot be transferred.
      const data = new Uint8Array(chunk);
      post({ type: 'chunk', data }, [data.buffer]);
      done();
    },
  });
  await renderPdfTable(start.table, rows(), () => totals, out, start.fonts);
  post({ type: 'done' });
};

const run = async (): Promise<void> => {
  for (;;) await drawOne();
};
// After an error the request thread ends this thread (its state is unknown); it never draws again.
run().catch((e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
