import type * as t from 'io-ts';

/** Where a call's request codec reads its input. */
export type InputSource =
  /** the JSON body (application/json) */
  | 'json'
  /** the form body (application/x-www-form-urlencoded) */
  | 'form'
  /** the query string (GET calls; uploads, whose body is the raw file) */
  | 'query'
  /** nothing: the call takes no input */
  | 'none';

/** How the answer of a successful call is sent. */
export type AnswerKind = 'json' | 'text' | 'file' | 'event-stream' | 'redirect' | 'empty';

/**
 * One call of the HTTP contract (docs/api.md): what the server mounts and the client decodes
 * with. `what` names the input in ERR_INPUT texts ('Invalid {what}: {path}: expected ...').
 */
export type CallContract<I = unknown, A = unknown> = {
  readonly method: 'GET' | 'POST';
  /** As docs/api.md writes it: `/api/survey/{org}/{key}`. */
  readonly path: string;
  readonly input: InputSource;
  /** A signed-in session is required (401 NOT AUTHORIZED without one). */
  readonly session: boolean;
  readonly request: t.Type<I, unknown, unknown>;
  readonly answer: t.Type<A, unknown, unknown>;
  readonly answerKind: AnswerKind;
  readonly what: string;
  /** One line for the list of calls in docs/api.md. */
  readonly summary: string;
};

export type RequestOf<C> = C extends CallContract<infer I, unknown> ? I : never;
export type AnswerOf<C> = C extends CallContract<unknown, infer A> ? A : never;

/** Declares a call (the identity, typed). */
export const call = <I, A>(c: CallContract<I, A>): CallContract<I, A> => c;

/** The list line of a call in docs/api.md: `` `POST /api/fetch` `` then its summary. */
export const callLine = (c: CallContract): string => `- \`${c.method} ${c.path}\`${c.session ? ' (session)' : ''}: ${c.summary}`;
