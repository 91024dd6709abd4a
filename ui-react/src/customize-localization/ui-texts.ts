import { catalogueOf, en, isMessageKey, METADATA_LANGUAGE, type Language, type LocalizeRecord, type MessageKey } from '@tessera/core/internal';

/**
 * The organization's own wording of the built-in texts (the catalogue of core/src/i18n): an
 * inu_localize record named `ui.{key}` (`ui.CmdSave`) in a language replaces the catalogue's text
 * of that key in that language (docs/ui.md "Localization editor"). The prefix keeps these keys
 * apart from the metadata's (`account`, `view.account.active`...), which name entities first.
 */
export const UI_TEXT_PREFIX = 'ui.';

export const uiTextKey = (key: MessageKey): string => `${UI_TEXT_PREFIX}${key}`;

/** The catalogue key an inu_localize name overrides, if it is one. */
export const messageKeyOfName = (name: string): MessageKey | undefined => {
  if (!name.startsWith(UI_TEXT_PREFIX)) return undefined;
  const key = name.slice(UI_TEXT_PREFIX.length);
  return isMessageKey(key) && isOverridable(key) ? key : undefined;
};

/**
 * Texts with a count keep the plural forms of the catalogue (1 záznam, 2 záznamy, 5 záznamov):
 * one record holds one text, so only plain texts can be reworded.
 */
export const isOverridable = (key: MessageKey): boolean => typeof en[key] === 'string';

/** The built-in text of a key in a language, if the catalogue has a plain one (no English fallback). */
export const builtInText = (lang: Language, key: MessageKey): string | undefined => {
  const m = (catalogueOf(lang) as Record<string, unknown>)[key];
  return typeof m === 'string' ? m : undefined;
};

/** Every catalogue key an organization may reword, in catalogue order. */
export const overridableKeys = (): MessageKey[] => (Object.keys(en) as MessageKey[]).filter(isOverridable);

/**
 * The overrides of the catalogue for a language, from the records of the spec's fetch
 * (`lang in (en, chosen)`): the chosen language's record wins; an English record applies only
 * where the language's catalogue has no text of its own (where the catalogue would fall back to
 * English too), so rewording an English text never hides the built-in Slovak one. An empty text
 * is no override.
 */
export const uiTextOverrides = (records: readonly LocalizeRecord[], lang: Language): Map<MessageKey, string> => {
  const out = new Map<MessageKey, string>();
  const put = (wanted: string, applies: (k: MessageKey) => boolean) => {
    for (const r of records) {
      if (r.lang !== wanted || typeof r.name !== 'string' || typeof r.text !== 'string' || r.text === '') continue;
      const key = messageKeyOfName(r.name);
      if (key !== undefined && applies(key)) out.set(key, r.text);
    }
  };
  put(METADATA_LANGUAGE, (k) => lang === METADATA_LANGUAGE || builtInText(lang, k) === undefined);
  if (lang !== METADATA_LANGUAGE) put(lang, () => true);
  return out;
};
