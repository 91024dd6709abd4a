import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { divRound, rescale, roundDecimal, scaledToNumber, scaledToText, sumDecimal, toScaled } from './decimal.js';

describe('exact decimals: scaled integers, rounding half away from zero', () => {
  it.each([
    [1.005, 2, 101n],
    [2.675, 2, 268n],
    [-1.005, 2, -101n],
    [0.125, 2, 13n],
    [-0.125, 2, -13n],
    [1e21, 0, 1000000000000000000000n],
    [1.5e-7, 8, 15n],
    ['12.345', 2, 1235n],
    ['-0', 2, 0n],
  ] as const)('%s at %i decimals is %s', (value, places, expected) => {
    expect(toScaled(value, places)).toBe(expected);
  });

  it('rejects what is not a decimal number', () => {
    for (const v of ['', 'abc', '1.2.3', Number.NaN, Number.POSITIVE_INFINITY, '.']) expect(toScaled(v, 2)).toBeUndefined();
  });

  it('has no binary drift: 0.1 + 0.2 is 0.3 and round(1.005, 2) is 1.01', () => {
    expect(sumDecimal([0.1, 0.2])).toBe(0.3);
    expect(roundDecimal(1.005, 2)).toBe(1.01);
  });

  it('property: divRound is the nearest integer, ties away from zero', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (n, d) => {
        const q = divRound(n, d);
        const twice = 2n * (n - q * d);
        // |n/d - q| <= 1/2, and a tie goes away from zero.
        expect(twice <= d && twice >= -d).toBe(true);
        if (twice === d) expect(n < 0n).toBe(true);
        if (twice === -d) expect(n > 0n).toBe(true);
        expect(divRound(-n, d)).toBe(-q);
      }),
    );
  });

  it('property: a 2-decimal amount survives number -> scaled -> number and text unchanged', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }), (cents) => {
        const n = scaledToNumber(cents, 2);
        expect(toScaled(n, 2)).toBe(cents);
        expect(toScaled(scaledToText(cents, 2), 2)).toBe(cents);
      }),
    );
  });

  it('property: summing cents exactly is associative and matches integer addition', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 30 }), (cents) => {
        expect(sumDecimal(cents.map((c) => c / 100))).toBe(scaledToNumber(BigInt(cents.reduce((a, b) => a + b, 0)), 2));
      }),
    );
  });

  it('property: rescaling up then down is the identity', () => {
    fc.assert(fc.property(fc.bigInt(), fc.nat(6), fc.nat(6), (u, a, b) => {
        expect(rescale(rescale(u, a, a + b), a + b, a)).toBe(u);
      }),
    );
  });
});
