import { isLeft } from 'fp-ts/lib/Either.js';
import type { CallMessage, EntityRecord, RunMessage, ScriptEvent, ScriptFailure } from '../core.js';
import { decodeSandboxMessage, SCRIPT_TIME_LIMIT_MS, scriptLine } from '../core.js';
import { PRELUDE_LINES, sandboxSource } from './sandbox-source.js';

/**
 * Runs one script in its own sandbox (issue 16): a fresh dedicated Web Worker per run, the
 * messages of scripts/protocol.ts in between, and a time limit (default 5 s) after which the
 * worker is terminated. The clock stops while an alert or a confirm waits for the user: the
 * limit is on the script, not on the person reading. Every answer is a value, never a throw.
 */

/** The page's side of the script API: what the calls of the script do (scripts/script-host.ts). */
export type ScriptHost = {
  [M in CallMessage['method']]: (...args: Extract<CallMessage, { method: M }>['args']) => Promise<unknown>;
};

/** The worker seen by the runner, so the protocol is tested without a browser. */
export type Sandbox = {
  /** the URL the worker was loaded from: stack traces name it */
  url: string;
  post(message: RunMessage | { kind: 'reply'; call: number; ok: boolean; value?: unknown; error?: string }): void;
  onMessage(listener: (data: unknown) => void): void;
  /** an error outside the script's own try (a syntax error, a throw in a timer): message and line of the worker's file */
  onError(listener: (message: string, line: number | undefined) => void): void;
  terminate(): void;
};
export type SandboxFactory = (text: string) => Sandbox;

/** A dedicated Web Worker made from a Blob; its URL is revoked when it ends. */
export const workerSandbox: SandboxFactory = (text) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  const worker = new Worker(url, { name: 'tessera-script' });
  return {
    url,
    post: (m) => worker.postMessage(m),
    onMessage: (listener) => worker.addEventListener('message', (e) => listener(e.data)),
    onError: (listener) =>
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        listener(e.message || 'Error', e.lineno || undefined);
      }),
    terminate: () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
};

export type ScriptRun = {
  /** the script's name, which its errors quote */
  name: string;
  source: string;
  event: ScriptEvent;
  entity: string;
  record?: EntityRecord;
  changed?: readonly string[];
  selected?: readonly EntityRecord[];
  params?: Record<string, unknown>;
  timeLimitMs?: number;
};

export type ScriptResult =
  /** `patch`: the fields the script set; `result`: what it returned (JSON) */
  | { _tag: 'Completed'; patch: EntityRecord; result: unknown }
  | { _tag: 'Vetoed'; message: string; patch: EntityRecord }
  | ScriptFailure;

/** Calls during which the time limit waits: they wait for a person. */
const WAITS_FOR_USER: ReadonlySet<string> = new Set(['alert', 'confirm']);

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const runScript = (run: ScriptRun, host: ScriptHost, sandboxOf: SandboxFactory = workerSandbox): Promise<ScriptResult> =>
  new Promise((resolve) => {
    const limit = run.timeLimitMs ?? SCRIPT_TIME_LIMIT_MS;
    let sandbox: Sandbox;
    try {
      sandbox = sandboxOf(sandboxSource(run.source));
    } catch (e) {
      resolve({ _tag: 'ScriptProtocol', script: run.name, message: `the sandbox could not start: ${messageOf(e)}` });
      return;
    }
    let ended = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let left = limit;
    let startedAt = 0;
    let userWaits = 0;
    const end = (r: ScriptResult) => {
      if (ended) return;
      ended = true;
      if (timer) clearTimeout(timer);
      sandbox.terminate();
      resolve(r);
    };
    const resume = () => {
      startedAt = Date.now();
      timer = setTimeout(() => end({ _tag: 'ScriptTimedOut', script: run.name, seconds: Math.round(limit / 100) / 10 }), Math.max(0, left));
    };
    const pause = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      left -= Date.now() - startedAt;
    };
    const answer = async (m: CallMessage) => {
      const waits = WAITS_FOR_USER.has(m.method);
      if (waits && userWaits++ === 0) pause();
      try {
        const value = await (host[m.method] as (...a: unknown[]) => Promise<unknown>)(...m.args);
        if (!ended) sandbox.post({ kind: 'reply', call: m.call, ok: true, value: value === undefined ? null : value });
      } catch (e) {
        if (!ended) sandbox.post({ kind: 'reply', call: m.call, ok: false, error: messageOf(e) });
      } finally {
        if (waits && --userWaits === 0 && !ended) resume();
      }
    };
    sandbox.onMessage((data) => {
      if (ended) return;
      const m = decodeSandboxMessage(data);
      if (isLeft(m)) return end({ _tag: 'ScriptProtocol', script: run.name, message: m.left.message });
      const msg = m.right;
      if (msg.kind === 'call') void answer(msg);
      else if (msg.kind === 'failed') end({ _tag: 'ScriptThrew', script: run.name, message: msg.message, line: msg.stack ? scriptLine(msg.stack, sandbox.url, PRELUDE_LINES) : undefined });
      else if (msg.veto !== undefined) end({ _tag: 'Vetoed', message: msg.veto, patch: msg.patch });
      else end({ _tag: 'Completed', patch: msg.patch, result: msg.result });
    });
    sandbox.onError((message, line) =>
      end({ _tag: 'ScriptThrew', script: run.name, message: message.replace(/^Uncaught /, ''), line: line !== undefined && line > PRELUDE_LINES ? line - PRELUDE_LINES : undefined }),
    );
    resume();
    sandbox.post({
      kind: 'run',
      script: run.name,
      event: run.event,
      entity: run.entity,
      record: run.record ?? {},
      changed: [...(run.changed ?? [])],
      selected: [...(run.selected ?? [])],
      params: run.params ?? {},
    });
  });
