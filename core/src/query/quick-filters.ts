import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { hasFlag, type Entity } from '../metadata/entity.js';
import type { FetchFragment } from '../metadata/form.js';
import type { QuickFilter, QuickFilterOptionValue } from '../metadata/view.js';
import { addDays, formatCivil, parseCivil, type CivilDate } from '../dates/civil.js';
import {
  ageBirthRange,
  checkDayFilterDate,
  civilRange,
  DateRangeOption,
} from '../dates/date-range.js';
import { checkTimeZone, civilDateOf, startOfDayInstant } from '../dates/zoned.js';
import type { Condition, EntityQuery, Filter, Link, Order } from './query.js';
import { replaceFilterPlaceholders, replaceLinkPlaceholders, type PlaceholderValues } from './placeholders.js';

/** A range input (daterange, dayrange: `YYYY-MM-DD` days, both ends included; numericrange: numbers). */
export type RangeSelection = { readonly from?: string | number | null; readonly to?: string | number | null };

/**
 * What the user chose in one quick filter: nothing (null), one option or input, several options
 * (a multiple pulldown selection), or a range.
 */
export type QuickFilterSelection = null | QuickFilterOptionValue | readonly QuickFilterOptionValue[] | RangeSelection;

export type QuickFilterContext = {
  /** The instant "today" is read from. */
  readonly reference: Date;
  /** The user's IANA time zone. */
  readonly timeZone: string;
  /** The listed entity: DateOnly properties are compared as `YYYY-MM-DD`, others as instants. */
  readonly entity?: Entity;
  /** Values for `{{name}}` placeholders (for example userid), plus `value` for custom filters. */
  readonly placeholders?: PlaceholderValues;
};

const isRange = (s: QuickFilterSelection): s is RangeSelection =>
  s !== null && typeof s === 'object' && !Array.isArray(s);

const blank = (v: unknown): boolean => v === undefined || v === null || v === '';

/** Whether a selection is empty: nothing chosen, an empty list, an empty input or a range with no end. */
export const isEmptySelection = (s: QuickFilterSelection | undefined): boolean => {
  if (s === undefined || s === null || s === '') return true;
  if (Array.isArray(s)) return s.length === 0;
  if (isRange(s as QuickFilterSelection)) return blank((s as RangeSelection).from) && blank((s as RangeSelection).to);
  return false;
};

/** The selection a filter starts with: initialOption, else defaultOption, else nothing. */
export const initialSelection = (def: QuickFilter): QuickFilterSelection => def.initialOption ?? def.defaultOption ?? null;

/** A mustSelect filter cannot be cleared: an empty selection falls back to its default option. */
export const effectiveSelection = (def: QuickFilter, selection: QuickFilterSelection | undefined): QuickFilterSelection => {
  if (isEmptySelection(selection)) return def.mustSelect === true && def.defaultOption !== undefined ? def.defaultOption : null;
  return selection ?? null;
};

/** Text and number filters apply only when the input length reaches minimumLength. */
export const reachesMinimumLength = (def: QuickFilter, input: string): boolean => input.trim().length >= (def.minimumLength ?? 0);

/** The options a pulldown shows: includedOptions (when given) minus excludedOptions, keys compared as text. */
export const visibleOptions = <O extends { value: QuickFilterOptionValue }>(def: QuickFilter, options: readonly O[]): O[] => {
  const included = def.includedOptions?.map(String);
  const excluded = new Set((def.excludedOptions ?? []).map(String));
  return options.filter((o) => (included === undefined || included.includes(String(o.value))) && !excluded.has(String(o.value)));
};

/** Filters with a permissions string are hidden when the user lacks the permission. */
export const visibleQuickFilters = (defs: readonly QuickFilter[], allowed: (permission: string) => boolean): QuickFilter[] =>
  defs.filter((d) => d.permissions === undefined || d.permissions === '' || allowed(d.permissions));

const and = (conditions: Condition[]): Filter => ({ type: 'and', conditions });
const or = (filters: Filter[]): Filter => (filters.length === 1 ? filters[0] : { type: 'or', filters });

