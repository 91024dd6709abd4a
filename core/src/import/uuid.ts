import { normalizeUuid } from '../metadata/field-values.js';

/** Spec 002 section 5: a UUID is 32 hex digits or the dashed form. */
export const isUuid = (s: string): boolean => s.trim() === s && normalizeUuid(s) !== undefined;

/** The canonical form the store keeps: lower-case and dashed; undefined when `s` is not a UUID. */
export { normalizeUuid };
