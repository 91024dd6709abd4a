import type { ScriptCallAnswer, ScriptJson, ScriptLimits, ScriptOutcome } from '@tessera/core/internal';

/** The names of the host API a script may call (ScriptHost's members). */
export type HostFunction = 'fetch' | 'update' | 'executeMultiple';
export const HOST_FUNCTIONS: readonly HostFunction[] = ['fetch', 'update', 'executeMultiple'];

/** To the script thread: start a run, or the host's answer to one of its calls. */
export type ToScriptThread =
  | { type: 'run'; runId: number; name: string; source: string; input: ScriptJson; limits: ScriptLimits }
  | { type: 'answer'; runId: number; callId: number; answer: ScriptCallAnswer };

/** From the script thread: a call of the host API, or the end of a run. */
export type FromScriptThread =
  /** the thread loaded QuickJS and takes runs */
  | { type: 'ready' }
  | { type: 'call'; runId: number; callId: number; fn: HostFunction; arg: ScriptJson }
  | { type: 'done'; runId: number; outcome: ScriptOutcome };
