import { describe, expect, it } from 'vitest';
import { en, translate } from '@tessera/core/internal';
import { COMING_PAGE_PATHS, comingPageOf, comingPageTexts, isWorkingRoute, type ComingPage } from './coming-pages.js';

describe('pages not built yet (issue 23 item 4)', () => {
  it('recognises the placeholder routes of spec 000 section 2, and only them', () => {
    expect(isWorkingRoute('customizemetadata')).toBe(true); // issue 15: the metadata editor
    expect(isWorkingRoute('customizelocalization')).toBe(true);
    expect(isWorkingRoute('export?x=1')).toBe(true);
    expect(comingPageOf('custom/42')).toBe('custom');
    for (const working of ['import', 'whatsnext', 'list/account', 'list/import', 'edit/account/0', 'cache', 'n/accounts', 'list/inu_view?view=x', 'dashboard/sales']) expect(isWorkingRoute(working), working).toBe(true);
    expect(COMING_PAGE_PATHS).toEqual(['custom/:id']);
  });

  it('names what each page will hold, and no longer claims that everything else works', () => {
    const pages: ComingPage[] = ['custom'];
    for (const p of pages) {
      const { title, text } = comingPageTexts(p);
      expect(translate('en', title).length, p).toBeGreaterThan(0);
      expect(translate('en', text), p).not.toMatch(/Everything else/);
    }
    expect(JSON.stringify(en)).not.toContain('Everything else in the menu works');
  });
});
