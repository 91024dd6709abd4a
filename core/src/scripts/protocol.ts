import * as t from 'io-ts';
import type { Either } from 'fp-ts/lib/Either.js';
import { decode } from '../decode.js';
import type { InputError } from '../errors.js';
import { FetchRequest } from '../query/query.js';
import { WriteItemCodec } from '../api/records.js';
import { WireRecord } from '../api/text-fields.js';

/**
 * The message protocol between the page and a script's sandbox (issue 16, "Scripts in the
 * browser"). The sandbox (a dedicated Web Worker) holds a copy of the record and answers once
 * with `done` or `failed`; everything else it wants (reading or writing records, dialogs,
 * navigation) is a `call` the page answers with a `reply`. The page decodes every message of
 * the sandbox with these codecs: a script is untrusted code, its messages untrusted data.
 */

/** What started a script: a form event, a command, or a list / dashboard hook. */
export const SCRIPT_EVENTS = ['change', 'validate', 'postsave', 'command', 'customFetch', 'extraFetch', 'loader', 'wizardNext'] as const;
export const ScriptEvent = t.keyof(
  Object.fromEntries(SCRIPT_EVENTS.map((e) => [e, null])) as Record<(typeof SCRIPT_EVENTS)[number], null>,
  'ScriptEvent',
);
export type ScriptEvent = t.TypeOf<typeof ScriptEvent>;

/** Page -> sandbox: run the script with this context. */
export const RunMessage = t.type(
  {
    kind: t.literal('run'),
    /** the script's name, for its errors */
    script: t.string,
    event: ScriptEvent,
    entity: t.string,
    record: WireRecord,
    /** the fields changed since the last change event (change), or since load */
    changed: t.array(t.string),
    /** a command's selected records (a list command), or the form's record */
    selected: t.array(WireRecord),
    params: t.UnknownRecord,
  },
  'RunMessage',
);
export type RunMessage = t.TypeOf<typeof RunMessage>;

/** Page -> sandbox: the answer of a call. */
export const ReplyMessage = t.union(
  [
    t.type({ kind: t.literal('reply'), call: t.number, ok: t.literal(true), value: t.unknown }),
    t.type({ kind: t.literal('reply'), call: t.number, ok: t.literal(false), error: t.string }),
  ],
  'ReplyMessage',
);
export type ReplyMessage = t.TypeOf<typeof ReplyMessage>;

/** The kinds of a toast a script may show. */
export const ToastKind = t.keyof({ success: null, info: null, error: null }, 'ToastKind');
export type ToastKind = t.TypeOf<typeof ToastKind>;

/** A path inside this application: starts with one '/', never another origin or a `javascript:` URL. */
export const AppPath = new t.Type<string, string, unknown>(
  'AppPath',
  (u): u is string => typeof u === 'string' && /^\/(?![/\\])/.test(u) && u.length <= 2000,
  (u, c) => (typeof u === 'string' && /^\/(?![/\\])/.test(u) && u.length <= 2000 ? t.success(u) : t.failure(u, c)),
  t.identity,
);

/** A text a script shows: bounded so that a script cannot fill the screen with megabytes. */
export const SCRIPT_TEXT_MAX = 2000;
const ScriptText = new t.Type<string, string, unknown>(
  'ScriptText',
  (u): u is string => typeof u === 'string' && u.length <= SCRIPT_TEXT_MAX,
  (u, c) => (typeof u === 'string' ? t.success(u.slice(0, SCRIPT_TEXT_MAX)) : t.failure(u, c)),
  t.identity,
);

/**
 * Sandbox -> page: one call of the script API. `fetch`, `update` and `executeMultiple` go
 * through the user's own session, so the server's permission checks apply to them. Their
 * shapes are those of the server's trigger scripts (ports/script-sandbox.ts): `fetch(query)`,
 * `update({ operation, name, object })` answering `{ id }`, `executeMultiple(items)`.
 */
export const CallMessage = t.union(
  [
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('fetch'), args: t.tuple([FetchRequest]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('update'), args: t.tuple([WriteItemCodec]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('executeMultiple'), args: t.tuple([t.array(WriteItemCodec)]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('alert'), args: t.tuple([ScriptText]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('confirm'), args: t.tuple([ScriptText]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('toast'), args: t.union([t.tuple([ScriptText]), t.tuple([ScriptText, ToastKind])]) }),
    t.type({ kind: t.literal('call'), call: t.number, method: t.literal('navigate'), args: t.tuple([AppPath]) }),
  ],
  'CallMessage',
);
export type CallMessage = t.TypeOf<typeof CallMessage>;
export type ScriptMethod = CallMessage['method'];

/** Sandbox -> page: the script finished; `patch` are the fields it set, `veto` its veto message. */
export const DoneMessage = t.intersection(
  [t.type({ kind: t.literal('done'), patch: WireRecord }), t.partial({ veto: t.string, result: t.unknown })],
  'DoneMessage',
);
export type DoneMessage = t.TypeOf<typeof DoneMessage>;

/** Sandbox -> page: the script threw (or failed to compile); `stack` locates the line. */
export const FailedMessage = t.intersection(
  [t.type({ kind: t.literal('failed'), message: t.string }), t.partial({ stack: t.string, line: t.number })],
  'FailedMessage',
);
export type FailedMessage = t.TypeOf<typeof FailedMessage>;

export const SandboxMessage = t.union([CallMessage, DoneMessage, FailedMessage], 'SandboxMessage');
export type SandboxMessage = t.TypeOf<typeof SandboxMessage>;

/** Decodes a message of the sandbox; a Left is a protocol error the page reports as the script's. */
export const decodeSandboxMessage = (u: unknown): Either<InputError, SandboxMessage> => decode(SandboxMessage, u, 'script message');
