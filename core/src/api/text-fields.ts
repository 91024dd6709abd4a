import * as t from 'io-ts';
import type { EntityRecord } from '../metadata/entity.js';

/**
 * A form field (or query parameter) read as text: absent, non-text and over-long values read as
 * ''. The sign-in forms must not tell one kind of wrong input from another (spec 000 section 8:
 * the same failure for every wrong credential), so their fields never fail to decode.
 */
export const formText = (max: number): t.Type<string, string, unknown> =>
  new t.Type<string, string, unknown>(
    `text(≤${max})`,
    (u): u is string => typeof u === 'string' && u.length <= max,
    (u) => t.success(typeof u === 'string' && u.length <= max ? u : ''),
    (a) => a,
  );

/** An optional query parameter: its text when given once, else undefined (never a failure). */
export const queryText = new t.Type<string | undefined, string | undefined, unknown>(
  'query text',
  (u): u is string | undefined => u === undefined || typeof u === 'string',
  (u) => t.success(typeof u === 'string' ? u : undefined),
  (a) => a,
);

/** A record on the wire: a JSON object. Its fields are checked against the metadata by the store. */
export const WireRecord = new t.Type<EntityRecord, EntityRecord, unknown>(
  'object',
  (u): u is EntityRecord => typeof u === 'object' && u !== null && !Array.isArray(u),
  (u, c) => (typeof u === 'object' && u !== null && !Array.isArray(u) ? t.success(u as EntityRecord) : t.failure(u, c)),
  (a) => a,
);

/** A call without a request body or query. */
export const NoInput = new t.Type<undefined, undefined, unknown>(
  'nothing',
  (u): u is undefined => u === undefined,
  () => t.success(undefined),
  () => undefined,
);

/** An answer the server sends as text/plain (ids, OK, WAIT, outcomes): any text. */
export const TextAnswer = t.string;
