import * as t from 'io-ts';
import { scaledToText, toScaled, type Decimalish } from './decimal.js';

/** Currency display modes (spec 002 section 3): 0 symbol first, 1 value then symbol, 2 code first, 3 value then code. */
export const CurrencyMode = t.union([t.literal(0), t.literal(1), t.literal(2), t.literal(3)], 'CurrencyMode');
export type CurrencyMode = t.TypeOf<typeof CurrencyMode>;

/** A currency record (spec 002 section 3). */
export const Currency = t.intersection(
  [
    t.type({ code: t.string, symbol: t.string }),
    t.partial({
      id: t.string,
      name: t.string,
      precision: t.number,
      mode: CurrencyMode,
      exchangerate: t.number,
      isdefault: t.boolean,
      formatstring: t.string,
    }),
  ],
  'Currency',
);
export type Currency = t.TypeOf<typeof Currency>;

/** Default precision is 2. */
export const DEFAULT_MONEY_PRECISION = 2;

/** The default currency is Euro, shown value then symbol as written in the euro area ("12,50 €"). */
export const EURO: Currency = { name: 'Euro', code: 'EUR', symbol: '€', precision: DEFAULT_MONEY_PRECISION, mode: 1, isdefault: true };

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
  currency?: Currency | null,
  settings: MoneySettings = {},
): string => {
  if (amount === null || amount === undefined || amount === '') return '';
  const c = currency ?? EURO;
  const precision = c.precision ?? DEFAULT_MONEY_PRECISION;
  const scaled = toScaled(amount, precision);
  if (scaled === undefined) return '';
  const text = scaledToText(scaled < 0n ? -scaled : scaled, precision);
  const [whole, fraction] = text.split('.');
  const value = `${group(whole, settings.thousandsSeparator ?? '')}${fraction === undefined ? '' : `${settings.decimalSeparator ?? '.'}${fraction}`}`;
  const sign = scaled < 0n ? '-' : '';
  switch (c.mode ?? 0) {
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
