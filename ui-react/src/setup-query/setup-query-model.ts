import { computed, signal } from '@preact/signals-react';
import { checkSetupQuery, FETCH_FILE_NAME, setupQueryText, type Entity, type FetchRequest, type PlaceholderValues, type SetupQueryCheck } from '../core.js';

/**
 * The Setup Query dialog (spec 002 section 2, issue 15) as a model of signals: the query as JSON
 * text, checked as typed by the core (`checkSetupQuery`: JSON, the fetch codec, the query engine's
 * validation against the metadata, each problem with its path); import from a file (text that is
 * not JSON is refused and alerted, spec 002 section 9), export as fetch.json, save, close.
 */
export type SetupQueryOptions = {
  /** The query to start from: a request, or text (the export dialog keeps its query as text). */
  initial: FetchRequest | string;
  entities: Readonly<Record<string, Entity>>;
  /** The query must stay on this entity (a view's, an export's). */
  entity?: string;
  /** `{{placeholder}}` values the query is checked with (userid...). */
  placeholders?: PlaceholderValues;
  /** A rule of the screen that opened the dialog beyond the engine's (the export's exportable columns): a text, or null. */
  extraCheck?: (request: FetchRequest, text: string) => string | null;
};

/** What the dialog shows under the editor. */
export type SetupQueryStatus = SetupQueryCheck | { readonly _tag: 'Refused'; readonly message: string };

/** What Import did with a file's text. */
export type ImportOutcome = { readonly _tag: 'Imported' } | { readonly _tag: 'NotJson'; readonly message: string };

/** JSON text as the editor shows it: indented by two spaces (text that does not parse stays as typed). */
export const prettyJson = (text: string): string => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

export const setupQueryModel = (o: SetupQueryOptions) => {
  const initialText = typeof o.initial === 'string' ? prettyJson(o.initial) : setupQueryText(o.initial);
  const text = signal(initialText);
  const lookup = (name: string) => o.entities[name];

  const status = computed((): SetupQueryStatus => {
    const r = checkSetupQuery(text.value, lookup, { entity: o.entity, placeholders: o.placeholders });
    if (r._tag !== 'Valid' || !o.extraCheck) return r;
    const refused = o.extraCheck(r.request, text.value);
    return refused === null ? r : { _tag: 'Refused', message: refused };
  });
  const dirty = computed(() => text.value !== initialText);

  /** Import (spec 002 section 2): a file's JSON replaces the text, indented; text that is not JSON leaves it as it was. */
  const importText = (fileText: string): ImportOutcome => {
    try {
      text.value = JSON.stringify(JSON.parse(fileText), null, 2);
      return { _tag: 'Imported' };
    } catch (e) {
      return { _tag: 'NotJson', message: e instanceof Error ? e.message : String(e) };
    }
  };

  /** The file Export downloads (spec: "export as fetch.json"): the text indented; null when it is not JSON. */
  const exportFile = (): { name: string; text: string } | null => {
    try {
      return { name: FETCH_FILE_NAME, text: `${JSON.stringify(JSON.parse(text.value), null, 2)}\n` };
    } catch {
      return null;
    }
  };

  /** Indents the text when it is JSON (the Format command). */
  const format = (): void => {
    text.value = prettyJson(text.value);
  };

  /** The query Save hands to the screen that opened the dialog, or the problem to alert. */
  const saveResult = (): SetupQueryStatus => status.value;

  return { text, status, dirty, importText, exportFile, format, saveResult };
};
export type SetupQueryModel = ReturnType<typeof setupQueryModel>;
