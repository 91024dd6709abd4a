import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { chooseLanguage, fillPlaceholders, translate, DEFAULT_OFFERED_LANGUAGES, intlLocale, isLanguage, type Language, type MessageKey } from '@tessera/core/internal';
import { KEYS, local } from './state/storage.js';

/** The languages offered: the organization's configured list once the user context names one. */
export const offeredLanguages = signal<readonly Language[]>(DEFAULT_OFFERED_LANGUAGES);
/** Spec 000 section 4: the stored choice, else the browser's language when offered, else en. */
export const language = signal<Language>(chooseLanguage(local.get(KEYS.language), navigator.languages ?? [navigator.language]));

const applyLang = (lang: Language): void => {
  document.documentElement.lang = intlLocale(lang);
};
applyLang(language.value);

export const setLanguage = (lang: Language): void => {
  language.value = lang;
  local.set(KEYS.language, lang);
  applyLang(lang);
};

export const setOfferedLanguages = (langs: readonly string[] | undefined): void => {
  const list = (langs ?? []).filter(isLanguage);
  if (list.length === 0) return;
  offeredLanguages.value = list;
  language.value = chooseLanguage(local.get(KEYS.language), navigator.languages ?? [navigator.language], list);
  applyLang(language.value);
};

export type T = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * Every visible text goes through this: the catalogue of core/src/i18n in the current language.
 * A text with a count is given the count as a number (`t('MsgRecordCount', { n: rows.length })`):
 * the catalogue picks its plural form (1 záznam, 2 záznamy, 5 záznamov).
 */
export const t: T = (key, params) => {
  const own = textOverrides.value.get(key);
  return own === undefined ? translate(language.value, key, params) : fillPlaceholders(own, params);
};

/**
 * The organization's own wording of catalogue texts in the current language: inu_localize
 * records named `ui.{key}` (docs/ui.md "Localization editor"), loaded with the metadata's texts
 * (state/metadata-texts.ts). A key without one is the catalogue's.
 */
export const textOverrides = signal<ReadonlyMap<MessageKey, string>>(new Map());

/** A component hook: re-renders when the language or the organization's texts change. */
export const useT = (): T => {
  useSignals();
  void language.value;
  void textOverrides.value;
  return t;
};

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sk: 'Slovenčina', cz: 'Čeština', de: 'Deutsch' };
