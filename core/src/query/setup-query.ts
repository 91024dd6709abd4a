import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting-depth.js';
import { lineAndColumn } from '../templates/template-errors.js';
import { replaceFetchPlaceholders, type PlaceholderValues } from './placeholders.js';
import { FetchRequest } from './query.js';
import { validateQuery, type EntityLookup } from './validate-query.js';

/**
 * The Setup Query dialog (spec 002 section 2, issue 15): a fetch query edited as JSON text and
 * checked as typed with the query engine's own rules: the codec of `/api/fetch`, then
 * `validateQuery` against the organization's metadata. Every problem names where it is
 * (`entity.filter.conditions[1].attribute`), so an administrator finds it in a long query.
 */

/** The name of the exported file (spec 002 section 2: "export as fetch.json"). */
export const FETCH_FILE_NAME = 'fetch.json';

export type SetupQueryCheck =
  /** The text is not JSON: where the parser stopped (line and column from 1, when it says). */
  | { readonly _tag: 'Json'; readonly message: string; readonly line?: number; readonly column?: number }
  /** JSON, but not a query the server takes: the path of the part refused and why. */
  | { readonly _tag: 'Invalid'; readonly path: string; readonly message: string }
  | { readonly _tag: 'Valid'; readonly request: FetchRequest };

export type SetupQueryOptions = {
  /** The query must stay on this entity (a view's or an export's query cannot move to another). */
  readonly entity?: string;
  /** Values for `{{name}}` placeholders (userid, now, today); one without a value checks as empty. */
  readonly placeholders?: PlaceholderValues;
};

/** JSON.parse's complaint with the place it stopped: V8 says "at position N" (and newer ones "(line L column C)"). */
export const jsonProblem = (text: string, e: unknown): { _tag: 'Json'; message: string; line?: number; column?: number } => {
  const message = e instanceof Error ? e.message : String(e);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { _tag: 'Json', message, line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  if (pos) return { _tag: 'Json', message, ...lineAndColumn(text, Number(pos[1])) };
  return { _tag: 'Json', message };
};

/**
 * The path of the first codec failure, as the data reads (`entity.filter.conditions[0].operator`):
 * members of intersections and unions add no step of their own, array indexes are in brackets.
 */
export const codecErrorPath = (errors: t.Errors): string => {
  const e = errors[0];
  if (!e) return '';
  let path = '';
  e.context.forEach((c, i) => {
    if (i === 0) return;
    const parent = e.context[i - 1].type as { _tag?: string; type?: { _tag?: string } };
    const tag = parent._tag === 'RecursiveType' || parent._tag === 'ExactType' ? parent.type?._tag : parent._tag;
    if (tag === 'IntersectionType' || tag === 'UnionType') return;
    path += /^\d+$/.test(c.key) ? `[${c.key}]` : path === '' ? c.key : `.${c.key}`;
  });
  return path;
};

const describeValue = (u: unknown): string => {
  if (u === undefined) return 'nothing';
  const s = JSON.stringify(u) ?? String(u);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** Checks the text of a fetch query: JSON, the query codec, the entity, then the metadata. */
export const checkSetupQuery = (text: string, lookup: EntityLookup, options: SetupQueryOptions = {}): SetupQueryCheck => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return jsonProblem(text, e);
  }
  if (nestsDeeperThan(json, MAX_NESTING_DEPTH)) return { _tag: 'Invalid', path: '', message: `nested deeper than ${MAX_NESTING_DEPTH} levels` };
  const decoded = FetchRequest.decode(json);
  if (isLeft(decoded)) {
    const first = decoded.left[0];
    const expected = first?.context[first.context.length - 1]?.type.name ?? 'a query';
    return { _tag: 'Invalid', path: codecErrorPath(decoded.left), message: `expected ${expected}, got ${describeValue(first?.value)}` };
  }
  const request = decoded.right;
  if (options.entity !== undefined && request.entity.name !== options.entity) {
    return { _tag: 'Invalid', path: 'entity.name', message: `The query must stay on ${options.entity}` };
  }
  const trace = { at: '' };
  const resolved = replaceFetchPlaceholders(request, options.placeholders ?? {});
  const valid = validateQuery(resolved, lookup, { trace });
  if (isLeft(valid)) return { _tag: 'Invalid', path: trace.at, message: valid.left.message };
  return { _tag: 'Valid', request };
};

/** The text a query is shown and exported as: JSON indented by two spaces. */
export const setupQueryText = (request: FetchRequest): string => JSON.stringify(request, null, 2);
