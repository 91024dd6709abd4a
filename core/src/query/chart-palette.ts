/**
 * The multi-series palette of charts (spec 001 section 9: "'blue' hue with seed 32452334").
 *
 * The spec names the options of the randomColor generator (David Merfield's randomColor 0.6.x:
 * `randomColor({ hue: 'blue', seed: 32452334, count: n })`), so the palette is that generator's
 * seeded path, rewritten here as a pure function: the same n gives the same colours, in the
 * browser and on the server, with nothing kept between calls (the library keeps its taken hue
 * ranges in module state, so only its first call in a page is reproducible; that first call is
 * what this returns). Golden values taken from the library are in chart-palette.test.ts.
 */

/** The spec's palette parameters. */
export const CHART_PALETTE_HUE = 'blue';
export const CHART_PALETTE_SEED = 32452334;

type ColorInfo = { hueRange: readonly [number, number]; lowerBounds: ReadonlyArray<readonly [number, number]> };

/** randomColor's colour dictionary (hue ranges and the lowest brightness per saturation), in its order. */
const COLORS: readonly ColorInfo[] = [
  { hueRange: [-26, 18], lowerBounds: [[20, 100], [30, 92], [40, 89], [50, 85], [60, 78], [70, 70], [80, 60], [90, 55], [100, 50]] },
  { hueRange: [18, 46], lowerBounds: [[20, 100], [30, 93], [40, 88], [50, 86], [60, 85], [70, 70], [100, 70]] },
  { hueRange: [46, 62], lowerBounds: [[25, 100], [40, 94], [50, 89], [60, 86], [70, 84], [80, 82], [90, 80], [100, 75]] },
  { hueRange: [62, 178], lowerBounds: [[30, 100], [40, 90], [50, 85], [60, 81], [70, 74], [80, 64], [90, 50], [100, 40]] },
  { hueRange: [178, 257], lowerBounds: [[20, 100], [30, 86], [40, 80], [50, 74], [60, 60], [70, 52], [80, 44], [90, 39], [100, 35]] },
  { hueRange: [257, 282], lowerBounds: [[20, 100], [30, 87], [40, 79], [50, 70], [60, 65], [70, 59], [80, 52], [90, 45], [100, 42]] },
  { hueRange: [282, 334], lowerBounds: [[20, 100], [30, 90], [40, 86], [60, 84], [80, 80], [90, 75], [100, 73]] },
];
const BLUE = COLORS[4];

/** The first colour of the dictionary whose hue range holds the hue (reds wrap below 0). */
const colorInfo = (hue: number): ColorInfo => {
  const h = hue >= 334 && hue <= 360 ? hue - 360 : hue;
  return COLORS.find((c) => h >= c.hueRange[0] && h <= c.hueRange[1]) ?? BLUE;
};

/** The lowest brightness of a hue at a saturation: linear between the dictionary's points. */
const minimumBrightness = (hue: number, s: number): number => {
  const b = colorInfo(hue).lowerBounds;
  for (let i = 0; i < b.length - 1; i++) {
    const [s1, v1] = b[i];
    const [s2, v2] = b[i + 1];
    if (s >= s1 && s <= s2) {
      const m = (v2 - v1) / (s2 - s1);
      return m * s + (v1 - m * s1);
    }
  }
  return 0;
};

/** HSV (degrees, percent, percent) to #rrggbb, as randomColor rounds it (down). */
export const hsvToHex = (h0: number, s0: number, v0: number): string => {
  const h = (h0 === 0 ? 1 : h0 === 360 ? 359 : h0) / 360;
  const s = s0 / 100;
  const v = v0 / 100;
  const i = Math.floor(h * 6);
  const f = h * 6 - i;
  const p = v * (1 - s);
  const q = v * (1 - f * s);
  const t = v * (1 - (1 - f) * s);
  const [r, g, b] = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][i] ?? [1, 1, 1];
  return `#${[r, g, b].map((c) => Math.floor(c * 255).toString(16).padStart(2, '0')).join('')}`;
};

/**
 * `count` colours of the spec's palette. Each colour takes its hue from its own slice of the
 * blue range (a slice already taken moves two slices on), then a saturation and a brightness the
 * dictionary allows for that hue; one seeded stream (x -> (9301x + 49297) mod 233280) feeds all.
 */
export const chartPalette = (count: number, seed: number = CHART_PALETTE_SEED): string[] => {
  const n = Math.max(0, Math.floor(count));
  let state = seed;
  const within = (lo: number, hi: number): number => {
    const max = hi || 1;
    const min = lo || 0;
    state = (state * 9301 + 49297) % 233280;
    return Math.floor(min + (state / 233280) * (max - min));
  };
  const taken: boolean[] = Array.from({ length: n }, () => false);
  const [from, to] = BLUE.hueRange;
  const step = (to - from) / n;
  const colors: string[] = [];
  for (let k = 0; k < n; k++) {
    let j = Math.trunc((within(from, to) - from) / step);
    if (taken[j] === true) j = (j + 2) % n;
    else taken[j] = true;
    let hue = within((from + j * step) % 359, (from + (j + 1) * step) % 359);
    if (hue < 0) hue += 360;
    const bounds = colorInfo(hue).lowerBounds;
    const [sMin, sMax] = [bounds[0][0], bounds[bounds.length - 1][0]];
    const saturation = within(sMin, sMax);
    const brightness = within(minimumBrightness(hue, saturation), 100);
    colors.push(hsvToHex(hue, saturation, brightness));
  }
  return colors;
};
