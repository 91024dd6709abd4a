import type { Property } from './entity.js';

/**
 * Composed fields (docs/metadata.md "Composed fields"): a String property whose `formatString`
 * holds `{field}` placeholders, such as a contact's name `{firstname} {lastname}`, is filled by
 * the server from those fields whenever a write leaves it empty. Other format strings ('tags')
 * have no placeholder and are not templates.
 */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** A separator repeated around an empty field in the middle: `{a}, {b}, {c}` without b. */
const REPEATED = /([,;|/])(?:\s*\1)+/g;
/** Separators left dangling at either end when a field is empty: `{lastname}, {firstname}` without a first name. */
const DANGLING = /^[\s,;:|/–-]+|[\s,;:|/–-]+$/g;

/** The field names a template refers to, in order, without repeats. */
export const templateFields = (template: string): string[] => [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];

/** The template of a composed property, or undefined when the property is not composed. */
export const fieldTemplateOf = (p: Property): string | undefined =>
  p.type === 'String' && p.formatString !== undefined && templateFields(p.formatString).length > 0 ? p.formatString : undefined;

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/**
 * The template filled from a record: each placeholder by its field's value as text (empty when
 * absent, null or a lookup), runs of white space as one space, dangling separators trimmed.
 * Null when nothing is left; cut to `max` characters when given.
 */
export const composeField = (template: string, record: Readonly<Record<string, unknown>>, max?: number): string | null => {
  const filled = template
    .replace(PLACEHOLDER, (_, field: string) => text(record[field]))
    .replace(/\s+/g, ' ')
    .replace(REPEATED, '$1')
    .replace(DANGLING, '');
  if (filled === '') return null;
  return max !== undefined && filled.length > max ? filled.slice(0, max).trimEnd() : filled;
};
