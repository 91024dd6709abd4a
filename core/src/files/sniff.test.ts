import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blobContentType, isBlobName, newBlobName } from './blob-names.js';
import { fieldAccepts, sniffContentType } from './sniff.js';

const b = (...parts: Array<number[] | string>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

const JPEG = b([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF');
const PNG = b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR');
const BMP = b('BM', [0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0]);
const AVIF = b([0, 0, 0, 28], 'ftypavif', [0, 0, 0, 0], 'avifmif1miaf');
const ZIP_DOCX = b([0x50, 0x4b, 0x03, 0x04], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'word/document.xml');

describe('issue 18: the content type is checked by the bytes, not by the name', () => {
  it('the spec\'s image types (jpg, png, bmp, gif, webp, avif), pdf, zip and Office, text', () => {
    const cases: Array<[Uint8Array, string, string, string]> = [
      [JPEG, 'a.png', 'image/jpeg', 'jpg'],
      [PNG, 'a.jpg', 'image/png', 'png'],
      [b('GIF89a', [1, 0, 1, 0]), 'x', 'image/gif', 'gif'],
      [b('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'x', 'image/webp', 'webp'],
      [AVIF, 'x', 'image/avif', 'avif'],
      [BMP, 'x', 'image/bmp', 'bmp'],
      [b('%PDF-1.7\n'), 'report.docx', 'application/pdf', 'pdf'],
      [ZIP_DOCX, 'x.zip', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
      [b([0x50, 0x4b, 0x03, 0x04], 'xl/workbook.xml'), 'x', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
      [b([0x50, 0x4b, 0x03, 0x04], 'readme.txt'), 'x.docx', 'application/zip', 'zip'],
      [b([0x50, 0x4b, 0x03, 0x04], '[Content_Types].xml'), 'x.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
      [b('name;city\nA;Nitra\n'), 'list.csv', 'text/csv; charset=utf-8', 'csv'],
      [new TextEncoder().encode('Dobrý deň'), 'notes.exe', 'text/plain; charset=utf-8', 'txt'],
    ];
    for (const [bytes, name, type, ext] of cases) expect(sniffContentType(bytes, name), name).toMatchObject({ contentType: type, ext });
  });

  it('unknown binary (an executable, a text with NUL bytes, an empty file) is not stored', () => {
    expect(sniffContentType(b('MZ', [0x90, 0, 3, 0, 0, 0]), 'photo.jpg')).toBeNull();
    expect(sniffContentType(b('abc', [0], 'def'), 'a.txt')).toBeNull();
    expect(sniffContentType(new Uint8Array(0), 'a.txt')).toBeNull();
    expect(sniffContentType(b([0xc3, 0x28]), 'a.txt')).toBeNull();
  });

  it('a UTF-8 sequence cut at the end of the first bytes still reads as text', () => {
    const text = new TextEncoder().encode('Žltý kôň');
    expect(sniffContentType(text.slice(0, 1), 'a.txt')?.kind).toBe('text');
    expect(sniffContentType(b('a', [0xc5]), 'a.txt')?.kind).toBe('text');
  });

  it('an Image field takes images only; a File field every known type', () => {
    const pdf = sniffContentType(b('%PDF-1.4'), 'x')!;
    const png = sniffContentType(PNG, 'x')!;
    expect([fieldAccepts('Image', pdf), fieldAccepts('Image', png), fieldAccepts('File', pdf), fieldAccepts('File', png)]).toEqual([false, true, true, true]);
  });
});

describe('issue 18: blob names are a random id plus an extension by type', () => {
  it('a new name is a blob name, its type is the sniffed one', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.constantFrom('jpg', 'png', 'pdf', 'docx', 'txt'), (id, ext) => {
        const name = newBlobName(id, { ext });
        expect(isBlobName(name)).toBe(true);
        expect(name).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      }),
    );
    expect(blobContentType('0123456789abcdef0123456789abcdef.png')).toBe('image/png');
  });

  it('nothing that could leave its folder is a name: traversal, separators, other extensions', () => {
    for (const bad of ['../x.png', '0123456789abcdef0123456789abcdef.png/..', '..\\0123456789abcdef0123456789abcdef.png', '0123456789abcdef0123456789abcdef.exe', '0123456789ABCDEF0123456789abcdef.png', '', null, 3])
      expect(isBlobName(bad), String(bad)).toBe(false);
  });
});
