/**
 * The script thread: runs one script at a time in a fresh QuickJS runtime (WebAssembly), with an
 * interrupt handler at the run's deadline and the runtime's memory limit. It sees only the global
 * `context` and the async API whose calls go to the main thread by message; an endless loop
 * spins here, never on the server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { getQuickJS, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { scriptFailure, type ScriptJson, type ScriptOutcome } from '@tessera/core/internal';
import { HOST_FUNCTIONS, type FromScriptThread, type ToScriptThread } from './quickjs-messages.js';

const port = parentPort;
if (!port) throw new Error('quickjs-worker runs as a worker thread');
const post = (m: FromScriptThread): void => port.postMessage(m);

/** The largest value a script passes to one API call (a query or a batch), as JSON text. */
const MAX_CALL_JSON = 1_000_000;
/** The script's source is the body of an async function; its line 1 is line 2 of the evaluated text. */
const PREAMBLE_LINES = 1;

type Run = {
  runId: number;
  name: string;
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
  deadline: number;
  pending: Map<number, QuickJSDeferredPromise>;
  main: QuickJSHandle | null;
  /** `JSON.stringify` and `JSON.parse` of the run's context, held for the run's length */
  json: QuickJSHandle | null;
  parse: QuickJSHandle | null;
  nextCall: number;
  ended: boolean;
};

let current: Run | null = null;

/** The line of the script where an error was raised, from QuickJS's stack (`at f (name:3)`). */
const lineOf = (stack: unknown, file: string): number | undefined => {
  if (typeof stack !== 'string') return undefined;
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  if (!m) return undefined;
  const line = Number(m[1]) - PREAMBLE_LINES;
  return line >= 1 ? line : undefined;
};

/** A dumped QuickJS error as an outcome: out of time, out of memory, a syntax error or a throw. */
const failureOf = (run: Run, error: unknown): ScriptOutcome => {
  if (error === null || error === undefined) return scriptFailure(run.name, 'memory', 'stopped: it used more than its memory limit');
  const e = (typeof error === 'object' ? error : { message: String(error) }) as { name?: unknown; message?: unknown; stack?: unknown };
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(error) ?? String(error);
  if (Date.now() > run.deadline || /interrupted/i.test(message)) return scriptFailure(run.name, 'timeout', 'stopped: it ran past its time limit');
  if (/out of memory/i.test(message) || error === null || error === undefined) return scriptFailure(run.name, 'memory', 'stopped: it used more than its memory limit');
  const line = lineOf(e.stack, fileOf(run)) ?? (typeof (e as { lineNumber?: unknown }).lineNumber === 'number' ? Number((e as { lineNumber: number }).lineNumber) - PREAMBLE_LINES : undefined);
  return scriptFailure(run.name, name === 'SyntaxError' ? 'syntax' : 'thrown', `${name}: ${message}`, line);
};

/** The file name QuickJS gives the script in its stack lines. */
const SCRIPT_FILE = 'script';
const fileOf = (_run: Run): string => SCRIPT_FILE;

/** A value of the script as JSON text (undefined as null); disposes what it made. */
const jsonText = (run: Run, value: QuickJSHandle): string => {
  const r = run.ctx.callFunction(run.json as QuickJSHandle, run.ctx.undefined, value);
  if (r.error) {
    r.error.dispose();
    return 'null';
  }
  const text = run.ctx.getString(r.value);
  r.value.dispose();
  return text;
};

const finish = (run: Run, outcome: ScriptOutcome): void => {
  if (run.ended) return;
  run.ended = true;
  current = null;
  post({ type: 'done', runId: run.runId, outcome });
  try {
    for (const d of run.pending.values()) d.dispose();
    run.main?.dispose();
    run.json?.dispose();
    run.parse?.dispose();
    run.ctx.dispose();
    run.rt.dispose();
  } catch {
    // A runtime stopped mid-allocation may not free cleanly; the next run makes a new one.
  }
};

