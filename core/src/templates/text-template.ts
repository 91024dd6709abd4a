import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { TEMPLATE_ERRORS as E, templateError, type TemplateError } from './template-errors.js';

/**
 * The text template language (docs/templates.md has the grammar): plain text, placeholders
 * `{{path | filter:arg}}` and control statements `[if path]`, `[if not path]`, `[else]`,
 * `[each path]`, `[end]`. A backslash escapes `\ [ ] { }`. The parser keeps its own stack (no
 * recursion), so no template can overflow it; nesting deeper than MAX_TEMPLATE_DEPTH and sources
 * longer than MAX_TEMPLATE_CHARS are refused as 'Invalid template format'.
 */
export const MAX_TEMPLATE_CHARS = 200_000;
export const MAX_TEMPLATE_DEPTH = 16;
/** Largest text one evaluation writes: a template cannot make the server build gigabytes. */
export const MAX_OUTPUT_CHARS = 5_000_000;

export const TEMPLATE_FILTERS = ['money', 'number', 'date', 'datetime', 'upper', 'lower', 'sum', 'count', 'default'] as const;
export type TemplateFilterName = (typeof TEMPLATE_FILTERS)[number];
export type TemplateFilter = { readonly name: TemplateFilterName; readonly arg?: string };

export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'field'; readonly path: readonly string[]; readonly filters: readonly TemplateFilter[] }
  | { readonly kind: 'if'; readonly path: readonly string[]; readonly negate: boolean; readonly then: readonly TemplateNode[]; readonly otherwise: readonly TemplateNode[] }
  | { readonly kind: 'each'; readonly path: readonly string[]; readonly body: readonly TemplateNode[] };

export type TextTemplate = readonly TemplateNode[];

const ESCAPABLE = new Set(['\\', '[', ']', '{', '}']);
const PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const FILTER_SYNTAX = /^([a-z]+)(?::(.*))?$/;

/** Source text that renders to exactly `text` (the escaping round-trip of the fast-check property). */
export const escapeTemplateText = (text: string): string => text.replace(/[\\[\]{}]/g, (c) => `\\${c}`);

type Open =
  | { kind: 'root'; nodes: TemplateNode[] }
  | { kind: 'if'; at: number; path: string[]; negate: boolean; then: TemplateNode[]; otherwise: TemplateNode[] | null }
  | { kind: 'each'; at: number; path: string[]; body: TemplateNode[] };

const target = (o: Open): TemplateNode[] => (o.kind === 'root' ? o.nodes : o.kind === 'each' ? o.body : (o.otherwise ?? o.then));

const parsePath = (s: string): string[] | null => (PATH.test(s) ? s.split('.') : null);

const parsePlaceholder = (inner: string): { path: string[]; filters: TemplateFilter[] } | null => {
  const [head, ...rest] = inner.split('|').map((x) => x.trim());
  const path = parsePath(head);
  if (!path) return null;
  const filters: TemplateFilter[] = [];
  for (const f of rest) {
    const m = FILTER_SYNTAX.exec(f);
    if (!m || !(TEMPLATE_FILTERS as readonly string[]).includes(m[1])) return null;
    filters.push({ name: m[1] as TemplateFilterName, ...(m[2] !== undefined ? { arg: m[2].trim() } : {}) });
  }
  return { path, filters };
};

