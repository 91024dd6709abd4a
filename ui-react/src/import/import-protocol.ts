import type { ImportOutcome } from '@tessera/core/internal';
import type { JobPreview, JobProgress, JobSettings, StoreAnswer, StoreCall } from './import-job.js';

/**
 * The messages between the page and the import worker (import.worker.ts). The worker asks the
 * page for each store call (the page holds the session and the API client) and reports progress;
 * the page answers, asks for the write, or asks it to stop after the current batch.
 */
export type ToWorker =
  | { type: 'check'; settings: JobSettings }
  | { type: 'write'; batchSize?: number }
  | { type: 'stop' }
  | { type: 'answer'; id: number; answer: StoreAnswer };

export type FromWorker =
  | { type: 'call'; id: number; call: StoreCall }
  | { type: 'progress'; progress: JobProgress }
  | { type: 'preview'; preview: JobPreview }
  | { type: 'outcome'; outcome: ImportOutcome }
  | { type: 'failed'; message: string };

/** What the page needs of a Worker (tests give an in-process one). */
export interface WorkerPort {
  postMessage(message: ToWorker): void;
  onmessage: ((e: { data: FromWorker }) => void) | null;
  terminate(): void;
}
