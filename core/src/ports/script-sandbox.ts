/**
 * The ScriptSandbox port (issue 16 "On the server"): runs the text of an administrator's script
 * where it can reach nothing but the small API it is given. Implementation: QuickJsScriptSandbox
 * (adapters-graph/src/scripts: QuickJS compiled to WebAssembly in a worker thread, with a time
 * and a memory limit; never Node's `vm`, which is no security boundary).
 *
 * Everything crossing the boundary is JSON: what the script passes to the host is untrusted and
 * is decoded by the use case behind `ScriptHost` (services/trigger-runs.ts). A bad script (syntax
 * error, a throw, an endless loop, a huge allocation) is an expected failure: a value naming the
 * script, never an exception and never a stopped or blocked server.
 */

/** A JSON value, the only thing that crosses the sandbox's boundary. */
export type ScriptJson = null | boolean | number | string | ScriptJson[] | { [key: string]: ScriptJson };

/**
 * The API a script calls, each an `async` function of the script (`await fetch(query)`), the same
 * names as the browser scripts' API. An answer of `{ error }` is thrown inside the script as an
 * Error with that text (a script may catch it).
 */
export type ScriptHost = {
  /** `fetch(query)`: a query object of /api/fetch; answers its FetchResult. */
  fetch(query: ScriptJson): Promise<ScriptCallAnswer>;
  /** `update(item)`: one `{ operation, name, object }` of /api/update; answers `{ id }`. */
  update(item: ScriptJson): Promise<ScriptCallAnswer>;
  /** `executeMultiple(items)`: items of /api/executemultiple (atomic); answers one result per item. */
  executeMultiple(items: ScriptJson): Promise<ScriptCallAnswer>;
};

export type ScriptCallAnswer = { value: ScriptJson } | { error: string };

export type ScriptLimits = {
  /** Wall time of the whole run, API calls included (default 5000 ms). */
  timeMs: number;
  /** Memory of the script's heap (default 32 MiB). */
  memoryBytes: number;
};

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { timeMs: 5_000, memoryBytes: 32 * 1024 * 1024 };

/** One run: the script's body is the body of an async function with `input` as the global `context`. */
export type ScriptRun = {
  /** How errors name the script, e.g. `trigger "Close won deals"`. */
  name: string;
  source: string;
  /** The global `context` the script reads (the record, the trigger, the operation). */
  input: ScriptJson;
  host: ScriptHost;
  limits?: Partial<ScriptLimits>;
};

/** Why a run failed: the script did not parse, threw, ran out of time or memory, or the sandbox broke. */
export type ScriptFailureReason = 'syntax' | 'thrown' | 'timeout' | 'memory' | 'sandbox';

export type ScriptOutcome =
  /** `value`: what the script returned (JSON; undefined as null). */
  | { _tag: 'ScriptCompleted'; value: ScriptJson }
  /** `message` names the script and, when known, the line: `trigger "X" line 3: Error: boom`. */
  | { _tag: 'ScriptFailed'; reason: ScriptFailureReason; message: string };

export interface ScriptSandbox {
  /** Runs one script to its end, its time limit or its memory limit; never rejects. */
  run(run: ScriptRun): Promise<ScriptOutcome>;
  /** Stops the sandbox's threads; runs still going end as failed. */
  close(): Promise<void>;
}

/** The failure text of a script: its name first, so a log row says which script failed. */
export const scriptFailure = (name: string, reason: ScriptFailureReason, detail: string, line?: number): ScriptOutcome => ({
  _tag: 'ScriptFailed',
  reason,
  message: `Script ${name}${line !== undefined ? ` line ${line}` : ''}: ${detail}`,
});