/** Parses a text template, or answers the first of the spec's template errors with its offset. */
export const parseTextTemplate = (source: string): Either<TemplateError, TextTemplate> => {
  if (source.length > MAX_TEMPLATE_CHARS) return left(templateError(E.invalidFormat, -1, `the template is longer than ${MAX_TEMPLATE_CHARS} characters`));
  const stack: Open[] = [{ kind: 'root', nodes: [] }];
  let text = '';
  const flush = () => {
    if (text) target(stack[stack.length - 1]).push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length && ESCAPABLE.has(source[i + 1])) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (c === '{' && source[i + 1] === '{') {
      const close = source.indexOf('}}', i + 2);
      const newline = source.indexOf('\n', i + 2);
      if (close < 0 || (newline >= 0 && newline < close)) return left(templateError(E.invalidFormattedText, i, 'a placeholder {{ has no }} on its line'));
      const p = parsePlaceholder(source.slice(i + 2, close));
      if (!p) return left(templateError(E.invalidFormattedText, i, `'${source.slice(i, close + 2)}' is not a field path with known filters`));
      flush();
      target(stack[stack.length - 1]).push({ kind: 'field', ...p });
      i = close + 2;
      continue;
    }
    if (c === '[') {
      const close = source.indexOf(']', i + 1);
      const newline = source.indexOf('\n', i + 1);
      if (close < 0 || (newline >= 0 && newline < close)) return left(templateError(E.notTerminated, i));
      const statement = source.slice(i + 1, close).trim();
      const [word, ...args] = statement.split(/\s+/);
      flush();
      const top = stack[stack.length - 1];
      if (word === 'end' && args.length === 0) {
        if (top.kind === 'root') return left(templateError(E.invalidEnd, i, 'no [if] or [each] is open'));
        stack.pop();
        target(stack[stack.length - 1]).push(
          top.kind === 'each'
            ? { kind: 'each', path: top.path, body: top.body }
            : { kind: 'if', path: top.path, negate: top.negate, then: top.then, otherwise: top.otherwise ?? [] },
        );
      } else if (word === 'else' && args.length === 0) {
        if (top.kind !== 'if' || top.otherwise !== null) return left(templateError(E.invalidFormat, i, '[else] belongs inside an [if]'));
        top.otherwise = [];
      } else if (word === 'if' || word === 'each') {
        const negate = word === 'if' && args[0] === 'not';
        const pathText = negate ? args.slice(1).join(' ') : args.join(' ');
        const path = parsePath(pathText);
        if (!path) return left(templateError(E.invalidFormat, i, `'[${statement}]' needs one field path`));
        if (stack.length > MAX_TEMPLATE_DEPTH) return left(templateError(E.invalidFormat, i, `statements nest deeper than ${MAX_TEMPLATE_DEPTH}`));
        stack.push(word === 'if' ? { kind: 'if', at: i, path, negate, then: [], otherwise: null } : { kind: 'each', at: i, path, body: [] });
      } else {
        return left(templateError(E.invalidFormat, i, `unknown statement '[${statement}]' (write \\[ for a bracket)`));
      }
      i = close + 1;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  if (stack.length > 1) {
    const open = stack[stack.length - 1];
    return left(templateError(E.notEnoughEnds, open.kind === 'root' ? -1 : open.at));
  }
  return right((stack[0] as { nodes: TemplateNode[] }).nodes);
};

/** How values print: the locale (BCP 47), the currency symbol of `money`, the time zone of `datetime` (a day prints as stored). */
export type TextFormat = { readonly locale: string; readonly currencySymbol: string; readonly timeZone: string };
export const DEFAULT_TEXT_FORMAT: TextFormat = { locale: 'sk-SK', currencySymbol: '€', timeZone: 'UTC' };

/** The number and date formats of the catalogue's languages; Slovak when none is given. */
const LOCALES: Readonly<Record<string, string>> = { sk: 'sk-SK', cz: 'cs-CZ', de: 'de-DE', en: 'en-GB' };
const knownZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
/** The reader's language and time zone (an unknown zone reads as UTC). */
export const textFormatFor = (language?: string, timeZone?: string): TextFormat => ({
  ...DEFAULT_TEXT_FORMAT,
  locale: (language && LOCALES[language]) || DEFAULT_TEXT_FORMAT.locale,
  timeZone: timeZone && knownZone(timeZone) ? timeZone : DEFAULT_TEXT_FORMAT.timeZone,
});

/** The values a template reads: the innermost scope first (an [each] item), then its parents. */
export type Scope = readonly unknown[];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A field's value: the first scope holding the path's first name, then its members. */
export const resolvePath = (scope: Scope, path: readonly string[]): unknown => {
  const holder = scope.find((s) => isObject(s) && path[0] in s);
  let v: unknown = holder === undefined ? undefined : (holder as Record<string, unknown>)[path[0]];
  for (const name of path.slice(1)) v = isObject(v) ? v[name] : undefined;
  return v;
};

/** A list to repeat: an array, or a JSON text of one (a travel report's legs_json). */
export const asList = (v: unknown): readonly unknown[] => {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string' && v.trimStart().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }
  return [];
};

const numberOf = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

const digits = (arg: string | undefined, fallback: number): number => {
  const n = arg === undefined ? fallback : Number(arg);
  return Number.isInteger(n) && n >= 0 && n <= 6 ? n : fallback;
};

const dateOf = (v: unknown): Date | null => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A value as text without filters: a lookup prints its label (its `name` is the target entity), a list its count, nothing prints empty. */
export const plainText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return String(v.length);
  if (isObject(v)) return typeof v.label === 'string' ? v.label : '';
  return '';
};

