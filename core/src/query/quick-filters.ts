import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { hasFlag, RichOption, type Entity } from '../metadata/entity.js';
import { addDays, formatCivil, parseCivil, type CivilDate } from '../dates/civil.js';
import {
  ageBirthRange,
  checkDayFilterDate,
  civilRange,
  DateRangeOption,
} from '../dates/date-range.js';
import { checkTimeZone, civilDateOf, startOfDayInstant } from '../dates/zoned.js';
import { Filter, type Condition } from './query.js';
import { replaceFilterPlaceholders, type PlaceholderValues } from './placeholders.js';

/** Quick filter types (spec 001 section 2, 002 section 5). */
export const QUICK_FILTER_TYPES = [
  'options',
  'date',
  'daterange',
  'day',
  'dayrange',
  'age',
  'lookup',
  'owner',
  'number',
  'numericrange',
  'text',
  'custom',
] as const;
export const QuickFilterType = t.keyof(
  Object.fromEntries(QUICK_FILTER_TYPES.map((o) => [o, null])) as Record<(typeof QUICK_FILTER_TYPES)[number], null>,
  'QuickFilterType',
);
export type QuickFilterType = t.TypeOf<typeof QuickFilterType>;

export const OptionKey = t.union([t.string, t.number], 'OptionKey');
export type OptionKey = t.TypeOf<typeof OptionKey>;

/** An option written into the quick filter itself; with a `filter`, choosing it applies that filter instead of `propertyName eq value`. */
export const DirectOption = t.intersection(
  [t.type({ value: OptionKey, label: t.string }), t.partial({ filter: Filter, icon: t.string, color: t.string })],
  'DirectOption',
);
export type DirectOption = t.TypeOf<typeof DirectOption>;

/** A quick filter definition with the fields of spec 001 section 2. */
export const QuickFilter = t.intersection(
  [
    t.type({ name: t.string, type: QuickFilterType }),
    t.partial({
      propertyName: t.string,
      label: t.string,
      icon: t.string,
      optionsFormat: t.keyof({ radio: null, select: null }),
      directOptions: t.array(DirectOption),
      richOptions: t.array(RichOption),
      includedOptions: t.array(OptionKey),
      excludedOptions: t.array(OptionKey),
      multiSelect: t.boolean,
      mustSelect: t.boolean,
      defaultOption: OptionKey,
      initialOption: OptionKey,
      mandatoryGroup: t.string,
      minimumLength: t.number,
      /** Added (and) to the query whenever this filter is active; placeholders as in customFetch. */
      extraFetch: Filter,
      /** For type custom: the filter applied, its `{{value}}` placeholder taking the input. */
      customFetch: Filter,
      /** A permission string `{entity};{level}[;allowNew]`; without it the filter is hidden. */
      permissions: t.string,
    }),
  ],
  'QuickFilter',
);
export type QuickFilter = t.TypeOf<typeof QuickFilter>;

/** A range input (daterange, dayrange: `YYYY-MM-DD` days, both ends included; numericrange: numbers). */
export type RangeSelection = { readonly from?: string | number | null; readonly to?: string | number | null };

/**
 * What the user chose in one quick filter: nothing (null), one option or input, several options
 * (a multiple pulldown selection), or a range.
 */