const propertyOf = (def: QuickFilter): string => def.propertyName ?? (def.type === 'owner' ? 'ownerid' : def.name);

const isDateOnly = (def: QuickFilter, ctx: QuickFilterContext): boolean => {
  const p = ctx.entity?.properties.find((x) => x.logicalName === propertyOf(def));
  return p !== undefined && hasFlag(p, 'DateOnly');
};

/** A civil range as `ge from`, `lt to` conditions (either end may be open), as days for DateOnly fields and as instants otherwise. */
const civilRangeConditions = (
  def: QuickFilter,
  range: { readonly from?: CivilDate; readonly to?: CivilDate },
  ctx: QuickFilterContext,
): Condition[] => {
  const attribute = propertyOf(def);
  const dateOnly = isDateOnly(def, ctx);
  const value = (d: CivilDate): string => (dateOnly ? formatCivil(d) : startOfDayInstant(d, ctx.timeZone).toISOString());
  return [
    ...(range.from === undefined ? [] : [{ attribute, operator: 'ge' as const, value: value(range.from) }]),
    ...(range.to === undefined ? [] : [{ attribute, operator: 'lt' as const, value: value(range.to) }]),
  ];
};

const asList = (s: QuickFilterSelection): QuickFilterOptionValue[] =>
  Array.isArray(s) ? [...s] : s === null || isRange(s) ? [] : [s as QuickFilterOptionValue];

const keysCondition = (attribute: string, keys: QuickFilterOptionValue[]): Condition =>
  keys.length === 1 ? { attribute, operator: 'eq', value: keys[0] } : { attribute, operator: 'in', value: keys };

const parseDay = (v: string | number | null | undefined, check: boolean): E.Either<InputError, CivilDate | undefined> => {
  if (blank(v)) return E.right(undefined);
  const d = parseCivil(String(v));
  return check ? E.chain(checkDayFilterDate)(d) : d;
};

const dayRangeFilter = (def: QuickFilter, s: RangeSelection, ctx: QuickFilterContext, check: boolean): E.Either<InputError, Filter | null> => {
  const from = parseDay(s.from, check);
  if (E.isLeft(from)) return from;
  const to = parseDay(s.to, check);
  if (E.isLeft(to)) return to;
  if (from.right === undefined && to.right === undefined) return E.right(null);
  // Both ends are whole days and included: [from, to + 1 day).
  return E.right(and(civilRangeConditions(def, { from: from.right, to: to.right === undefined ? undefined : addDays(to.right, 1) }, ctx)));
};

const parseNumber = (v: string | number): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const text = v.trim().replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  return Number(text);
};

/** What one quick filter adds to a list query: a filter, plus the links and orders of its extraFetch or customFetch. */
export type QuickFilterFragment = { readonly filter: Filter; readonly links: readonly Link[]; readonly orders: readonly Order[] };

/**
 * The placeholders a filter's fetch may read: `{{now}}` (the reference instant, ISO) and `{{today}}`
 * (the user's local day, YYYY-MM-DD), then the caller's (userid...), then the filter's own value.
 */
const placeholdersOf = (ctx: QuickFilterContext, extra: PlaceholderValues = {}): PlaceholderValues => ({
  now: ctx.reference.toISOString(),
  today: formatCivil(civilDateOf(ctx.reference, ctx.timeZone)),
  ...(ctx.placeholders ?? {}),
  ...extra,
});

/** A fetch fragment with its placeholders replaced. */
const resolveFragment = (f: FetchFragment, values: PlaceholderValues): QuickFilterFragment => ({
  filter: f.filter === undefined ? {} : replaceFilterPlaceholders(f.filter, values),
  links: (f.links ?? []).map((l) => replaceLinkPlaceholders(l, values)),
  orders: f.orders ?? [],
});