const applyFilter = (v: unknown, f: TemplateFilter, fmt: TextFormat): unknown => {
  switch (f.name) {
    case 'sum': {
      const list = asList(v);
      const field = f.arg ? parsePath(f.arg) : null;
      return list.reduce<number>((acc, item) => acc + (numberOf(field ? resolvePath([item], field) : item) ?? 0), 0);
    }
    case 'count':
      return asList(v).length;
    case 'default':
      return plainText(v) === '' ? (f.arg ?? '') : v;
    case 'upper':
      return plainText(v).toLocaleUpperCase(fmt.locale);
    case 'lower':
      return plainText(v).toLocaleLowerCase(fmt.locale);
    case 'number':
    case 'money': {
      const n = numberOf(v);
      if (n === null) return plainText(v);
      const d = digits(f.arg, f.name === 'money' ? 2 : 0);
      const s = new Intl.NumberFormat(fmt.locale, { minimumFractionDigits: d, maximumFractionDigits: d }).format(n);
      return f.name === 'money' ? `${s} ${fmt.currencySymbol}` : s;
    }
    case 'date':
    case 'datetime': {
      const d = dateOf(v);
      if (!d) return plainText(v);
      // A day (2026-11-05) is the same day everywhere; an instant shows in the reader's zone.
      return new Intl.DateTimeFormat(fmt.locale, {
        timeZone: f.name === 'datetime' && typeof v === 'string' && v.length > 10 ? fmt.timeZone : 'UTC',
        day: 'numeric',
        month: 'numeric',
        year: 'numeric',
        ...(f.name === 'datetime' ? { hour: '2-digit', minute: '2-digit' } : {}),
      }).format(d);
    }
  }
};

/** One placeholder's text: its value through its filters, left to right. */
export const fieldText = (scope: Scope, path: readonly string[], filters: readonly TemplateFilter[], fmt: TextFormat = DEFAULT_TEXT_FORMAT): string =>
  plainText(filters.reduce<unknown>((v, f) => applyFilter(v, f, fmt), resolvePath(scope, path)));

const truthy = (v: unknown): boolean =>
  Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v.trimStart().startsWith('[') ? asList(v).length > 0 : v !== null && v !== undefined && v !== false && v !== 0 && v !== '';

/**
 * Renders a parsed template over a scope. Every parsed template renders (a missing field prints
 * empty, a non-list repeats zero times); the only failure is an output over MAX_OUTPUT_CHARS.
 */
export const renderTextTemplate = (template: TextTemplate, scope: Scope, fmt: TextFormat = DEFAULT_TEXT_FORMAT, maxChars = MAX_OUTPUT_CHARS): Either<TemplateError, string> => {
  const parts: string[] = [];
  let size = 0;
  const put = (s: string): boolean => {
    size += s.length;
    parts.push(s);
    return size <= maxChars;
  };
  const run = (nodes: readonly TemplateNode[], sc: Scope): boolean => {
    for (const n of nodes) {
      switch (n.kind) {
        case 'text':
          if (!put(n.text)) return false;
          break;
        case 'field':
          if (!put(fieldText(sc, n.path, n.filters, fmt))) return false;
          break;
        case 'if':
          if (!run(truthy(resolvePath(sc, n.path)) !== n.negate ? n.then : n.otherwise, sc)) return false;
          break;
        case 'each': {
          const list = asList(resolvePath(sc, n.path));
          for (let k = 0; k < list.length; k++) if (!run(n.body, [{ $index: k + 1 }, list[k], ...sc])) return false;
          break;
        }
      }
    }
    return true;
  };
  return run(template, scope) ? right(parts.join('')) : left(templateError(E.invalidFormat, -1, `the document would be longer than ${maxChars} characters`));
};

/** Parse and render in one step (a cell, a line of a report template). */
export const fillTextTemplate = (source: string, scope: Scope, fmt: TextFormat = DEFAULT_TEXT_FORMAT): Either<TemplateError, string> => {
  const parsed = parseTextTemplate(source);
  return parsed._tag === 'Left' ? parsed : renderTextTemplate(parsed.right, scope, fmt);
};
