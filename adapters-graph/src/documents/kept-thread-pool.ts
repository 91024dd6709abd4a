import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread from a module beside the caller: its compiled JavaScript when there is one, or
 * else (tests, `tsx` hosts) the TypeScript source through tsx's API, as the SQLite worker pool
 * loads its workers. `base` is the module's URL without its extension.
 */
export const workerOf = (base: URL): Worker => {
  const js = new URL(`${base.href}.js`);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const source = `${base.href}.ts`;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
};

export type KeptThreadPool = {
  /** A thread to work on (waits while `size` are busy); it keeps the process alive while taken. */
  take(): Promise<Worker>;
  /** Gives a thread back: kept for the next job when it ended cleanly (unref'd), else stopped. */
  giveBack(w: Worker, clean: boolean): Promise<void>;
};

/**
 * Threads drawing at once in this process, `size` at most; more jobs wait their turn (each keeps a
 * core busy, and a burst from many users must not start a thread each). A thread is kept once it
 * finished a job (its start-up, memory and parsed fonts are paid once) and does not keep the
 * process alive; a kept thread that dies later is simply forgotten. The PDF export and the
 * report documents each have a pool of their own.
 */
export const keptThreadPool = (newWorker: () => Worker, size: number): KeptThreadPool => {
  let running = 0;
  const queue: Array<() => void> = [];
  const idle: Worker[] = [];
  return {
    async take() {
      if (running >= size) await new Promise<void>((resolve) => queue.push(resolve));
      running++;
      const w = idle.pop() ?? newWorker();
      w.ref();
      return w;
    },
    async giveBack(w, clean) {
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
    },
  };
};
