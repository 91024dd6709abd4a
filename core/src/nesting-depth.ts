/**
 * How deep a decoded value nests (issue 22 item 5). Untrusted data is decoded by recursive codecs
 * (io-ts, t.recursion for filters and links) and shown with JSON.stringify: a value nested some
 * thousands deep overflows the stack in either. The edge refuses it first with this walk, which
 * keeps its own stack instead of recursing, so no depth can overflow it.
 */

/** Deepest nesting of objects and arrays the core decodes (the HTTP body limit is the same). */
export const MAX_NESTING_DEPTH = 64;

/** Whether `value` holds objects or arrays more than `max` levels inside each other. */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
};
