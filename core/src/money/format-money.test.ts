import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney } from './format-money.js';
import { EURO } from '../metadata/currency.js';

const usd = { code: 'USD', symbol: '$' };

describe('formatMoney: currency modes, precision and separators (spec 002 section 3)', () => {
  it.each([
    [0, '$1234.50'],
    [1, '1234.50 $'],
    [2, 'USD 1234.50'],
    [3, '1234.50 USD'],
  ] as const)('mode %i shows %s', (mode, expected) => {
    expect(formatMoney(1234.5, { ...usd, mode })).toBe(expected);
  });

  it('default precision is 2', () => expect(formatMoney(3, { ...usd, mode: 2 })).toBe('USD 3.00'));

  it('the currency precision is used, rounding half away from zero', () => {
    expect(formatMoney(2.5, { ...usd, precision: 0, mode: 3 })).toBe('3 USD');
    expect(formatMoney(-2.5, { ...usd, precision: 0, mode: 3 })).toBe('-3 USD');
    expect(formatMoney(1.2345, { ...usd, precision: 3, mode: 3 })).toBe('1.235 USD');
  });

  it('Euro is the default currency', () => {
    expect(formatMoney(12.5)).toBe(formatMoney(12.5, EURO));
    expect(formatMoney(12.5, null, { decimalSeparator: ',' })).toBe('12,50 €');
  });

  it('the decimal separator comes from settings; grouping is optional', () => {
    expect(formatMoney(1234567.891, { ...usd, mode: 3 }, { decimalSeparator: ',', thousandsSeparator: ' ' })).toBe('1 234 567,89 USD');
  });

  it('no binary drift: 1.005 shows 1.01, 0.1 + 0.2 shows 0.30', () => {
    expect(formatMoney(1.005, { ...usd, mode: 0 })).toBe('$1.01');
    expect(formatMoney('0.30', { ...usd, mode: 0 })).toBe('$0.30');
  });

  it('the minus sign leads, and an empty amount shows nothing', () => {
    expect(formatMoney(-5, { ...usd, mode: 0 })).toBe('-$5.00');
    expect(formatMoney(-0.001, { ...usd, mode: 0 })).toBe('$0.00');
    expect(formatMoney(null)).toBe('');
    expect(formatMoney('abc')).toBe('');
  });

  it('property: the digits shown read back as the amount rounded to the precision', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, fc.constantFrom('.', ','), (units, precision, mode, sep) => {
          const amount = units / 10 ** precision;
          const text = formatMoney(amount, { ...usd, precision, mode }, { decimalSeparator: sep });
          const digits = text.replace(/USD|\$|\s/g, '').replace(sep, '.');
          expect(Number(digits)).toBe(Number(amount.toFixed(precision)));
          expect(digits.split('.')[1]?.length ?? 0).toBe(precision);
        },
      ),
    );
  });
});
