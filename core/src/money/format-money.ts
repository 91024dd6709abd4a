import { currencyMode, currencyPrecision, EURO, type Currency } from '../metadata/currency.js';
import { scaledToText, toScaled, type Decimalish } from './decimal.js';

export type MoneySettings = {
  /** The decimal separator (organization setting decimalSeparator); default '.'. */
  readonly decimalSeparator?: string;
  /** Digit grouping separator; default none. */
  readonly thousandsSeparator?: string;
};

const group = (digits: string, separator: string): string =>
  separator === '' ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);

/**
 * formatMoney: an amount as text in a currency (Euro when none), rounded half away from zero to
 * the currency's precision (default 2) without binary drift, with the settings' decimal separator.
 * Mode 0 `€12.50`, 1 `12.50 €`, 2 `EUR 12.50`, 3 `12.50 EUR`; the minus sign leads (`-€12.50`).
 * An empty or non-numeric amount gives ''.
 */
export const formatMoney = (
  amount: Decimalish | null | undefined,
  currency?: Pick<Currency, 'code' | 'symbol' | 'precision' | 'mode'> | null,
  settings: MoneySettings = {},
): string => {
  if (amount === null || amount === undefined || amount === '') return '';
  const c = currency ?? EURO;
  const precision = currencyPrecision(c);
  const scaled = toScaled(amount, precision);
  if (scaled === undefined) return '';
  const text = scaledToText(scaled < 0n ? -scaled : scaled, precision);
  const [whole, fraction] = text.split('.');
  const value = `${group(whole, settings.thousandsSeparator ?? '')}${fraction === undefined ? '' : `${settings.decimalSeparator ?? '.'}${fraction}`}`;
  const sign = scaled < 0n ? '-' : '';
  switch (currencyMode(c)) {
    case 0:
      return `${sign}${c.symbol}${value}`;
    case 1:
      return `${sign}${value} ${c.symbol}`;
    case 2:
      return `${sign}${c.code} ${value}`;
    case 3:
      return `${sign}${value} ${c.code}`;
  }
};
