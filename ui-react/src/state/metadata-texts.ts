import { useEffect } from 'react';
import { isLanguage, localizedTextsOf, MAX_PAGE_SIZE, METADATA_LANGUAGE, type FetchRequest, type LocalizeRecord } from '../core.js';
import type { ApiClient } from '../api/client.js';
import { uiTextOverrides } from '../customize-localization/ui-texts.js';
import { textOverrides } from '../i18n.js';
import { objectChangedEvent } from './realtime.js';
import { METADATA_TEXTS_KEY, setMetadataTexts, storedMetadataTexts, type StoredMetadataTexts } from './session.js';

const LOCALIZE_ENTITY = 'inu_localize';
/** More than any organization translates; the fetch is one page. */
const PAGE_SIZE = MAX_PAGE_SIZE;
/** Only the answer of the latest request is shown (the language may change again meanwhile). */
let latest = 0;

/** Spec 002 section 7: inu_localize where lang is en and the chosen language, ordered by name. */
export const localizeQuery = (lang: string): FetchRequest => ({
  entity: {
    name: LOCALIZE_ENTITY,
    attributes: [{ attribute: 'name' }, { attribute: 'lang' }, { attribute: 'text' }],
    filter: { conditions: [{ attribute: 'lang', operator: 'in', value: lang === METADATA_LANGUAGE ? [lang] : [METADATA_LANGUAGE, lang] }] },
    orders: [{ attribute: 'name' }],
  },
  page: 1,
  pageSize: PAGE_SIZE,
});

/**
 * Loads the metadata translations of a language and shows them. The tab keeps the last ones
 * (per token and language), so a reload shows them at once; a failed fetch (no read right on
 * inu_localize, offline) leaves the metadata's own texts.
 */
export const loadMetadataTexts = async (api: ApiClient, lang: string): Promise<void> => {
  const mine = ++latest;
  const token = api.token ?? '';
  const known = storedMetadataTexts(token, lang);
  if (known) setMetadataTexts(known);
  try {
    const result = await api.fetch(localizeQuery(lang));
    if (mine !== latest) return;
    const texts = localizedTextsOf(result.records as LocalizeRecord[], lang);
    setMetadataTexts(texts);
    // The same records reword the catalogue's texts (`ui.{key}`; docs/ui.md "Localization editor").
    textOverrides.value = isLanguage(lang) ? uiTextOverrides(result.records as LocalizeRecord[], lang) : new Map();
    try {
      sessionStorage.setItem(METADATA_TEXTS_KEY, JSON.stringify({ token, lang, texts: [...texts] } satisfies StoredMetadataTexts));
    } catch {
      /* storage full or disabled: the next page load fetches again */
    }
  } catch {
    if (!known && mine === latest) setMetadataTexts(new Map());
    if (mine === latest) textOverrides.value = new Map();
  }
};

/** Loads the translations after sign-in and whenever the language or the user changes. */
export const useMetadataTexts = (api: ApiClient, lang: string, userId: string): void => {
  useEffect(() => {
    void loadMetadataTexts(api, lang);
    // A saved translation (the localization editor, here or in another tab) shows at once.
    const onChange = () => void loadMetadataTexts(api, lang);
    window.addEventListener(objectChangedEvent(LOCALIZE_ENTITY), onChange);
    return () => window.removeEventListener(objectChangedEvent(LOCALIZE_ENTITY), onChange);
  }, [api, lang, userId]);
};
