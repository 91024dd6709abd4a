import { fillPlaceholders } from '../i18n/catalogue.js';

/**
 * The import texts of spec 002 section 8, quoted exactly. They are keyed like the i18n
 * catalogue (core/src/i18n) so a host can translate them; `englishImportText` is the default.
 */
export const IMPORT_TEXTS = {
  MsgImportConfirm: 'Import will Create {n} record(s) Update {m} record(s) continue?',
  MsgImported: 'Imported: {n} records',
  MsgImportErrors: 'Errors: {count}',
} as const;
export type ImportTextKey = keyof typeof IMPORT_TEXTS;
export type ImportTextLookup = (key: ImportTextKey, params: Record<string, string | number>) => string;

export const englishImportText: ImportTextLookup = (key, params) => fillPlaceholders(IMPORT_TEXTS[key], params);

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
): string =>
  [
    text('MsgImported', { n: imported }),
    ...(errorCount > 0 ? [text('MsgImportErrors', { count: errorCount }), ...errorLines] : []),
  ].join('\n');
