import type { Language } from '@tessera/core/internal';

/**
 * An entity's plural display name inside a sentence ("No accounts match the filters"): display
 * names are written as titles ("Work Orders", "Účty"), so a word that is only capitalised is
 * lowercased; acronyms and names with inner capitals ("SLAs", "iPads") stay. German writes
 * nouns with a capital, so it keeps the name as it is.
 */
export const nameInSentence = (name: string, lang: Language): string =>
  lang === 'de' ? name : name.replace(/\p{L}+/gu, (word) => (/^\p{Lu}\p{Ll}*$/u.test(word) ? word.toLowerCase() : word));
