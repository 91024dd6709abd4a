import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CATALOGUE_LANGUAGES,
  catalogueOf,
  en,
  fillPlaceholders,
  intlLocale,
  translate,
  type Language,
  type MessageKey,
} from './catalogue.js';
import { isPlural, messageParts, plural, pluralForm, pluralRules } from './plural.js';
import { relativeTime, relativeTimeText } from '../records/relative-time.js';

const COUNTS = [0, 1, 2, 3, 4, 5, 21, 22, 1.5] as const;
/** The text of a key for each of COUNTS, in order. */
const forCounts = (lang: Language, key: MessageKey, param = 'n'): string[] =>
  COUNTS.map((n) => translate(lang, key, { [param]: n }));

describe('plurals in the catalogue (issue 12 point 10): the form is chosen by Intl.PluralRules', () => {
  it('sk: 1 záznam, 2 to 4 záznamy, 0 and 5 and up (21, 22 too) záznamov, fractions záznamu', () => {
    expect(forCounts('sk', 'MsgRecordCount')).toEqual([
      '0 záznamov',
      '1 záznam',
      '2 záznamy',
      '3 záznamy',
      '4 záznamy',
      '5 záznamov',
      '21 záznamov',
      '22 záznamov',
      '1.5 záznamu',
    ]);
    expect(translate('sk', 'MsgAskDeleteMany', { n: 1 })).toBe('Naozaj chcete vymazať 1 záznam?');
    expect(translate('sk', 'MsgAskDeleteMany', { n: 3 })).toBe('Naozaj chcete vymazať 3 záznamy?');
    expect(translate('sk', 'MsgAskDeleteMany', { n: 12 })).toBe('Naozaj chcete vymazať 12 záznamov?');
    expect(translate('sk', 'MsgImported', { n: 2 })).toBe('Importované: 2 záznamy');
    expect(translate('sk', 'MsgAgeMonths', { n: 1 })).toBe('Vek: 1 mesiac');
    expect(translate('sk', 'MsgAgeYears', { n: 4 })).toBe('Vek: 4 roky');
    expect(translate('sk', 'MsgAgeYears', { n: 40 })).toBe('Vek: 40 rokov');
    expect(translate('sk', 'MsgMoreTags', { n: 2 })).toBe('ďalšie 2');
  });

  it('cz (Intl locale cs): 1 záznam, 2 to 4 záznamy, 0 and 5 and up záznamů, fractions záznamu', () => {
    expect(intlLocale('cz')).toBe('cs');
    expect(forCounts('cz', 'MsgRecordCount')).toEqual([
      '0 záznamů',
      '1 záznam',
      '2 záznamy',
      '3 záznamy',
      '4 záznamy',
      '5 záznamů',
      '21 záznamů',
      '22 záznamů',
      '1.5 záznamu',
    ]);
    expect(translate('cz', 'MsgAskDeleteMany', { n: 4 })).toBe('Opravdu chcete smazat 4 záznamy?');
    expect(translate('cz', 'MsgImported', { n: 1 })).toBe('Importováno: 1 záznam');
    expect(translate('cz', 'MsgAgeYears', { n: 2 })).toBe('Věk: 2 roky');
    expect(translate('cz', 'MsgAgeYears', { n: 10 })).toBe('Věk: 10 let');
    expect(translate('cz', 'MsgAgeMonths', { n: 7 })).toBe('Věk: 7 měsíců');
  });

  it('de: 1 Datensatz, every other count (0, 2, 21, 1.5) Datensätze', () => {
    expect(forCounts('de', 'MsgRecordCount')).toEqual([
      '0 Datensätze',
      '1 Datensatz',
      '2 Datensätze',
      '3 Datensätze',
      '4 Datensätze',
      '5 Datensätze',
      '21 Datensätze',
      '22 Datensätze',
      '1.5 Datensätze',
    ]);
    expect(translate('de', 'MsgAskDeleteMany', { n: 1 })).toBe('Möchten Sie wirklich 1 Datensatz löschen?');
    expect(translate('de', 'MsgImported', { n: 3 })).toBe('Importiert: 3 Datensätze');
    expect(translate('de', 'MsgAgeMonths', { n: 1 })).toBe('1 Monat');
  });

  it('en: plural forms where the specification fixes no text (1 record, 2 records); its quoted texts stay as quoted for every count', () => {
    expect(forCounts('en', 'MsgRecordCount')).toEqual([
      '0 records',
      '1 record',
      '2 records',
      '3 records',
      '4 records',
      '5 records',
      '21 records',
      '22 records',
      '1.5 records',
    ]);
    expect(translate('en', 'MsgAgeMonths', { n: 1 })).toBe('1 month');
    expect(translate('en', 'MsgAgeYears', { n: 2 })).toBe('2 years');
    // spec 001 section 8 and spec 002 section 8 quote these with 'record(s)' and 'records'
    expect(translate('en', 'MsgAskDeleteMany', { n: 1 })).toBe('Do your really want to delete 1 record(s)?');
    expect(translate('en', 'MsgImported', { n: 1 })).toBe('Imported: 1 records');
    expect(translate('en', 'MsgImportConfirm', { n: 1, m: 1 })).toBe(
      'Import will Create 1 record(s) Update 1 record(s) continue?',
    );
  });

  it('a sentence with two counts chooses each count its own form (the import confirmation)', () => {
    expect(translate('sk', 'MsgImportConfirm', { n: 1, m: 3 })).toBe(
      'Import vytvorí 1 záznam a aktualizuje 3 záznamy. Pokračovať?',
    );
    expect(translate('sk', 'MsgImportConfirm', { n: 5, m: 0 })).toBe(
      'Import vytvorí 5 záznamov a aktualizuje 0 záznamov. Pokračovať?',
    );
    expect(translate('cz', 'MsgImportConfirm', { n: 2, m: 1 })).toBe(
      'Import vytvoří 2 záznamy a aktualizuje 1 záznam. Pokračovat?',
    );
    expect(translate('de', 'MsgImportConfirm', { n: 1, m: 2 })).toBe(
      'Der Import erstellt 1 Datensatz und aktualisiert 2 Datensätze. Fortfahren?',
    );
  });

  it("a missing or non-numeric count takes the 'other' form; a numeric string counts; a form the entry lacks falls back to 'other'", () => {
    expect(translate('sk', 'MsgRecordCount')).toBe('{n} záznamov');
    expect(translate('sk', 'MsgRecordCount', { n: 'x' })).toBe('x záznamov');
    expect(translate('sk', 'MsgRecordCount', { n: '2' })).toBe('2 záznamy');
    const englishOnly = plural('n', { one: '{n} record', other: '{n} records' });
    expect(pluralForm('sk', englishOnly, { n: 3 })).toBe('{n} records');
  });
});

