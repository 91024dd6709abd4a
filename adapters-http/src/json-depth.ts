/**
 * How deep a JSON text nests, read from its raw bytes before any parser or recursive code sees it
 * (issue 22 item 5: a body nested 5,000 deep overflowed the stack of JSON.stringify and answered
 * 500). One pass over the bytes, no recursion, no allocation: brackets inside strings do not count,
 * and UTF-8 continuation bytes never equal an ASCII bracket or quote. Invalid JSON is left to the
 * parser; this only answers whether the nesting goes beyond `max`.
 */

/** Deepest nesting of objects and arrays a JSON body may have (docs/api.md "Limits"). */
export const DEFAULT_JSON_MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Whether the quote at `q` is escaped: an odd run of backslashes stands before it. */
const escaped = (bytes: Uint8Array, q: number): boolean => {
  let n = 0;
  while (q - n - 1 >= 0 && bytes[q - n - 1] === BACKSLASH) n++;
  return n % 2 === 1;
};

/** Whether the JSON text in `bytes` opens more than `max` objects or arrays inside each other. */
export const jsonNestsDeeperThan = (bytes: Uint8Array, max: number): boolean => {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      // Strings are most of a body: jump to their closing quote with the native indexOf.
      let q = bytes.indexOf(QUOTE, i + 1);
      while (q !== -1 && escaped(bytes, q)) q = bytes.indexOf(QUOTE, q + 1);
      if (q === -1) return false;
      i = q;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
};

/** The error a body parser's `verify` throws for a body nested too deep: 400, type `entity.too.deep`. */
export class JsonTooDeep extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
  constructor(readonly limit: number) {
    super(`the body is nested deeper than ${limit} levels`);
  }
}

/** express.json's `verify` option: refuses a body nested deeper than `max` before it is parsed. */
export const verifyJsonDepth =
  (max: number) =>
  (_req: unknown, _res: unknown, body: Buffer): void => {
    if (jsonNestsDeeperThan(body, max)) throw new JsonTooDeep(max);
  };
