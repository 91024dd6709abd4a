import { describe, expect, it } from 'vitest';
import { crc32, drawIcon, encodePng, ICON_ACCENT, PNG_SIGNATURE } from './icon-png.js';
import { manifestIcons, webManifest } from './manifest.js';

const pixel = (px: Uint8Array, size: number, x: number, y: number) => Array.from(px.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));

describe('the app icons (issue 21: icons 192/512 + maskable)', () => {
  it('crc32 is the PNG checksum', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('a PNG has the signature, an IHDR of the size with RGBA 8 bits, the deflated rows and IEND', () => {
    let rawLength = 0;
    const png = encodePng(3, 2, new Uint8Array(3 * 2 * 4), (raw) => ((rawLength = raw.length), raw));
    expect(Array.from(png.subarray(0, 8))).toEqual(Array.from(PNG_SIGNATURE));
    const view = new DataView(png.buffer);
    expect(new TextDecoder().decode(png.subarray(12, 16))).toBe('IHDR');
    expect([view.getUint32(16), view.getUint32(20), png[24], png[25]]).toEqual([3, 2, 8, 6]);
    expect(view.getUint32(29)).toBe(crc32(png.subarray(12, 29)));
    expect(rawLength).toBe(2 * (3 * 4 + 1));
    expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe('IEND');
  });

  it('the icon has transparent rounded corners, the maskable one fills the square; both show white tiles on the accent', () => {
    const n = 192;
    const any = drawIcon(n, 'any');
    const mask = drawIcon(n, 'maskable');
    expect(pixel(any, n, 0, 0)[3]).toBe(0);
    expect(pixel(mask, n, 0, 0)).toEqual([...ICON_ACCENT]);
    expect(pixel(any, n, n / 2, 2)).toEqual([...ICON_ACCENT]);
    // The first tile spans 8..15 of 32 units: its middle is white.
    const mid = Math.round((11.5 / 32) * n);
    expect(pixel(any, n, mid, mid)).toEqual([255, 255, 255, 255]);
    expect(pixel(mask, n, mid, mid)).toEqual([255, 255, 255, 255]);
  });

  it('the manifest names the app, opens standalone at /, and lists 192 and 512 icons, any and maskable', () => {
    const m = webManifest();
    expect(m).toMatchObject({ name: 'Tessera', short_name: 'Tessera', start_url: '/', display: 'standalone' });
    expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(m.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifestIcons().map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);
  });
});
