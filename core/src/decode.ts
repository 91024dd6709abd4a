import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from './errors.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting-depth.js';

const describe = (u: unknown): string => {
  if (u === undefined) return 'undefined';
  try {
    const s = JSON.stringify(u);
    return s.length > 60 ? `${s.slice(0, 57)}...` : s;
  } catch {
    return String(u);
  }
};

/**
 * One line per failure naming where it happened: the path of keys (with the `logicalName`
 * of entities and properties when the value has one), what was expected and what came.
 */
export const describeErrors = (errors: t.Errors): string[] =>
  errors.map((e) => {
    const path: string[] = [];
    e.context.forEach((c, i) => {
      if (i === 0) return;
      // Members of an intersection or union carry their index as key: not part of the data's path.
      // A recursive codec (t.recursion) or an exact one (t.exact) adds no entry of its own: look through it to its definition.
      const parent = e.context[i - 1].type as { _tag?: string; type?: { _tag?: string } };
      const parentTag = parent._tag === 'RecursiveType' || parent._tag === 'ExactType' ? parent.type?._tag : parent._tag;
      if (parentTag === 'IntersectionType' || parentTag === 'UnionType') return;
      const named = c.actual as { logicalName?: unknown } | undefined;
      const label = named && typeof named === 'object' && typeof named.logicalName === 'string' ? `(${named.logicalName})` : '';
      path.push(c.key + label);
    });
    const expected = e.context[e.context.length - 1]?.type.name ?? 'unknown';
    return `${path.join('.') || '(root)'}: expected ${expected}, got ${describe(e.value)}`;
  });

/**
 * Decode untrusted data once, at the edge; the failure names the path (which entity, which property).
 * Data nested deeper than MAX_NESTING_DEPTH is refused before any recursive codec walks it (issue 22).
 */
export const decode = <A, O>(codec: t.Type<A, O, unknown>, u: unknown, what = codec.name): Either<InputError, A> => {
  if (nestsDeeperThan(u, MAX_NESTING_DEPTH)) return left(inputError(`Invalid ${what}: nested deeper than ${MAX_NESTING_DEPTH} levels (limit maxNestingDepth)`));
  const r = codec.decode(u);
  if (isLeft(r)) {
    const lines = [...new Set(describeErrors(r.left))];
    return left(inputError(`Invalid ${what}: ${lines.slice(0, 5).join('; ')}`));
  }
  return right(r.right);
};
