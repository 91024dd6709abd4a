/// <reference lib="webworker" />
import { ImportJob, type StoreAnswer, type StoreCall } from './import-job.js';
import type { FromWorker, ToWorker } from './import-protocol.js';

/**
 * The import of one file, off the main thread (issue 17): a file of 100k rows is read, coerced
 * and checked here, so the page stays responsive. See import-job.ts; the protocol is import-protocol.ts.
 */
const post = (m: FromWorker): void => (self as unknown as Worker).postMessage(m);
const waiting = new Map<number, (a: StoreAnswer) => void>();
let next = 0;
const call = (c: StoreCall): Promise<StoreAnswer> =>
  new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    post({ type: 'call', id, call: c });
  });

let job: ImportJob | undefined;
const fail = (e: unknown): void => post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  switch (m.type) {
    case 'answer': {
      const resolve = waiting.get(m.id);
      waiting.delete(m.id);
      resolve?.(m.answer);
      return;
    }
    case 'check':
      job = new ImportJob(m.settings, call, (progress) => post({ type: 'progress', progress }));
      job.check().then((preview) => post({ type: 'preview', preview }), fail);
      return;
    case 'write':
      job?.write(m.batchSize).then((outcome) => post({ type: 'outcome', outcome }), fail);
      return;
    case 'stop':
      job?.requestStop();
  }
};
