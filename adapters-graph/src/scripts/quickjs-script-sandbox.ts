import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  DEFAULT_SCRIPT_LIMITS,
  scriptFailure,
  type ScriptCallAnswer,
  type ScriptLimits,
  type ScriptOutcome,
  type ScriptRun,
  type ScriptSandbox,
} from '@tessera/core/internal';
import type { FromScriptThread, ToScriptThread } from './quickjs-messages.js';

/**
 * The script thread: compiled JavaScript next to this file, or else (tests, `tsx` hosts) the
 * TypeScript source through tsx's API, as the PDF thread and the SQLite workers load theirs.
 */
const newWorker = (): Worker => {
  const js = new URL('./quickjs-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const source = new URL('./quickjs-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
};

export type QuickJsSandboxOptions = {
  /** Scripts run at once, one thread each (default 2: a script stuck to its limit leaves another thread for the rest). */
  threads?: number;
  /** Limits of a run that does not give its own. */
  limits?: Partial<ScriptLimits>;
  /**
   * Past its time limit a run gets this much more to end by its interrupt handler; then its
   * thread is terminated and replaced (a loop in WebAssembly that never reaches an interrupt
   * check, or a thread stuck growing memory).
   */
  graceMs?: number;
};

/** A thread and whether it loaded QuickJS (a run's timer starts once it did). */
type Slot = { worker: Worker; busy: boolean; ready: Promise<void> };
type Active = { run: ScriptRun; slot: Slot; resolve: (o: ScriptOutcome) => void; timer: NodeJS.Timeout };

/**
 * ScriptSandbox on QuickJS compiled to WebAssembly (quickjs-emscripten), in worker threads: an
 * endless loop or a huge allocation spins or fails there, not on the event loop that answers
 * requests. Each run gets a fresh QuickJS runtime with a memory limit and an interrupt handler at
 * its deadline; the main thread also holds a timer and terminates a thread that does not come
 * back. The script's API calls come here by message and go to the run's `ScriptHost`.
 */
export class QuickJsScriptSandbox implements ScriptSandbox {
  private readonly slots: Slot[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly active = new Map<number, Active>();
  private nextRun = 1;
  private closed = false;
  private readonly size: number;
  private readonly limits: ScriptLimits;
  private readonly graceMs: number;

  constructor(options: QuickJsSandboxOptions = {}) {
    this.size = Math.max(1, options.threads ?? 2);
    this.limits = { ...DEFAULT_SCRIPT_LIMITS, ...options.limits };
    this.graceMs = options.graceMs ?? 1_000;
  }

  async run(run: ScriptRun): Promise<ScriptOutcome> {
    if (this.closed) return scriptFailure(run.name, 'sandbox', 'the script sandbox is closed');
    const slot = await this.take().catch(() => null);
    if (this.closed || slot === null) return scriptFailure(run.name, 'sandbox', 'the script sandbox is closed');
    const limits: ScriptLimits = { ...this.limits, ...run.limits };
    slot.worker.ref();
    await slot.ready;
    const runId = this.nextRun++;
    return new Promise<ScriptOutcome>((resolve) => {
      const timer = setTimeout(() => {
        // The interrupt handler did not end it: the thread is lost, a new one takes its place.
        this.replace(slot);
        this.end(runId, scriptFailure(run.name, 'timeout', 'stopped: it ran past its time limit'));
      }, limits.timeMs + this.graceMs);
      timer.unref();
      this.active.set(runId, { run, slot, resolve, timer });
      const m: ToScriptThread = { type: 'run', runId, name: run.name, source: run.source, input: run.input, limits };
      slot.worker.postMessage(m);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [id, a] of this.active) this.end(id, scriptFailure(a.run.name, 'sandbox', 'the script sandbox was closed'));
    for (const w of this.waiting.splice(0)) w();
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private async take(): Promise<Slot> {
    for (;;) {
      const free = this.slots.find((s) => !s.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      if (this.slots.length < this.size) {
        const slot = this.spawn();
        slot.busy = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (this.closed) throw new Error('closed');
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: newWorker(), busy: false, ready: Promise.resolve() };
    this.attach(slot);
    this.slots.push(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    const w = slot.worker;
    w.unref();
    let ready = (): void => undefined;
    // A thread that never loads ends its wait at its exit or error (then `lost` replaces it).
    slot.ready = new Promise<void>((resolve) => (ready = resolve));
    w.on('message', (m: FromScriptThread) => (m.type === 'ready' ? ready() : this.onMessage(m)));
    w.on('exit', () => ready());
    w.on('error', () => this.lost(slot, 'its script thread failed'));
    w.on('exit', () => this.lost(slot, 'its script thread exited'));
  }

  /** A thread that died: its run fails, and the slot gets a new thread. */
  private lost(slot: Slot, why: string): void {
    if (this.closed || !this.slots.includes(slot)) return;
    for (const [id, a] of this.active) if (a.slot === slot) this.end(id, scriptFailure(a.run.name, 'sandbox', why));
    this.replace(slot);
  }

  private replace(slot: Slot): void {
    const old = slot.worker;
    old.removeAllListeners();
    old.on('error', () => undefined);
    void old.terminate();
    if (this.closed) return;
    slot.worker = newWorker();
    this.attach(slot);
  }

  private end(runId: number, outcome: ScriptOutcome): void {
    const a = this.active.get(runId);
    if (!a) return;
    this.active.delete(runId);
    clearTimeout(a.timer);
    a.slot.worker.unref();
    a.slot.busy = false;
    a.resolve(outcome);
    this.waiting.shift()?.();
  }

  private onMessage(m: Exclude<FromScriptThread, { type: 'ready' }>): void {
    const a = this.active.get(m.runId);
    if (!a) return;
    if (m.type === 'done') {
      // QuickJS out of memory can leave the WebAssembly module's state unusable: a new thread for the next run.
      if (m.outcome._tag === 'ScriptFailed' && (m.outcome.reason === 'memory' || m.outcome.reason === 'sandbox')) this.replace(a.slot);
      this.end(m.runId, m.outcome);
      return;
    }
    const host = a.run.host;
    const call = m.fn === 'fetch' ? host.fetch(m.arg) : m.fn === 'update' ? host.update(m.arg) : host.executeMultiple(m.arg);
    void call
      .catch((e: unknown): ScriptCallAnswer => ({ error: e instanceof Error ? e.message : String(e) }))
      .then((answer) => {
        if (!this.active.has(m.runId)) return;
        const reply: ToScriptThread = { type: 'answer', runId: m.runId, callId: m.callId, answer };
        a.slot.worker.postMessage(reply);
      });
  }
}
