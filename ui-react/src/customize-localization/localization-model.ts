import { batch, computed, signal } from '@preact/signals-react';
import { MAX_BATCH_SIZE, MAX_PAGE_SIZE, METADATA_LANGUAGE, type FetchRequest, type Language } from '@tessera/core/internal';
import type { ApiClient, ExecuteItem } from '../api/client.js';
import { failureMessage } from '../documents/print-model.js';
import { metadataTexts, type MetadataText } from './localizable-texts.js';
import { filterRows, textRows, writesOf, type FetchedText, type TextKind, type TextRow } from './localization-rows.js';

export const LOCALIZE_ENTITY = 'inu_localize';
/** Lines drawn at first and added by Show more: the whole list is thousands. */
export const PAGE_ROWS = 100;

export type LocalizationApi = Pick<ApiClient, 'fetch' | 'executeMultiple' | 'getUserContext'>;

/** Spec 002 section 7: inu_localize where lang is en and the chosen language, ordered by name (with the ids, to write them). */
export const editorQuery = (lang: Language, page: number): FetchRequest => ({
  entity: {
    name: LOCALIZE_ENTITY,
    attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'lang' }, { attribute: 'text' }],
    filter: { conditions: [{ attribute: 'lang', operator: 'in', value: lang === METADATA_LANGUAGE ? [lang] : [METADATA_LANGUAGE, lang] }] },
    orders: [{ attribute: 'name' }],
  },
  page,
  pageSize: MAX_PAGE_SIZE,
});

/**
 * The localization editor (/{appid}/customizelocalization, issue 15): the texts of the metadata
 * and of the built-in catalogue, English beside the chosen language, searched and filtered,
 * edited inline and saved as inu_localize records in one atomic executemultiple. The metadata's
 * English comes from the user context as the server sends it (the session the screens show is
 * already translated).
 */
export const localizationModel = ({ api, language }: { api: LocalizationApi; language: Language }) => {
  const lang = signal<Language>(language === METADATA_LANGUAGE ? 'sk' : language);
  const status = signal<'loading' | 'ready' | 'saving' | 'failed'>('loading');
  const loadError = signal<string | null>(null);
  const saveError = signal<string | null>(null);
  const metadata = signal<MetadataText[]>([]);
  const records = signal<FetchedText[]>([]);
  const search = signal('');
  const missingOnly = signal(false);
  const kind = signal<TextKind | 'all'>('all');
  const edits = signal<ReadonlyMap<string, string>>(new Map());
  const limit = signal(PAGE_ROWS);
  let loads = 0;

  const rows = computed<TextRow[]>(() => textRows(metadata.value, records.value, lang.value));
  const filtered = computed(() => filterRows(rows.value, { search: search.value, missingOnly: missingOnly.value, kind: kind.value }, edits.value));
  const shown = computed(() => filtered.value.slice(0, limit.value));
  const writes = computed(() => writesOf(rows.value, edits.value, lang.value));
  const dirty = computed(() => writes.value.length > 0);
  const missingCount = computed(() => rows.value.filter((r) => r.kind !== 'other' && (r.record?.text || r.builtIn || '') === '').length);

  const fetchRecords = async (l: Language): Promise<FetchedText[]> => {
    const out: FetchedText[] = [];
    for (let page = 1; ; page++) {
      const res = await api.fetch(editorQuery(l, page));
      out.push(...(res.records as FetchedText[]));
      if (!res.moreRecords || res.records.length === 0) return out;
    }
  };

  /** Loads the metadata's English texts and the records of the chosen language. */
  const load = async (): Promise<void> => {
    const mine = ++loads;
    status.value = 'loading';
    loadError.value = null;
    try {
      const [context, found] = await Promise.all([api.getUserContext(), fetchRecords(lang.value)]);
      if (mine !== loads) return;
      batch(() => {
        metadata.value = metadataTexts({ entities: context.metaDict, gui: context.gui });
        records.value = found;
        status.value = 'ready';
      });
    } catch (e) {
      if (mine !== loads) return;
      batch(() => {
        loadError.value = failureMessage(e);
        status.value = 'failed';
      });
    }
  };

  /** The records again (after a save, or another language): the metadata stays. */
  const reloadRecords = async (): Promise<void> => {
    const mine = ++loads;
    const found = await fetchRecords(lang.value);
    if (mine === loads) records.value = found;
  };

  /** Another language: its records; pending edits belong to the old one and are dropped (the screen asks first). */
  const chooseLanguage = async (l: Language): Promise<void> => {
    if (l === lang.value) return;
    batch(() => {
      lang.value = l;
      edits.value = new Map();
      saveError.value = null;
      limit.value = PAGE_ROWS;
    });
    if (metadata.value.length === 0) return load();
    status.value = 'loading';
    try {
      await reloadRecords();
      status.value = 'ready';
    } catch (e) {
      batch(() => {
        loadError.value = failureMessage(e);
        status.value = 'failed';
      });
    }
  };

  const edit = (key: string, text: string): void => {
    const next = new Map(edits.value);
    next.set(key, text);
    edits.value = next;
  };
  const revert = (key: string): void => {
    if (!edits.value.has(key)) return;
    const next = new Map(edits.value);
    next.delete(key);
    edits.value = next;
  };
  const discard = (): void => {
    edits.value = new Map();
  };
  const setSearch = (s: string): void => {
    batch(() => {
      search.value = s;
      limit.value = PAGE_ROWS;
    });
  };
  const showMore = (): void => {
    limit.value += PAGE_ROWS;
  };

  /**
   * Writes the pending edits through the normal write path: one atomic executemultiple per
   * thousand (the batch limit), then the records read again. Answers whether it saved; a
   * failure keeps the edits and says why in saveError.
   */
  const save = async (): Promise<boolean> => {
    const items: ExecuteItem[] = writes.value.map((w) => ({ operation: w.operation, name: LOCALIZE_ENTITY, object: w.object }));
    if (items.length === 0) {
      discard();
      return true;
    }
    batch(() => {
      status.value = 'saving';
      saveError.value = null;
    });
    try {
      for (let i = 0; i < items.length; i += MAX_BATCH_SIZE) {
        const answers = await api.executeMultiple(items.slice(i, i + MAX_BATCH_SIZE), { atomic: true });
        const failed = answers.find((a) => a.error);
        if (failed?.error) throw new Error(failed.error);
      }
      await reloadRecords();
      batch(() => {
        edits.value = new Map();
        status.value = 'ready';
      });
      return true;
    } catch (e) {
      batch(() => {
        saveError.value = failureMessage(e);
        status.value = 'ready';
      });
      return false;
    }
  };

  return {
    lang,
    status,
    loadError,
    saveError,
    rows,
    filtered,
    shown,
    search,
    missingOnly,
    kind,
    edits,
    limit,
    writes,
    dirty,
    missingCount,
    load,
    reloadRecords,
    chooseLanguage,
    edit,
    revert,
    discard,
    setSearch,
    showMore,
    save,
  };
};
export type LocalizationModel = ReturnType<typeof localizationModel>;
