import { describe, expect, it } from 'vitest';
import { nameInSentence } from './entity-name-in-sentence.js';

describe("an entity's plural name inside 'No {entities} match the filters' (issue 23 item 2)", () => {
  it('lowercases title-cased words in en, sk and cz', () => {
    expect(nameInSentence('Accounts', 'en')).toBe('accounts');
    expect(nameInSentence('Work Orders', 'en')).toBe('work orders');
    expect(nameInSentence('Účty', 'sk')).toBe('účty');
    expect(nameInSentence('Pracovní příkazy', 'cz')).toBe('pracovní příkazy');
  });

  it('keeps acronyms and inner capitals, and German nouns as written', () => {
    expect(nameInSentence('SLAs', 'en')).toBe('SLAs');
    expect(nameInSentence('CRM Contacts', 'en')).toBe('CRM contacts');
    expect(nameInSentence('Konten', 'de')).toBe('Konten');
  });
});
