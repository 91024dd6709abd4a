/**
 * The app's icons drawn as PNG files at build time (issue 21), without an image library: the
 * favicon's mark (index.html) — four tiles on an indigo square, the last one faded — painted into
 * RGBA pixels and written as a PNG. `deflate` is passed in (node:zlib at build time) so this module
 * stays free of Node imports and testable anywhere.
 */

export type Rgba = readonly [number, number, number, number];
/** --accent of styles.css. */
export const ICON_ACCENT: Rgba = [0x4f, 0x46, 0xe5, 255];
const WHITE: Rgba = [255, 255, 255, 255];

/**
 * `any`: the mark fills the square with rounded corners (the favicon's 7/32 radius).
 * `maskable`: the background fills the whole square (no corners of its own); the tiles stay as they
 * are, their far corners at 35 % of the size from the centre, inside the safe zone (a circle of
 * radius 40 %) that platforms keep when they cut their own shape.
 */
export type IconPurpose = 'any' | 'maskable';

/** The mark in a 32-unit square, as the favicon draws it: [x, y, size, opacity]. */
const TILES: ReadonlyArray<readonly [number, number, number, number]> = [
  [8, 8, 7, 1],
  [17, 8, 7, 1],
  [8, 17, 7, 1],
  [17, 17, 7, 0.55],
];

/** The icon's pixels, RGBA row by row; anti-aliased by 4x4 supersampling. */
export const drawIcon = (size: number, purpose: IconPurpose): Uint8Array => {
  const px = new Uint8Array(size * size * 4);
  const unit = size / 32;
  const radius = 7 * unit;
  const inRounded = (x: number, y: number): boolean => {
    if (purpose === 'maskable') return true;
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius;
  };
  const tileAt = (x: number, y: number): number => {
    const u = x / unit;
    const v = y / unit;
    for (const [tx, ty, s, a] of TILES) if (u >= tx && u < tx + s && v >= ty && v < ty + s) return a;
    return 0;
  };
  const N = 4;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let cover = 0;
      let white = 0;
      for (let sy = 0; sy < N; sy++)
        for (let sx = 0; sx < N; sx++) {
          const fx = x + (sx + 0.5) / N;
          const fy = y + (sy + 0.5) / N;
          if (!inRounded(fx, fy)) continue;
          cover++;
          white += tileAt(fx, fy);
        }
      const o = (y * size + x) * 4;
      if (cover === 0) continue;
      const w = white / cover;
      for (let c = 0; c < 3; c++) px[o + c] = Math.round(ICON_ACCENT[c] * (1 - w) + WHITE[c] * w);
      px[o + 3] = Math.round((255 * cover) / (N * N));
    }
  return px;
};

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const u32 = (n: number): Uint8Array => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

const chunk = (type: string, data: Uint8Array): Uint8Array[] => {
  const typed = new Uint8Array(4 + data.length);
  typed.set([...type].map((c) => c.charCodeAt(0)));
  typed.set(data, 4);
  return [u32(data.length), typed, u32(crc32(typed))];
};

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export const PNG_SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** A PNG of RGBA pixels (8 bits a channel, no filter): signature, IHDR, one IDAT, IEND. */
export const encodePng = (width: number, height: number, rgba: Uint8Array, deflate: (raw: Uint8Array) => Uint8Array): Uint8Array => {
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  const header = concat([u32(width), u32(height), new Uint8Array([8, 6, 0, 0, 0])]);
  return concat([PNG_SIGNATURE, ...chunk('IHDR', header), ...chunk('IDAT', deflate(raw)), ...chunk('IEND', new Uint8Array(0))]);
};
