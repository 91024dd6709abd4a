import { translate, type Language } from '../i18n/catalogue.js';

/**
 * The import texts of spec 002 section 8 come from the i18n catalogue (core/src/i18n), the one
 * place they are defined; English quotes the specification exactly. `importTextIn` gives them
 * in a catalogue language, `englishImportText` is the default.
 */
export const IMPORT_TEXT_KEYS = ['MsgImportConfirm', 'MsgImported', 'MsgImportErrors', 'MsgImportCancelled'] as const;
export type ImportTextKey = (typeof IMPORT_TEXT_KEYS)[number];
export type ImportTextLookup = (key: ImportTextKey, params: Record<string, string | number>) => string;

/** The import texts in one language of the catalogue. */
export const importTextIn =
  (lang: Language): ImportTextLookup =>
  (key, params) =>
    translate(lang, key, params);

export const englishImportText: ImportTextLookup = importTextIn('en');

/** 'Import will Create {n} record(s) Update {m} record(s) continue?' */
export const importConfirmationText = (
  counts: { create: number; update: number },
  text: ImportTextLookup = englishImportText,
): string => text('MsgImportConfirm', { n: counts.create, m: counts.update });

/**
 * 'Imported: {n} records', then, when any row failed, 'Errors: {count}' and the error texts
 * line by line. `errorCount` may exceed the listed lines (the list is capped, the count is not).
 */
export const importResultText = (
  imported: number,
  errorLines: readonly string[],
  errorCount: number = errorLines.length,
  text: ImportTextLookup = englishImportText,
  /** Rows left unprocessed by a cancel mid-way (issue 17): said after the count of imported records. */
  notProcessed?: number,
): string =>
  [
    text('MsgImported', { n: imported }),
    ...(notProcessed === undefined ? [] : [text('MsgImportCancelled', { n: notProcessed })]),
    ...(errorCount > 0 ? [text('MsgImportErrors', { count: errorCount }), ...errorLines] : []),
  ].join('\n');
