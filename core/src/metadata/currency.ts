import * as t from 'io-ts';

/**
 * Currency (spec 000 section 3, spec 002 section 3): id, name, code, symbol, precision (default 2),
 * mode (0 symbol first, 1 value then symbol, 2 code first, 3 value then code), exchangerate,
 * isdefault, formatstring. The default currency is Euro.
 */
export const CurrencyMode = t.union([t.literal(0), t.literal(1), t.literal(2), t.literal(3)], 'CurrencyMode');
export type CurrencyMode = t.TypeOf<typeof CurrencyMode>;
export const CURRENCY_MODES = { symbolFirst: 0, valueThenSymbol: 1, codeFirst: 2, valueThenCode: 3 } as const;
export const DEFAULT_CURRENCY_PRECISION = 2;

export const Currency = t.intersection(
  [
    t.type({ id: t.string, name: t.string, code: t.string, symbol: t.string }),
    t.partial({
      precision: t.number,
      mode: CurrencyMode,
      exchangerate: t.number,
      isdefault: t.boolean,
      formatstring: t.union([t.string, t.null]),
    }),
  ],
  'Currency',
);
export type Currency = t.TypeOf<typeof Currency>;

/** The built-in default currency. Its id is fixed so that every organization's Euro is the same row. */
export const EURO: Currency = {
  id: '00000000-0000-4000-8000-000000000978',
  name: 'Euro',
  code: 'EUR',
  symbol: '€',
  precision: DEFAULT_CURRENCY_PRECISION,
  mode: 1,
  exchangerate: 1,
  isdefault: true,
  formatstring: null,
};

/** Precision and mode with their defaults applied. */
export const currencyPrecision = (c: Pick<Currency, 'precision'>): number => c.precision ?? DEFAULT_CURRENCY_PRECISION;
export const currencyMode = (c: Pick<Currency, 'mode'>): CurrencyMode => c.mode ?? 0;
