/**
 * Texts that depend on a count (issue 12 point 10). Slovak and Czech have four plural forms
 * (1 záznam, 2 záznamy, 1,5 záznamu, 5 záznamov), English and German two; instead of writing
 * 'záznam(ov)', a catalogue entry holds one form per plural category of its language, and the
 * form is chosen by `Intl.PluralRules` (CLDR rules, built into every JS engine) for the number in
 * the named count parameter.
 */

/** A CLDR plural category ('zero' | 'one' | 'two' | 'few' | 'many' | 'other'). */
export type PluralCategory = Intl.LDMLPluralRule;

/** The categories Slovak and Czech use: one (1), few (2 to 4), many (fractions), other (0, 5 and up). */
export type WestSlavicPluralCategory = 'one' | 'few' | 'many' | 'other';
/** The categories English and German use: one (1), other. */
export type OneOtherPluralCategory = 'one' | 'other';

/**
 * One text per plural category, chosen by the number in the parameter `count` names. Every
 * language has 'other'; `C` names the categories a catalogue must give (so a Slovak entry without
 * 'few' does not compile); `Plural` alone is any plural form.
 */
export type Plural<C extends PluralCategory = never> = {
  readonly _tag: 'Plural';
  readonly count: string;
  readonly forms: Readonly<Record<C | 'other', string>> & Readonly<Partial<Record<PluralCategory, string>>>;
};

/**
 * A catalogue entry: a plain text, a plural form, or, for a sentence with two counts (the import
 * confirmation), a sequence of both, joined without separators.
 */
export type Message<C extends PluralCategory = never> = string | Plural<C> | readonly (string | Plural<C>)[];

/**
 * A plural form over the parameter `count` (e.g. 'n'): `plural('n', { one: '{n} record', other: '{n} records' })`.
 * The forms keep their `{placeholders}`; the chosen one is filled like any text.
 */
export const plural = <C extends PluralCategory>(
  count: string,
  forms: Readonly<Record<C | 'other', string>>,
): Plural<C> => ({
  _tag: 'Plural',
  count,
  forms,
});

export const isPlural = (m: unknown): m is Plural =>
  typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { _tag?: unknown })._tag === 'Plural';

/** The parts of a message: one for a text or a plural form, several for a sequence. */
export const messageParts = (m: Message): readonly (string | Plural)[] =>
  typeof m === 'string' || isPlural(m) ? [m] : m;

const rulesByLocale = new Map<string, Intl.PluralRules>();

/** The cardinal plural rules of an Intl locale (cached: building them is the slow part). */
export const pluralRules = (locale: string): Intl.PluralRules => {
  let rules = rulesByLocale.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return rules;
};

/** The number a parameter holds: numbers as they are, numeric strings ('3') read; anything else is not a count. */
const countOf = (value: string | number | undefined): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The form of a plural for the count in `params`: the category `Intl.PluralRules(locale)` selects,
 * else 'other' (a missing or non-numeric count, or an English fallback asked for 'few').
 */
export const pluralForm = (locale: string, p: Plural, params?: Record<string, string | number>): string => {
  const n = countOf(params?.[p.count]);
  const category = n === undefined ? 'other' : pluralRules(locale).select(n);
  return p.forms[category] ?? p.forms.other;
};
