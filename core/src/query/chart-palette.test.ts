import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHART_PALETTE_SEED, chartPalette, hsvToHex } from './chart-palette.js';

/** randomColor({ hue: 'blue', seed: 32452334, count: n }) as the library answers (0.6.2, first call in a page). */
const GOLDEN: Record<number, string[]> = {
  1: ['#3371b2'],
  2: ['#3394b2', '#9ad6ea'],
  3: ['#3368b2', '#9adeea', '#828ddd'],
  5: ['#3388b2', '#9ae5ea', '#8582dd', '#74a1fc', '#192d9e'],
  8: ['#3386b2', '#9ae7ea', '#8285dd', '#7498fc', '#19439e', '#7687e8', '#1a4cd8', '#8f7cd6'],
  20: ['#3381b2', '#9aeae9', '#8a82dd', '#74a1fc', '#19749e', '#768ee8', '#1a7fd8', '#927cd6', '#96c6ea', '#40a3b7', '#8f96f7', '#6875e8', '#9c8be5', '#6aedf7', '#2d80ed', '#56c0ea', '#419fa0', '#1cb4cc', '#919bd6', '#c3bffc'],
};

/** The hue of a #rrggbb colour, in degrees. */
const hueOf = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
};

describe("chart palette (spec 001 section 9: multi-series palette, 'blue' hue with seed 32452334)", () => {
  it('uses the seed of the spec', () => {
    expect(CHART_PALETTE_SEED).toBe(32452334);
  });

  it.each(Object.entries(GOLDEN))('gives the colours randomColor gives for %s series', (n, colors) => {
    expect(chartPalette(Number(n))).toEqual(colors);
  });

  it('is pure: the same count gives the same colours every time', () => {
    expect(chartPalette(6)).toEqual(chartPalette(6));
  });

  it('property: n well-formed colours, every one a blue hue (178 to 257 degrees, give or take rounding)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), (n) => {
        const p = chartPalette(n);
        expect(p).toHaveLength(n);
        for (const c of p) {
          expect(c).toMatch(/^#[0-9a-f]{6}$/);
          const h = hueOf(c);
          expect(h).toBeGreaterThanOrEqual(175);
          expect(h).toBeLessThanOrEqual(260);
        }
      }),
    );
  });

  it('HSV to hex rounds down as the library does, and takes hue 0 and 360 as 1 and 359', () => {
    expect(hsvToHex(0, 0, 100)).toBe('#ffffff');
    expect(hsvToHex(240, 100, 100)).toBe('#0000ff');
    expect(hsvToHex(0, 100, 100)).toBe(hsvToHex(1, 100, 100));
    expect(hsvToHex(360, 100, 100)).toBe(hsvToHex(359, 100, 100));
  });
});
