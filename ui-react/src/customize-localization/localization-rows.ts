import { en, METADATA_LANGUAGE, type Language } from '@tessera/core/internal';
import type { MetadataText } from './localizable-texts.js';
import { builtInText, messageKeyOfName, overridableKeys, uiTextKey } from './ui-texts.js';

/** A stored inu_localize record of one text in one language. */
export type StoredText = { readonly id: string; readonly text: string };

/** Where a text comes from: the built-in catalogue, the metadata, or only a record (a key neither knows). */
export type TextKind = 'ui' | 'metadata' | 'other';

/**
 * One line of the localization editor: an inu_localize name, its English and its text in the
 * chosen language, each the built-in one unless a record rewords it.
 */
export type TextRow = {
  readonly key: string;
  readonly kind: TextKind;
  /** the built-in English: the catalogue's, or the metadata's own text ('' when there is none) */
  readonly original: string;
  /** the text in the chosen language without a record: the catalogue's (the metadata's own for en) */
  readonly builtIn: string | undefined;
  /** the en record of the key */
  readonly english: StoredText | undefined;
  /** the chosen language's record of the key */
  readonly record: StoredText | undefined;
};

/** A record as the editor fetches it. */
export type FetchedText = { id?: unknown; name?: unknown; lang?: unknown; text?: unknown };

const storedOf = (records: readonly FetchedText[], lang: string): Map<string, StoredText> => {
  const out = new Map<string, StoredText>();
  for (const r of records)
    if (r.lang === lang && typeof r.name === 'string' && typeof r.id === 'string') out.set(r.name, { id: r.id, text: typeof r.text === 'string' ? r.text : '' });
  return out;
};

/**
 * The editor's lines for a language: every overridable catalogue text (`ui.{key}`), every
 * metadata text, and every record of a key neither knows (so nothing stored is hidden), sorted:
 * metadata first (what an administrator translates most), then the interface, then the rest.
 */
export const textRows = (metadata: readonly MetadataText[], records: readonly FetchedText[], lang: Language): TextRow[] => {
  const english = storedOf(records, METADATA_LANGUAGE);
  const chosen = storedOf(records, lang);
  const rows: TextRow[] = [];
  const seen = new Set<string>();
  const add = (key: string, kind: TextKind, original: string, builtIn: string | undefined) => {
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ key, kind, original, builtIn, english: english.get(key), record: chosen.get(key) });
  };
  for (const m of metadata) add(m.key, 'metadata', m.text, lang === METADATA_LANGUAGE ? m.text : undefined);
  for (const k of overridableKeys()) add(uiTextKey(k), 'ui', en[k] as string, builtInText(lang, k));
  const others = [...new Set([...english.keys(), ...chosen.keys()])].filter((k) => !seen.has(k)).sort();
  for (const k of others) {
    const msg = messageKeyOfName(k);
    add(k, msg ? 'ui' : 'other', '', undefined);
  }
  return rows;
};

/** The English shown beside the chosen language: the en record's text, else the built-in one. */
export const englishOf = (row: TextRow): string => (row.english && row.english.text !== '' ? row.english.text : row.original);

/** The text the users of the chosen language see: its record's, else the built-in one, else none. */
export const shownText = (row: TextRow): string => (row.record && row.record.text !== '' ? row.record.text : (row.builtIn ?? ''));

/** A missing translation: nothing in the chosen language, neither a record nor a built-in text. */
export const isMissing = (row: TextRow): boolean => shownText(row) === '';

export type RowFilter = { readonly search: string; readonly missingOnly: boolean; readonly kind: TextKind | 'all' };

/** Lower case without accents, so 'uloz' finds 'Uložiť'. */
export const foldText = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A line's searchable text, folded once per line (lines are rebuilt, never changed, so the cache stays right). */
const folded = new WeakMap<TextRow, string>();
const haystackOf = (r: TextRow, edited: string | undefined): string => {
  if (edited !== undefined) return foldText(`${r.key}\n${englishOf(r)}\n${edited}`);
  let hay = folded.get(r);
  if (hay === undefined) {
    hay = foldText(`${r.key}\n${englishOf(r)}\n${shownText(r)}`);
    folded.set(r, hay);
  }
  return hay;
};

/** The lines a filter keeps: every word of the search in the key, the English or the chosen text. */
export const filterRows = (rows: readonly TextRow[], f: RowFilter, edits: ReadonlyMap<string, string> = new Map()): TextRow[] => {
  const words = foldText(f.search).split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    if (f.kind !== 'all' && r.kind !== f.kind) return false;
    // A line being edited stays, so it does not vanish from the missing ones while typed.
    if (f.missingOnly && !isMissing(r) && !edits.has(r.key)) return false;
    if (words.length === 0) return true;
    const hay = haystackOf(r, edits.get(r.key));
    return words.every((w) => hay.includes(w));
  });
};

/** One write of the save: create, update or delete of an inu_localize record. */
export type TextWrite =
  | { readonly operation: 'create'; readonly object: { name: string; lang: string; text: string } }
  | { readonly operation: 'update'; readonly object: { id: string; text: string } }
  | { readonly operation: 'delete'; readonly object: { id: string } };

/**
 * The writes of the pending edits (key to the new text in the chosen language): a text equal to
 * what is shown writes nothing; a record gets the new text; an emptied record, or one set back to
 * the built-in text, is deleted (the built-in text shows again); a new text creates a record.
 */
export const writesOf = (rows: readonly TextRow[], edits: ReadonlyMap<string, string>, lang: Language): TextWrite[] => {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const writes: TextWrite[] = [];
  for (const [key, raw] of edits) {
    const row = byKey.get(key);
    const text = raw.trim() === '' ? '' : raw;
    const record = row?.record;
    if (record) {
      if (text === record.text) continue;
      if (text === '' || (row?.builtIn !== undefined && text === row.builtIn)) writes.push({ operation: 'delete', object: { id: record.id } });
      else writes.push({ operation: 'update', object: { id: record.id, text } });
    } else if (text !== '' && text !== (row?.builtIn ?? '')) writes.push({ operation: 'create', object: { name: key, lang, text } });
  }
  return writes;
};
