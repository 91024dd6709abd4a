import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeExport } from '@tessera/adapters-graph';
import { resolveExportOptions, type EntityRecord, type ExportOptions } from '@tessera/core/internal';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { caller, contact, memoryStore, must } from './fixtures.js';

type PdfText = { pages: string[]; width: number; height: number };

/** Reads the text back out of a PDF with pdf.js (the glyphs map back to letters through the embedded font's ToUnicode map). */
const pdfText = async (bytes: Buffer): Promise<PdfText> => {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  let width = 0;
  let height = 0;
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const vp = page.getViewport({ scale: 1 });
    [width, height] = [vp.width, vp.height];
    const content = await page.getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' ').replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return { pages, width, height };
};

const exportPdf = async (records: EntityRecord[], options: ExportOptions, columns?: string[]): Promise<Buffer> => {
  const store = memoryStore();
  if (records.length > 0) must(await store.executeMultiple(caller, records.map((object) => ({ operation: 'create', name: 'contact', object }))));
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const attributes = (columns ?? ['name', 'city', 'age', 'salary']).map((attribute) => ({ attribute }));
  must(await writeExport(store, caller, contact, { entity: { name: 'contact', attributes } }, resolveExportOptions({ format: 'pdf' }, options), new Date('2026-11-21T10:00:00Z'), out));
  return Buffer.concat(parts);
};

describe('spec 002 section 9 / issue 7 section 3: PDF export with pdfkit', () => {
  it("its fonts cover Slovak and Czech letters: the text read back holds 'Čačina, Žilina, Ťažký'", async () => {
    const pdf = await exportPdf([{ name: 'Čačina, Žilina, Ťažký', city: 'Říčany, Ľubochňa, Ôňa' }], {});
    const text = await pdfText(pdf);
    expect(text.pages.join(' ')).toContain('Čačina, Žilina, Ťažký');
    expect(text.pages.join(' ')).toContain('Říčany, Ľubochňa, Ôňa');
  });
  it('has the plural name as title and the date in Slovak short format as subtitle; A4 portrait by default', async () => {
    const text = await pdfText(await exportPdf([{ name: 'A' }], {}));
    expect(text.pages[0]).toMatch(/^Contacts 21\. 11\. 2026 Name City Age Salary A/);
    expect([Math.round(text.width), Math.round(text.height)]).toEqual([595, 842]);
  });
  it('is landscape when asked, and a totals row sums numbers and counts the rest', async () => {
    const pdf = await exportPdf(
      [
        { name: 'A', age: 30, salary: 1000.5 },
        { name: 'B', age: 12, salary: 2000 },
        { name: 'C', city: 'Nitra' },
      ],
      { orientation: 'landscape', totals: true, decimalSeparator: ',' },
    );
    const text = await pdfText(pdf);
    expect([Math.round(text.width), Math.round(text.height)]).toEqual([842, 595]);
    expect(text.pages[0]).toMatch(/3 1 42 3\s000,50$/);
  });
  it('many rows continue on further pages with the header repeated', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ name: `Row ${i}`, age: i }));
    const text = await pdfText(await exportPdf(rows, {}));
    expect(text.pages.length).toBeGreaterThan(1);
    for (const p of text.pages.slice(1)) expect(p).toMatch(/^Name City Age Salary Row/);
    expect(text.pages.join(' ')).toContain('Row 119');
  });
  it('a table wider than the page keeps every text, wrapped inside its column', async () => {
    const long = 'Žltý kôň úpel ďábelské ódy '.repeat(6).trim(); // 161 characters: within the name's max of 200
    const columns = ['name', 'city', 'notes', 'age', 'salary', 'score', 'vip', 'birthday', 'lastcall', 'kind', 'managerid'];
    const text = await pdfText(await exportPdf([{ name: long, notes: long, city: 'Banská Štiavnica', age: 7 }], {}, columns));
    const all = text.pages.join(' ');
    // each word of the long text is there: wrapped, never cut
    expect(all.split('Žltý').length - 1).toBe(12);
    expect(all.split('ódy').length - 1).toBe(12);
    expect(all).toContain('Banská Štiavnica');
  });
});