export type QuickFilterSelection = null | OptionKey | readonly OptionKey[] | RangeSelection;

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
export const visibleOptions = <O extends { value: OptionKey }>(def: QuickFilter, options: readonly O[]): O[] => {
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

const asList = (s: QuickFilterSelection): OptionKey[] =>
  Array.isArray(s) ? [...s] : s === null || isRange(s) ? [] : [s as OptionKey];

const keysCondition = (attribute: string, keys: OptionKey[]): Condition =>
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

/**
 * The filter one quick filter adds to the list query for a selection (spec 001 section 2), or
 * null when the filter is not active (empty selection, input shorter than minimumLength).
 * mustSelect falls back to the default option; extraFetch is added whenever the filter is active.
 */
export const quickFilterToFilter = (
  def: QuickFilter,
  rawSelection: QuickFilterSelection | undefined,
  ctx: QuickFilterContext,
): E.Either<InputError, Filter | null> => {
  const tz = checkTimeZone(ctx.timeZone);
  if (E.isLeft(tz)) return tz;
  const selection = effectiveSelection(def, rawSelection);
  if (isEmptySelection(selection)) return E.right(null);
  const own = ownFilter(def, selection, ctx);
  if (E.isLeft(own) || own.right === null || def.extraFetch === undefined) return own;
  const extra = replaceFilterPlaceholders(def.extraFetch, ctx.placeholders ?? {});
  return E.right({ type: 'and', filters: [own.right, extra] });
};

const ownFilter = (def: QuickFilter, selection: QuickFilterSelection, ctx: QuickFilterContext): E.Either<InputError, Filter | null> => {
  const attribute = propertyOf(def);
  const today = civilDateOf(ctx.reference, ctx.timeZone);
  switch (def.type) {
    case 'options':
    case 'lookup':
    case 'owner': {
      const keys = asList(selection);
      const direct = def.directOptions ?? [];
      const filters: Filter[] = [];
      const plain: OptionKey[] = [];
      for (const k of keys) {
        const d = direct.find((o) => String(o.value) === String(k));
        if (d?.filter !== undefined) filters.push(replaceFilterPlaceholders(d.filter, ctx.placeholders ?? {}));
        else plain.push(k);
      }
      if (plain.length > 0) filters.push(replaceFilterPlaceholders(and([keysCondition(attribute, plain)]), ctx.placeholders ?? {}));
      return E.right(filters.length === 0 ? null : or(filters));
    }
    case 'date': {
      const keys = asList(selection);
      const filters: Filter[] = [];
      for (const k of keys) {
        const direct = def.directOptions?.find((o) => String(o.value) === String(k));
        if (direct?.filter !== undefined) {
          filters.push(replaceFilterPlaceholders(direct.filter, ctx.placeholders ?? {}));
          continue;
        }
        const option = DateRangeOption.decode(k);
        if (E.isLeft(option)) return E.left(inputError(`Unknown date option: ${String(k)}`));
        filters.push(and(civilRangeConditions(def, civilRange(option.right, today), ctx)));
      }
      return E.right(filters.length === 0 ? null : or(filters));
    }
    case 'day': {
      if (!isRange(selection) && !Array.isArray(selection))
        return dayRangeFilter(def, { from: selection as OptionKey, to: selection as OptionKey }, ctx, true);
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
    case 'custom': {
      const input = String(asList(selection)[0] ?? '');
      if (!reachesMinimumLength(def, input) || def.customFetch === undefined) return E.right(null);
      return E.right(replaceFilterPlaceholders(def.customFetch, { ...(ctx.placeholders ?? {}), value: input }));
    }
  }
};

/** The outcome of a quick-filter bar: the filter to add, or "no results" when a mandatory group has no active filter. */
export type QuickFilterOutcome =
  | { readonly _tag: 'Filter'; readonly filter: Filter }
  | { readonly _tag: 'NoResults'; readonly missingGroups: readonly string[] };

/**
 * The whole quick-filter bar as one filter: the active filters and'ed together. If any mandatory
 * group has no active filter, the list returns nothing (spec 001 section 2).
 */
export const quickFiltersToFilter = (
  defs: readonly QuickFilter[],
  selections: Readonly<Record<string, QuickFilterSelection | undefined>>,
  ctx: QuickFilterContext,
): E.Either<InputError, QuickFilterOutcome> => {
  const active: Filter[] = [];
  const satisfied = new Set<string>();
  const groups = new Set<string>();
  for (const def of defs) {
    if (def.mandatoryGroup !== undefined && def.mandatoryGroup !== '') groups.add(def.mandatoryGroup);
    const f = quickFilterToFilter(def, selections[def.name], ctx);
    if (E.isLeft(f)) return f;
    if (f.right === null) continue;
    active.push(f.right);
    if (def.mandatoryGroup !== undefined) satisfied.add(def.mandatoryGroup);
  }
  const missingGroups = [...groups].filter((g) => !satisfied.has(g));
  if (missingGroups.length > 0) return E.right({ _tag: 'NoResults', missingGroups });
  return E.right({ _tag: 'Filter', filter: { type: 'and', filters: active } });
};