/**
 * What one quick filter adds to the list query for a selection (spec 001 section 2), or null when
 * the filter is not active (empty selection, input shorter than minimumLength). mustSelect falls
 * back to the default option; extraFetch is added (and) whenever the filter is active; a custom
 * filter's customFetch takes the input as `{{value}}`.
 */
export const quickFilterToFragment = (
  def: QuickFilter,
  rawSelection: QuickFilterSelection | undefined,
  ctx: QuickFilterContext,
): E.Either<InputError, QuickFilterFragment | null> => {
  const tz = checkTimeZone(ctx.timeZone);
  if (E.isLeft(tz)) return tz;
  if (Number.isNaN(ctx.reference.getTime())) return E.left(inputError('Invalid reference date'));
  const selection = effectiveSelection(def, rawSelection);
  if (isEmptySelection(selection)) return E.right(null);
  const own = ownFragment(def, selection, ctx);
  if (E.isLeft(own) || own.right === null || def.extraFetch === undefined) return own;
  const extra = resolveFragment(def.extraFetch, placeholdersOf(ctx));
  return E.right({
    filter: { type: 'and', filters: [own.right.filter, extra.filter] },
    links: [...own.right.links, ...extra.links],
    orders: [...own.right.orders, ...extra.orders],
  });
};

const only = (filter: Filter | null): QuickFilterFragment | null => (filter === null ? null : { filter, links: [], orders: [] });

const ownFragment = (def: QuickFilter, selection: QuickFilterSelection, ctx: QuickFilterContext): E.Either<InputError, QuickFilterFragment | null> => {
  if (def.type === 'custom') {
    // One value: an option's (a number stays a number), the input, or the switch's "on".
    const raw = asList(selection)[0] ?? '';
    const input = String(raw);
    if (!reachesMinimumLength(def, input) || def.customFetch === undefined) return E.right(null);
    return E.right(resolveFragment(def.customFetch, placeholdersOf(ctx, { value: typeof raw === 'number' ? raw : input.trim() })));
  }
  return E.map(only)(ownFilter(def, selection, ctx));
};

const ownFilter = (def: QuickFilter, selection: QuickFilterSelection, ctx: QuickFilterContext): E.Either<InputError, Filter | null> => {
  const attribute = propertyOf(def);
  const today = civilDateOf(ctx.reference, ctx.timeZone);
  switch (def.type) {
    case 'options':
    case 'lookup':
    case 'owner': {
      // Keys may be placeholders such as {{userid}} (the owner filter's "me").
      const keys = asList(selection);
      return E.right(keys.length === 0 ? null : replaceFilterPlaceholders(and([keysCondition(attribute, keys)]), placeholdersOf(ctx)));
    }
    case 'date': {
      const keys = asList(selection);
      const filters: Filter[] = [];
      for (const k of keys) {
        const option = DateRangeOption.decode(k);
        if (E.isLeft(option)) return E.left(inputError(`Unknown date option: ${String(k)}`));
        filters.push(and(civilRangeConditions(def, civilRange(option.right, today), ctx)));
      }
      return E.right(filters.length === 0 ? null : or(filters));
    }
    case 'day': {
      if (!isRange(selection) && !Array.isArray(selection))
        return dayRangeFilter(def, { from: selection as QuickFilterOptionValue, to: selection as QuickFilterOptionValue }, ctx, true);
      return isRange(selection) ? dayRangeFilter(def, selection, ctx, true) : E.left(inputError('A day filter takes one day'));
    }
    case 'daterange':
    case 'dayrange':
      return isRange(selection)
        ? dayRangeFilter(def, selection, ctx, def.type === 'dayrange')
        : E.left(inputError('A range filter takes from and to'));
    case 'age': {
      const filters: Filter[] = [];
      for (const k of asList(selection)) {
        const range = ageBirthRange(Number(k), today);
        if (E.isLeft(range)) return range;
        filters.push(and(civilRangeConditions(def, range.right, ctx)));
      }
      return E.right(filters.length === 0 ? null : or(filters));
    }
    case 'number': {
      const input = String(asList(selection)[0] ?? '');
      if (!reachesMinimumLength(def, input)) return E.right(null);
      const n = parseNumber(input);
      return n === undefined ? E.left(inputError(`Not a number: ${input}`)) : E.right(and([{ attribute, operator: 'eq', value: n }]));
    }
    case 'numericrange': {
      if (!isRange(selection)) return E.left(inputError('A range filter takes from and to'));
      const conditions: Condition[] = [];
      for (const [end, operator] of [
        [selection.from, 'ge'],
        [selection.to, 'le'],
      ] as const) {
        if (blank(end)) continue;
        const n = parseNumber(end as string | number);
        if (n === undefined) return E.left(inputError(`Not a number: ${String(end)}`));
        conditions.push({ attribute, operator, value: n });
      }
      return E.right(and(conditions));
    }
    case 'text': {
      const input = String(asList(selection)[0] ?? '');
      if (!reachesMinimumLength(def, input)) return E.right(null);
      return E.right(and([{ attribute, operator: 'like', value: `%${input.trim()}%` }]));
    }
    case 'custom':
      return E.right(null);
  }
};

