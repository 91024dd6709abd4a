const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAIN = /^[0-9a-f]{32}$/i;

/** Spec 002 section 5: a UUID is 32 hex digits or the dashed form. */
export const isUuid = (s: string): boolean => DASHED.test(s) || PLAIN.test(s);

/** The canonical form the store keeps: lower-case and dashed; undefined when `s` is not a UUID. */
export const normalizeUuid = (s: string): string | undefined => {
  const t = s.trim();
  if (DASHED.test(t)) return t.toLowerCase();
  if (PLAIN.test(t)) {
    const h = t.toLowerCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return undefined;
};
