import type { Container, ContainerModuleLoadOptions } from 'inversify';
import type { Token } from '@tessera/core/internal';

/**
 * Typed binding and resolution over inversify (ARCHITECTURE.md "Dependency injection"). A token
 * carries its port's type (core `Token<T>`), so a binding whose factory takes other ports is
 * checked against the tokens it names, and a resolution returns the bound type: no unchecked
 * `get<T>` anywhere in the composition roots.
 */
type Bind = ContainerModuleLoadOptions['bind'];

/** The types the tokens of a list name, in order. */
export type Resolved<D extends readonly Token<any>[]> = { [K in keyof D]: D[K] extends Token<infer T> ? T : never };

/** Binds `token` to what `factory` builds from the ports of `deps` (a singleton, built on first use). */
export const provide = <T, const D extends readonly Token<any>[]>(
  bind: Bind,
  token: Token<T>,
  deps: D,
  factory: (...args: Resolved<D>) => T,
): void => {
  bind<T>(token).toResolvedValue(factory as (...args: unknown[]) => T, [...deps] as never);
};

/** Binds `token` to a value made before the container. */
export const constant = <T>(bind: Bind, token: Token<T>, value: T): void => {
  bind<T>(token).toConstantValue(value);
};

/** The value bound to `token`. */
export const resolve = <T>(c: Container, token: Token<T>): T => c.get<T>(token);

/** Several values at once, by name: what a command needs, resolved at its start. */
export const resolveAll = <M extends Record<string, Token<any>>>(c: Container, tokens: M): { [K in keyof M]: M[K] extends Token<infer T> ? T : never } =>
  Object.fromEntries(Object.entries(tokens).map(([k, t]) => [k, c.get(t)])) as { [K in keyof M]: M[K] extends Token<infer T> ? T : never };