/** The outcome of a quick-filter bar: what to add to the query, or "no results" when a mandatory group has no active filter. */
export type QuickFilterOutcome =
  | { readonly _tag: 'Fetch'; readonly fragment: QuickFilterFragment }
  | { readonly _tag: 'NoResults'; readonly missingGroups: readonly string[] };

/**
 * The whole quick-filter bar as one fragment: the active filters and'ed together, their links and
 * orders appended. If any mandatory group has no active filter, the list returns nothing (spec 001
 * section 2).
 */
export const quickFiltersToFetch = (
  defs: readonly QuickFilter[],
  selections: Readonly<Record<string, QuickFilterSelection | undefined>>,
  ctx: QuickFilterContext,
): E.Either<InputError, QuickFilterOutcome> => {
  const active: QuickFilterFragment[] = [];
  const satisfied = new Set<string>();
  const groups = new Set<string>();
  for (const def of defs) {
    if (def.mandatoryGroup !== undefined && def.mandatoryGroup !== '') groups.add(def.mandatoryGroup);
    const f = quickFilterToFragment(def, selections[def.name], ctx);
    if (E.isLeft(f)) return f;
    if (f.right === null) continue;
    active.push(f.right);
    if (def.mandatoryGroup !== undefined) satisfied.add(def.mandatoryGroup);
  }
  const missingGroups = [...groups].filter((g) => !satisfied.has(g));
  if (missingGroups.length > 0) return E.right({ _tag: 'NoResults', missingGroups });
  return E.right({
    _tag: 'Fetch',
    fragment: {
      filter: { type: 'and', filters: active.map((a) => a.filter) },
      links: active.flatMap((a) => a.links),
      orders: active.flatMap((a) => a.orders),
    },
  });
};

/**
 * Why a filter's selection cannot be applied (a number filter given letters, a day outside 1801-2199),
 * per filter name: the bar shows it beside the input. Valid and empty selections are not listed.
 */
export const quickFilterErrors = (
  defs: readonly QuickFilter[],
  selections: Readonly<Record<string, QuickFilterSelection | undefined>>,
  ctx: QuickFilterContext,
): Record<string, string> =>
  Object.fromEntries(
    defs.flatMap((def) => {
      const f = quickFilterToFragment(def, selections[def.name], ctx);
      return E.isLeft(f) ? [[def.name, f.left.message]] : [];
    }),
  );

/** Adds a quick-filter fragment to a list query: its filter and'ed with the query's, its links and orders appended. */
export const applyQuickFilterFragment = (query: EntityQuery, fragment: QuickFilterFragment): EntityQuery => ({
  ...query,
  filter: query.filter === undefined ? fragment.filter : { type: 'and', filters: [query.filter, fragment.filter] },
  ...(fragment.links.length === 0 ? {} : { links: [...(query.links ?? []), ...fragment.links] }),
  ...(fragment.orders.length === 0 ? {} : { orders: [...(query.orders ?? []), ...fragment.orders] }),
});