describe('every plural entry of the catalogue has the categories its language uses', () => {
  const pluralsOf = (lang: Language) =>
    Object.entries(catalogueOf(lang)).flatMap(([key, m]) =>
      messageParts(m)
        .filter(isPlural)
        .map((p) => ({ key, p })),
    );

  it('the forms of each plural are exactly Intl.PluralRules(locale).resolvedOptions().pluralCategories, for en, sk, cz and de', () => {
    for (const lang of CATALOGUE_LANGUAGES) {
      const categories = [...pluralRules(intlLocale(lang)).resolvedOptions().pluralCategories].sort();
      const plurals = pluralsOf(lang);
      expect(plurals.length, lang).toBeGreaterThan(0);
      for (const { key, p } of plurals) expect(Object.keys(p.forms).sort(), `${lang} ${key}`).toEqual(categories);
    }
  });

  it('sk and cz use one, few, many and other; en and de one and other', () => {
    expect([...pluralRules('sk').resolvedOptions().pluralCategories].sort()).toEqual(['few', 'many', 'one', 'other']);
    expect([...pluralRules('cs').resolvedOptions().pluralCategories].sort()).toEqual(['few', 'many', 'one', 'other']);
    expect([...pluralRules('en').resolvedOptions().pluralCategories].sort()).toEqual(['one', 'other']);
    expect([...pluralRules('de').resolvedOptions().pluralCategories].sort()).toEqual(['one', 'other']);
  });

  it('property: for every language, key and count, the text is defined, has every placeholder filled, and shows the forms the rules select', () => {
    const keys = Object.keys(en) as MessageKey[];
    const count = fc.oneof(fc.integer(), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    fc.assert(
      fc.property(fc.constantFrom(...CATALOGUE_LANGUAGES), fc.constantFrom(...keys), count, (lang, key, n) => {
        const message = catalogueOf(lang)[key];
        const category = pluralRules(intlLocale(lang)).select(n);
        const chosen = messageParts(message).map((p) => (typeof p === 'string' ? p : p.forms[category]));
        for (const form of chosen) expect(form, `${lang} ${key} ${category}`).toBeDefined();
        // every placeholder gets the count: the plural's own and any other ({m}, {total}, {name})
        const params = Object.fromEntries(
          chosen
            .join('')
            .match(/\{\w+\}/g)
            ?.map((ph) => [ph.slice(1, -1), n]) ?? [],
        );
        const text = translate(lang, key, params);
        expect(text.length).toBeGreaterThan(0);
        expect(text).not.toMatch(/\{\w+\}/);
        expect(text).toBe(fillPlaceholders(chosen.join(''), params));
      }),
    );
  });
});

describe('relative time of the activity feed in the catalogue (spec 001 section 2)', () => {
  const now = Date.parse('2024-05-10T12:00:00Z');
  const text = (agoMs: number, lang: Language) => relativeTimeText(relativeTime(now - agoMs, now)!, undefined, lang);
  it("English stays as quoted ('1 min ago', '1 hour ago', '3 hours ago'); hours are a plural form in sk, cz and de", () => {
    expect(text(0, 'en')).toBe('1 min ago');
    expect(text(3_600_000, 'en')).toBe('1 hour ago');
    expect(text(3 * 3_600_000, 'en')).toBe('3 hours ago');
    expect(text(5 * 60_000, 'sk')).toBe('pred 5 min');
    expect(text(3_600_000, 'sk')).toBe('pred 1 hodinou');
    expect(text(2 * 3_600_000, 'sk')).toBe('pred 2 hodinami');
    expect(text(3_600_000, 'cz')).toBe('před 1 hodinou');
    expect(text(5 * 3_600_000, 'cz')).toBe('před 5 hodinami');
    expect(text(3_600_000, 'de')).toBe('vor 1 Stunde');
    expect(text(21 * 3_600_000, 'de')).toBe('vor 21 Stunden');
  });
});
