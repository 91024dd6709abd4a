/**
 * Exact decimal arithmetic on scaled integers (bigint), so money never drifts the way binary
 * floating point does (0.1 + 0.2). A JavaScript number is read through its shortest round-trip
 * text, which is the decimal the user typed or the JSON carried: 1.005 is 1.005, not 1.00499999.
 *
 * Rounding rule everywhere: half away from zero ("commercial rounding": 0.005 -> 0.01,
 * -0.005 -> -0.01), applied once, at the precision the result is stored or shown with.
 */
export type Decimalish = number | string | bigint;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** The integer `n / d` rounded half away from zero (d > 0 or d < 0). */
export const divRound = (n: bigint, d: bigint): bigint => {
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (ad * 2n);
  return negative ? -q : q;
};

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/**
 * A decimal value as an integer count of 10^-places, rounded half away from zero.
 * Returns undefined for text that is not a decimal number, NaN or an infinity.
 */
export const toScaled = (value: Decimalish, places: number): bigint | undefined => {
  if (typeof value === 'bigint') return value * pow10(places);
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = DECIMAL.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const digits = BigInt(`${m[2] || '0'}${m[3] ?? ''}`);
  // value = digits * 10^(exponent - fractionLength); we want value * 10^places.
  const shift = places + Number(m[4] ?? 0) - (m[3] ?? '').length;
  const scaled = shift >= 0 ? digits * pow10(shift) : divRound(digits, pow10(-shift));
  return m[1] === '-' ? -scaled : scaled;
};

/** Re-scales an integer count of 10^-from to 10^-to, rounding half away from zero when precision is lost. */
export const rescale = (units: bigint, from: number, to: number): bigint =>
  to >= from ? units * pow10(to - from) : divRound(units, pow10(from - to));

/** The exact decimal text of a scaled integer: `-12.30` for (-1230n, 2). */
export const scaledToText = (units: bigint, places: number): string => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
};

/** A scaled integer as the nearest JavaScript number (exact text first, so 1230n at 2 places is 12.3). */
export const scaledToNumber = (units: bigint, places: number): number => {
  const n = Number(scaledToText(units, places));
  return Object.is(n, -0) ? 0 : n;
};

/** A number rounded half away from zero to `places` decimals, exactly (round(1.005, 2) = 1.01). */
export const roundDecimal = (value: number, places: number): number => {
  const s = toScaled(value, places);
  return s === undefined ? value : scaledToNumber(s, places);
};

/** Sums amounts exactly at `places` decimals (each rounded to it first). */
export const sumDecimal = (values: readonly Decimalish[], places = 2): number =>
  scaledToNumber(
    values.reduce<bigint>((acc, v) => acc + (toScaled(v, places) ?? 0n), 0n),
    places,
  );
