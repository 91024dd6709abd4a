import type { Condition, ConditionValue, FetchRequest, Filter, Link } from './query.js';

/** A replacement value for a `{{name}}` placeholder; undefined, null and '' count as empty. */
export type PlaceholderValue = string | number | boolean | null | undefined;
export type PlaceholderValues = Readonly<Record<string, PlaceholderValue>>;

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]+?)\s*\}\}$/;

const isEmpty = (v: PlaceholderValue): v is null | undefined | '' => v === undefined || v === null || v === '';

/** The placeholder names a text uses, in order of appearance. */
export const placeholderNames = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);

type Replaced = { value: string | number | boolean; empty: false } | { empty: true };

/** A whole-value placeholder keeps the replacement's type (a number stays a number); an embedded one is spliced as text. */
const replaceScalar = (value: string | number | boolean, values: PlaceholderValues): Replaced => {
  if (typeof value !== 'string') return { value, empty: false };
  const whole = WHOLE.exec(value);
  if (whole !== null) {
    const r = values[whole[1]];
    return isEmpty(r) ? { empty: true } : { value: r, empty: false };
  }
  let empty = false;
  const text = value.replace(PLACEHOLDER, (_, name: string) => {
    const r = values[name];
    if (isEmpty(r)) {
      empty = true;
      return '';
    }
    return String(r);
  });
  return empty ? { empty: true } : { value: text, empty: false };
};

/**
 * Replaces the `{{name}}` placeholders of one condition (spec 000 section 7). When any placeholder
 * of it has an empty (or missing) replacement, the operator becomes `null` and the value is dropped:
 * "owner is {{userid}}" without a user means "owner is empty", never "any owner".
 */
export const replaceConditionPlaceholders = (c: Condition, values: PlaceholderValues): Condition => {
  const v: ConditionValue | undefined = c.value;
  if (v === undefined || v === null) return c;
  const nulled = (): Condition => {
    const { value: _dropped, ...rest } = c;
    return { ...rest, operator: 'null' };
  };
  if (Array.isArray(v)) {
    const out: Array<string | number | boolean> = [];
    for (const item of v) {
      const r = replaceScalar(item, values);
      if (r.empty) return nulled();
      out.push(r.value);
    }
    return { ...c, value: out };
  }
  const r = replaceScalar(v, values);
  return r.empty ? nulled() : { ...c, value: r.value };
};

/** Replaces placeholders in every condition of a filter and its nested filters. */
export const replaceFilterPlaceholders = (f: Filter, values: PlaceholderValues): Filter => ({
  ...f,
  ...(f.conditions === undefined ? {} : { conditions: f.conditions.map((c) => replaceConditionPlaceholders(c, values)) }),
  ...(f.filters === undefined ? {} : { filters: f.filters.map((n) => replaceFilterPlaceholders(n, values)) }),
});

/** Replaces placeholders in a link's filter and its nested links. */
export const replaceLinkPlaceholders = (l: Link, values: PlaceholderValues): Link => ({
  ...l,
  ...(l.filter === undefined ? {} : { filter: replaceFilterPlaceholders(l.filter, values) }),
  ...(l.links === undefined ? {} : { links: l.links.map((n) => replaceLinkPlaceholders(n, values)) }),
});

/** Replaces placeholders in a whole query: the entity filter and every link's filter. */
export const replaceFetchPlaceholders = (q: FetchRequest, values: PlaceholderValues): FetchRequest => ({
  ...q,
  entity: {
    ...q.entity,
    ...(q.entity.filter === undefined ? {} : { filter: replaceFilterPlaceholders(q.entity.filter, values) }),
    ...(q.entity.links === undefined ? {} : { links: q.entity.links.map((l) => replaceLinkPlaceholders(l, values)) }),
  },
});
