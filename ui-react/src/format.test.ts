import { describe, expect, it, vi } from 'vitest';

// The formatters read the session's currencies and the language; both are browser state, stubbed here.
vi.mock('./state/session.js', () => ({ session: { value: null } }));
vi.mock('./i18n.js', () => ({ language: { value: 'en' }, t: (key: string) => key }));

import { PropertyType, SYSTEM_USER_ID, type Property } from './core.js';
import { formatCount, formatters, formatValue } from './format.js';

const p = (type: Property['type'], extra: Partial<Property> = {}): Property => ({ logicalName: 'f', displayName: 'F', type, ...extra });

describe('formatValue: one formatter per property type (issue 12 point 3)', () => {
  it('the formatter table has exactly the property types of the core', () => {
    expect(Object.keys(formatters).sort()).toEqual(Object.keys(PropertyType.keys).sort());
  });

  it('empty values are blank; lookups show their label, never a bare id (issue 23 item 7: the system user reads System)', () => {
    for (const type of Object.keys(PropertyType.keys) as Array<Property['type']>) expect(formatValue(p(type), null)).toBe('');
    expect(formatValue(p('Lookup'), { id: 'x1', name: 'account', label: 'Acme' })).toBe('Acme');
    expect(formatValue(p('Lookup'), { id: 'x1', name: 'account', label: null })).toBe('MsgUnknownTitle');
    expect(formatValue(p('Lookup'), { id: SYSTEM_USER_ID, name: 'systemuser', label: null })).toBe('LblSystem');
  });

  it("a currency the reader may not read is named from the user context's currencies, not by its id", async () => {
    const { session } = (await import('./state/session.js')) as unknown as { session: { value: unknown } };
    session.value = { context: { currencyDict: { c1: { id: 'c1', name: 'Euro', code: 'EUR', symbol: '€' } } } };
    try {
      expect(formatValue(p('Lookup'), { id: 'c1', name: 'currency', label: null })).toBe('Euro');
    } finally {
      session.value = null;
    }
  });

  it('option sets show labels (a multi-select bitmap lists each), tags are joined, numbers keep their precision', () => {
    const options = [{ value: 0, label: 'A' }, { value: 3, label: 'B' }];
    expect(formatValue(p('Integer', { flags: ['OptionSet'], options }), 3)).toBe('B');
    expect(formatValue(p('Integer', { flags: ['OptionSet', 'MultiSelect'], options }), 9)).toBe('A, B');
    expect(formatValue(p('String', { formatString: 'tags' }), 'a;b')).toBe('a, b');
    expect(formatValue(p('Decimal', { precision: 2 }), 1.2345)).toMatch(/^1[.,]23$/);
    expect(formatValue(p('Guid'), 'abc')).toBe('abc');
    expect(formatValue(p('VersionNumber'), '17')).toBe('17');
    expect(formatValue(p('Boolean'), true)).toBe('LblYes');
    expect(formatValue(p('Boolean'), false)).toBe('LblNo');
  });
});

describe('formatCount: the list total (issue 24: a count stopped at the cap shows "50 of 10,000+")', () => {
  it('groups the digits in the user language and marks a capped count with +', () => {
    expect(formatCount(10_000, true)).toBe('10,000+');
    expect(formatCount(1234, false)).toBe('1,234');
    expect(formatCount(0, false)).toBe('0');
  });
});
