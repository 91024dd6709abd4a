import { Router, type Request, type RequestHandler, type Response } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { decode, type CallContract } from '@tessera/core/internal';
import { sendDomainError } from './http-errors.js';

/** What a call does with its decoded input: map it to one service call and the answer. */
export type Handler<I> = (input: I, req: Request, res: Response) => Promise<void> | void;

/** A call of the route table with its handler, ready to mount. */
export type Route = {
  readonly contract: CallContract;
  readonly before: readonly RequestHandler[];
  readonly handle: RequestHandler;
};

/** The path of a call under its router (mounted at /api or /auth): `{org}` becomes Express's `:org`. */
export const mountPath = (path: string): string => path.replace(/^\/(api|auth)(?=\/)/, '').replace(/\{(\w+)\}/g, ':$1');

/** The raw input of a call: the parsed body (an absent one reads as {}), the query string, or nothing. */
const rawInput = (contract: CallContract, req: Request): unknown =>
  contract.input === 'json' || contract.input === 'form'
    ? (req.body ?? {})
    : contract.input === 'query'
      ? req.query
      : undefined;

/**
 * Binds a handler to a call of the contract (core/src/api): the request is decoded with the
 * call's codec, or answered `400 ERR_INPUT: Invalid {what}: {path}: expected ...` (text/plain)
 * without reaching the handler. `before` runs first (a body parser of its own, for instance).
 */
export const route = <I, A>(contract: CallContract<I, A>, handler: Handler<I>, ...before: RequestHandler[]): Route => ({
  contract: contract as CallContract,
  before,
  handle: async (req, res) => {
    const input = decode(contract.request, rawInput(contract as CallContract, req), contract.what);
    if (isLeft(input)) return sendDomainError(res, input.left);
    await handler(input.right, req, res);
  },
});

/**
 * One router for a list of routes, each mounted the same way: the session guard goes in front of
 * every call the contract marks as needing a session (a route table entry without a guard is a bug).
 */
export const routerOf = (guard: RequestHandler | null, routes: readonly Route[]): Router => {
  const r = Router();
  for (const x of routes) {
    if (x.contract.session && !guard)
      throw new Error(`${x.contract.method} ${x.contract.path} needs the session guard`);
    const chain = [...(x.contract.session && guard ? [guard] : []), ...x.before, x.handle];
    if (x.contract.method === 'GET') r.get(mountPath(x.contract.path), ...chain);
    else r.post(mountPath(x.contract.path), ...chain);
  }
  return r;
};

/** A JSON answer, typed and encoded by the call's answer codec. */
export const sendAnswer = <A>(res: Response, contract: { readonly answer: t.Encoder<A, unknown> }, answer: A): void => {
  res.json(contract.answer.encode(answer));
};
