import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeUtf8, dosDateTime, zipListing, type ZipEntry } from './zip-listing.js';

/** A zip written by Python's zipfile: readme.txt, the folder docs/ and docs/Návod k obsluze.pdf (UTF-8 flag), a comment. */
const PYTHON_ZIP =
  'UEsDBBQAAAAAANVTb1iGphA2BQAAAAUAAAAKAAAAcmVhZG1lLnR4dGhlbGxvUEsDBBQAAAAAAOBTb1gAAAAAAAAAAAAAAAAFAAAAZG9jcy9QSwMEFAAACAAAfb+fV/s+9/4xAAAAMQAAABkAAABkb2NzL07DoXZvZCBrIG9ic2x1emUucGRmJVBERi0xLjQgAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJ1BLAQIUAxQAAAAAANVTb1iGphA2BQAAAAUAAAAKAAAAAAAAAAAAAACAAQAAAAByZWFkbWUudHh0UEsBAhQDFAAAAAAA4FNvWAAAAAAAAAAAAAAAAAUAAAAAAAAAAAAAAIABLQAAAGRvY3MvUEsBAhQDFAAACAAAfb+fV/s+9/4xAAAAMQAAABkAAAAAAAAAAAAAAIABUAAAAGRvY3MvTsOhdm9kIGsgb2JzbHV6ZS5wZGZQSwUGAAAAAAMAAwCyAAAAuAAAAAkAYSBjb21tZW50';
const base64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** A little-endian byte writer for the archives the tests build. */
const bytesOf = (parts: Array<[number, number] | Uint8Array>): Uint8Array => {
  const out: number[] = [];
  for (const p of parts) {
    if (p instanceof Uint8Array) out.push(...p);
    else for (let k = 0, [v, width] = p; k < width; k++) out.push(width === 8 ? Math.floor(v / 2 ** (8 * k)) % 256 : (v >>> (8 * k)) & 0xff);
  }
  return Uint8Array.from(out);
};
const utf8 = (s: string) => new TextEncoder().encode(s);

type Spec = { name: string; size: number; date: [number, number, number, number, number, number]; zip64?: boolean; unicodeExtra?: boolean };
const dos = ([y, mo, d, h, mi, s]: Spec['date']) => ({ date: ((y - 1980) << 9) | (mo << 5) | d, time: (h << 11) | (mi << 5) | (s >> 1) });

/**
 * The central directory of `specs` (local headers are not read by a listing: `lead` stands for
 * the file data before it), then the end record, as zip64 when `zip64End`.
 */
const archive = (specs: Spec[], { lead = 0, zip64End = false, comment = '' } = {}): { bytes: Uint8Array; cdOffset: number } => {
  const headers = specs.map((s) => {
    const { date, time } = dos(s.date);
    const name = s.unicodeExtra ? utf8('plain-name') : utf8(s.name);
    const extras: Uint8Array[] = [];
    if (s.zip64) extras.push(bytesOf([[0x0001, 2], [8, 2], [s.size, 8]]));
    if (s.unicodeExtra) {
      const u = utf8(s.name);
      extras.push(bytesOf([[0x7075, 2], [5 + u.length, 2], [1, 1], [0, 4], u]));
    }
    const extra = bytesOf(extras);
    return bytesOf([
      [0x02014b50, 4], [20, 2], [20, 2], [s.unicodeExtra ? 0 : 0x0800, 2], [0, 2], [time, 2], [date, 2], [0, 4],
      [s.zip64 ? 0xffffffff : s.size, 4], [s.zip64 ? 0xffffffff : s.size, 4],
      [name.length, 2], [extra.length, 2], [0, 2], [0, 2], [0, 2], [0, 4], [0, 4], name, extra,
    ]);
  });
  const cd = bytesOf(headers);
  const cdOffset = lead;
  const tail: Uint8Array[] = [];
  if (zip64End) {
    const at = lead + cd.length;
    tail.push(bytesOf([[0x06064b50, 4], [44, 8], [45, 2], [45, 2], [0, 4], [0, 4], [specs.length, 8], [specs.length, 8], [cd.length, 8], [cdOffset, 8]]));
    tail.push(bytesOf([[0x07064b50, 4], [0, 4], [at, 8], [1, 4]]));
  }
  const c = utf8(comment);
  tail.push(bytesOf([[0x06054b50, 4], [0, 2], [0, 2], [zip64End ? 0xffff : specs.length, 2], [zip64End ? 0xffff : specs.length, 2], [zip64End ? 0xffffffff : cd.length, 4], [zip64End ? 0xffffffff : cdOffset, 4], [c.length, 2], c]));
  return { bytes: bytesOf([new Uint8Array(lead), cd, ...tail]), cdOffset };
};
const iso = ([y, mo, d, h, mi, s]: Spec['date']) => `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s - (s % 2)).padStart(2, '0')}`;
const expected = (specs: Spec[]): ZipEntry[] => specs.filter((s) => !s.name.endsWith('/')).map((s) => ({ name: s.name, modified: iso(s.date), size: s.size }));

