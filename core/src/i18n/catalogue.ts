import { en, type MessageKey } from './en.js';
import { sk } from './sk.js';
import { cz } from './cz.js';
import { de } from './de.js';
import { messageParts, pluralForm, type Message } from './plural.js';

export { en, type MessageKey } from './en.js';
export * from './plural.js';

/** The languages the catalogue holds (spec 002: en, sk, cz, de). */
export const CATALOGUE_LANGUAGES = ['en', 'sk', 'cz', 'de'] as const;
export type Language = (typeof CATALOGUE_LANGUAGES)[number];
/** The languages offered when the organization configures none (spec 000 section 4). */
export const DEFAULT_OFFERED_LANGUAGES: readonly Language[] = ['en', 'de', 'sk'];

/** A language's catalogue: every key, each a text or a plural form (see plural.ts). */
export type Catalogue = Readonly<Record<MessageKey, Message>>;

const catalogues: Record<Language, Catalogue> = { en, sk, cz, de };

/** The catalogue of a language (its entries, plural forms unresolved). */
export const catalogueOf = (lang: Language): Catalogue => catalogues[lang];

export const isLanguage = (s: string): s is Language => (CATALOGUE_LANGUAGES as readonly string[]).includes(s);

/** The Intl (BCP 47) locale of a catalogue language: the same code, except cz, whose standard code is cs. */
export const intlLocale = (lang: Language): string => (lang === 'cz' ? 'cs' : lang);

/** Maps a BCP 47 tag (`de-AT`, `cs`, `sk-SK`) to a catalogue language; Czech's standard code cs maps to cz. */
export const languageOfTag = (tag: string): Language | undefined => {
  const base = tag.toLowerCase().split(/[-_]/)[0] ?? '';
  const code = base === 'cs' ? 'cz' : base;
  return isLanguage(code) ? code : undefined;
};

/**
 * The language to use (spec 000 section 4): the stored choice, else the first browser language
 * that is offered, else en.
 */
export const chooseLanguage = (
  stored: string | null | undefined,
  browserTags: readonly string[],
  offered: readonly Language[] = DEFAULT_OFFERED_LANGUAGES,
): Language => {
  if (stored && isLanguage(stored) && offered.includes(stored)) return stored;
  for (const tag of browserTags) {
    const lang = languageOfTag(tag);
    if (lang && offered.includes(lang)) return lang;
  }
  return 'en';
};

/** Fills `{name}` placeholders; unknown placeholders are left as they are. */
export const fillPlaceholders = (text: string, params?: Record<string, string | number>): string =>
  params ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m)) : text;

/**
 * The text of a message in a language, with placeholders filled: each plural form picks the form
 * that language's plural rules select for its count parameter (1 záznam, 2 záznamy, 5 záznamov).
 */
export const formatMessage = (lang: Language, message: Message, params?: Record<string, string | number>): string =>
  fillPlaceholders(
    messageParts(message)
      .map((part) => (typeof part === 'string' ? part : pluralForm(intlLocale(lang), part, params)))
      .join(''),
    params,
  );

/** The text of a message key in a language (English when a language lacks it), with placeholders filled and plurals chosen. */
export const translate = (lang: Language, key: MessageKey, params?: Record<string, string | number>): string =>
  formatMessage(lang, catalogues[lang][key] ?? en[key], params);

/** Whether a string is a key of the catalogue (server texts may carry keys). */
export const isMessageKey = (s: string): s is MessageKey => s in en;

/** The message MsgRequiredFieldEmpty followed by each missing label on its own line with a dash (spec 001 section 5). */
export const requiredFieldsMessage = (lang: Language, labels: readonly string[]): string =>
  [translate(lang, 'MsgRequiredFieldEmpty'), ...labels.map((l) => `- ${l}`)].join('\n');
