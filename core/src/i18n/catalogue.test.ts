import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { en } from './en.js';
import { sk } from './sk.js';
import { cz } from './cz.js';
import { de } from './de.js';
import { chooseLanguage, fillPlaceholders, languageOfTag, requiredFieldsMessage, translate } from './catalogue.js';
import { messageParts, type Message } from './plural.js';

/** Every text a message can show: each plain part and each form of each plural part. */
const textsOf = (m: Message): string[] =>
  messageParts(m).flatMap((p) => (typeof p === 'string' ? [p] : Object.values(p.forms)));
const placeholdersOf = (m: Message): string[] =>
  [...new Set(textsOf(m).flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((x) => x[1] ?? '')))].sort();

describe('message catalogue (spec 001 section 8, spec 000 section 8)', () => {
  it('quotes the specification texts exactly in English', () => {
    expect(en.MsgRequiredFieldEmpty).toBe('Please provide a value for');
    expect(en.MsgRecordSaved).toBe('Record saved');
    expect(en.MsgRecordUpdated).toBe('Record was updated');
    expect(en.MsgRecordNotFound).toBe(
      'We apologize. The record does not exist or you do not have permission to access it.',
    );
    expect(en.MsgAskDelete).toBe('Are you sure you want delete this record?');
    expect(en.MsgSaveToAdd).toBe('Save this record to see related records.');
    expect(en.SurveyCompleted).toBe('Thank you for filling out the form');
    expect(en.SurveyExpired).toBe('We are sorry, the form has expired');
    expect(en.SurveyLinkInvalid).toBe('We are sorry, you have entered the URL in a wrong format');
    expect(en.MsgOrganizationCreated).toBe('Organiztion Created!');
    expect(en.MsgPasswordChanged).toBe('Password Changed');
    expect(en.MsgLoggedOutInactivity).toBe('You were logged out due to inactivity');
    expect(translate('en', 'MsgAskDeleteMany', { n: 3 })).toBe('Do your really want to delete 3 record(s)?');
    expect(translate('en', 'MsgModifiedBy', { modifier: 'Eva' })).toBe('This record was modified by Eva');
  });

  it('quotes the import texts of spec 002 section 8 exactly in English, with their placeholders', () => {
    expect(en.MsgImportConfirm).toBe('Import will Create {n} record(s) Update {m} record(s) continue?');
    expect(en.MsgImported).toBe('Imported: {n} records');
    expect(en.MsgImportErrors).toBe('Errors: {count}');
    expect(translate('en', 'MsgImportConfirm', { n: 3, m: 2 })).toBe(
      'Import will Create 3 record(s) Update 2 record(s) continue?',
    );
    expect(translate('sk', 'MsgImported', { n: 7 })).toBe('Importované: 7 záznamov');
    expect(translate('cz', 'MsgImportErrors', { count: 2 })).toBe('Chyby: 2');
    expect(translate('de', 'MsgImportConfirm', { n: 1, m: 0 })).toContain('1');
  });

  it('holds every key in sk, cz and de, each non-empty, with the same placeholders as English (over all plural forms)', () => {
    for (const cat of [sk, cz, de]) {
      expect(Object.keys(cat).sort()).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(en)) {
        const other: Message = (cat as Record<string, Message>)[k] ?? '';
        for (const text of textsOf(other)) expect(text.length, k).toBeGreaterThan(0);
        expect(placeholdersOf(other), k).toEqual(placeholdersOf(v));
      }
    }
  });

  it('chooses the stored language, else the first offered browser language, else en (spec 000 section 4)', () => {
    expect(chooseLanguage('sk', ['de-DE'])).toBe('sk');
    expect(chooseLanguage(null, ['fr-FR', 'de-AT'])).toBe('de');
    expect(chooseLanguage(null, ['fr-FR'])).toBe('en');
    expect(chooseLanguage(null, ['cs-CZ'])).toBe('en');
    expect(chooseLanguage(null, ['cs-CZ'], ['en', 'cz'])).toBe('cz');
    expect(languageOfTag('sk-SK')).toBe('sk');
  });

  it('lists each missing label on its own line with a dash after MsgRequiredFieldEmpty (spec 001 section 5)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1 }).filter((s) => !s.includes('\n')),
          { maxLength: 5 },
        ),
        (labels) => {
          const lines = requiredFieldsMessage('en', labels).split('\n');
          expect(lines[0]).toBe('Please provide a value for');
          expect(lines.slice(1)).toEqual(labels.map((l) => `- ${l}`));
        },
      ),
    );
  });

  it('leaves a text without placeholders unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('{')),
        (s) => fillPlaceholders(s, { a: 1 }) === s,
      ),
    );
  });
});