/** Runs the jobs the last answer released, then ends the run if the script's promise settled. */
const advance = (run: Run): void => {
  if (run.ended || !run.main) return;
  const jobs = run.rt.executePendingJobs();
  if (jobs.error) {
    const err = run.ctx.dump(jobs.error);
    jobs.error.dispose();
    finish(run, failureOf(run, err));
    return;
  }
  const state = run.ctx.getPromiseState(run.main);
  if (state.type === 'fulfilled') {
    let value: ScriptJson = null;
    try {
      value = JSON.parse(jsonText(run, state.value)) as ScriptJson;
    } catch {
      value = null;
    }
    if (!state.notAPromise) state.value.dispose();
    finish(run, { _tag: 'ScriptCompleted', value });
  } else if (state.type === 'rejected') {
    const err = run.ctx.dump(state.error);
    state.error.dispose();
    finish(run, failureOf(run, err));
  } else if (run.pending.size === 0) {
    finish(run, scriptFailure(run.name, 'thrown', 'it awaits something that never happens'));
  }
};

const start = async (m: Extract<ToScriptThread, { type: 'run' }>): Promise<void> => {
  const QuickJS = await getQuickJS();
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(m.limits.memoryBytes);
  rt.setMaxStackSize(512 * 1024);
  const deadline = Date.now() + m.limits.timeMs;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  const run: Run = { runId: m.runId, name: m.name, rt, ctx, deadline, pending: new Map(), main: null, json: null, parse: null, nextCall: 1, ended: false };
  current = run;
  try {
    // The global `context` (a JSON copy) and the JSON helpers the host calls use.
    const helpers = ctx.evalCode(
      `globalThis.__json = (v) => JSON.stringify(v === undefined ? null : v); globalThis.__parse = (t) => JSON.parse(t); globalThis.context = JSON.parse(${JSON.stringify(JSON.stringify(m.input))});`,
    );
    if (helpers.error) {
      const err = ctx.dump(helpers.error);
      helpers.error.dispose();
      finish(run, failureOf(run, err));
      return;
    }
    helpers.value.dispose();
    run.json = ctx.getProp(ctx.global, '__json');
    run.parse = ctx.getProp(ctx.global, '__parse');
    for (const fn of HOST_FUNCTIONS) {
      const f = ctx.newFunction(fn, (argHandle) => {
        const d = ctx.newPromise();
        const text = jsonText(run, argHandle ?? ctx.undefined);
        if (text.length > MAX_CALL_JSON) {
          const e = ctx.newError(`${fn}: the value passed is larger than ${MAX_CALL_JSON} characters of JSON`);
          d.reject(e);
          e.dispose();
          return d.handle;
        }
        const callId = run.nextCall++;
        run.pending.set(callId, d);
        post({ type: 'call', runId: run.runId, callId, fn, arg: JSON.parse(text) as ScriptJson });
        return d.handle;
      });
      ctx.setProp(ctx.global, fn, f);
      f.dispose();
    }
    const result = ctx.evalCode(`(async () => {\n${m.source}\n})()`, fileOf(run));
    if (result.error) {
      const err = ctx.dump(result.error);
      result.error.dispose();
      finish(run, failureOf(run, err));
      return;
    }
    run.main = result.value;
    advance(run);
  } catch (e) {
    finish(run, scriptFailure(run.name, 'sandbox', e instanceof Error ? e.message : String(e)));
  }
};

const answer = (m: Extract<ToScriptThread, { type: 'answer' }>): void => {
  const run = current;
  if (!run || run.runId !== m.runId || run.ended) return;
  const d = run.pending.get(m.callId);
  if (!d) return;
  run.pending.delete(m.callId);
  try {
    if ('error' in m.answer) {
      const e = run.ctx.newError(m.answer.error);
      d.reject(e);
      e.dispose();
    } else {
      const text = run.ctx.newString(JSON.stringify(m.answer.value));
      const value = run.ctx.callFunction(run.parse as QuickJSHandle, run.ctx.undefined, text);
      text.dispose();
      if (value.error) {
        d.reject(value.error);
        value.error.dispose();
      } else {
        d.resolve(value.value);
        value.value.dispose();
      }
    }
    d.dispose();
    advance(run);
  } catch (e) {
    finish(run, scriptFailure(run.name, 'sandbox', e instanceof Error ? e.message : String(e)));
  }
};

// QuickJS is loaded before the first run, so a run's time limit counts the script only.
void getQuickJS().then(() => post({ type: 'ready' }));

port.on('message', (m: ToScriptThread) => {
  if (m.type === 'run') void start(m);
  else answer(m);
});