const specArb: fc.Arbitrary<Spec> = fc.record({
  name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
  size: fc.integer({ min: 0, max: 2 ** 42 }),
  date: fc.tuple(fc.integer({ min: 1980, max: 2107 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })),
  unicodeExtra: fc.boolean(),
}).map((s) => ({ ...s, zip64: s.size >= 0xffffffff }));

describe('zip listing (spec 001 section 7: zip previews show only file name, modified date and size)', () => {
  it('lists a zip written by another tool: names (UTF-8 too), modified dates and sizes, folders left out', () => {
    const r = zipListing(base64(PYTHON_ZIP));
    expect(r).toEqual({
      _tag: 'Listed',
      total: 2,
      entries: [
        { name: 'readme.txt', modified: '2024-03-15T10:30:42', size: 5 },
        { name: 'docs/Návod k obsluze.pdf', modified: '2023-12-31T23:59:58', size: 49 },
      ],
    });
  });

  it('property: every archive written lists back its files, in order (zip64 sizes, Unicode path extras, comments)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { maxLength: 12 }), fc.nat(300), fc.boolean(), fc.string({ maxLength: 40 }), (specs, lead, zip64End, comment) => {
        const { bytes } = archive(specs, { lead, zip64End, comment });
        expect(zipListing(bytes)).toEqual({ _tag: 'Listed', entries: expected(specs), total: expected(specs).length });
      }),
    );
  });

  it('property: a tail of the file that reaches the central directory lists the same; a shorter one says where to read from', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 6 }), fc.nat(500), fc.nat(600), (specs, lead, cut) => {
        const { bytes, cdOffset } = archive(specs, { lead });
        const from = Math.min(cut, bytes.length - 22);
        const r = zipListing(bytes.subarray(from), { tailOffset: from });
        if (from <= cdOffset) expect(r).toEqual({ _tag: 'Listed', entries: expected(specs), total: expected(specs).length });
        else expect(r).toEqual({ _tag: 'Incomplete', from: cdOffset });
      }),
    );
  });

  it('shows at most maxEntries rows and counts them all', () => {
    const specs: Spec[] = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, size: i, date: [2020, 1, 1, 0, 0, 0] }));
    const r = zipListing(archive(specs).bytes, { maxEntries: 2 });
    expect(r).toEqual({ _tag: 'Listed', total: 5, entries: expected(specs).slice(0, 2) });
  });

  it('names without the UTF-8 flag are code page 437', () => {
    const { bytes } = archive([{ name: 'x', size: 1, date: [2020, 1, 1, 0, 0, 0] }]);
    // clear the UTF-8 flag and put 0x81 ('ü' in CP437) as the name
    bytes[8] = 0;
    bytes[9] = 0;
    bytes[46] = 0x81;
    expect(zipListing(bytes)).toMatchObject({ _tag: 'Listed', entries: [{ name: 'ü' }] });
  });

  it('anything else is not a zip (never a throw): empty, random bytes, a truncated or lying end record', () => {
    expect(zipListing(new Uint8Array())).toEqual({ _tag: 'NotZip' });
    expect(zipListing(utf8('%PDF-1.7 not a zip at all, just text long enough'))).toEqual({ _tag: 'NotZip' });
    const { bytes } = archive([{ name: 'a', size: 1, date: [2020, 1, 1, 0, 0, 0] }]);
    const lying = bytes.slice();
    lying[lying.length - 6] = 0xff; // central directory offset beyond the file
    expect(zipListing(lying)).toEqual({ _tag: 'NotZip' });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(), (junk, at) => {
        const r = zipListing(junk);
        expect(['NotZip', 'Listed', 'Incomplete']).toContain(r._tag);
        // a real archive with one byte changed anywhere: still an answer, never a throw
        const b = bytes.slice();
        b[at % b.length] ^= 0xff;
        expect(['NotZip', 'Listed', 'Incomplete']).toContain(zipListing(b)._tag);
      }),
    );
  });

  it('decodes UTF-8 as the platform does, invalid sequences as U+FFFD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeUtf8(utf8(s))).toBe(s);
      }),
    );;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 50 }), (b) => {
        expect(decodeUtf8(b)).toBe(new TextDecoder().decode(b));
      }),
    );
  });

  it('DOS times: seconds in steps of two, a zero date is 1980-01-01', () => {
    expect(dosDateTime(0, 0)).toBe('1980-01-01T00:00:00');
    expect(dosDateTime(((2024 - 1980) << 9) | (2 << 5) | 29, (13 << 11) | (5 << 5) | 29)).toBe('2024-02-29T13:05:58');
  });
});
