import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderReportDocx, renderReportPdf, ReportDocumentRenderer } from '@tessera/adapters-graph';
import { INVOICE_TEMPLATE, layoutReport, type DocumentModel, type ReportBody, type TemplateError } from '@tessera/core/internal';

/** The text of each page of a PDF (pdf.js), whitespace folded. */
export const pdfPages = async (bytes: Uint8Array): Promise<string[]> => {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' ').replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return pages;
};

/** The text of a Word file's body (word/document.xml's runs). */
export const docxText = async (bytes: Uint8Array): Promise<string> => {
  const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
  return [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' ');
};

const ok = <A>(x: Either<TemplateError, A>): A => {
  if (isLeft(x)) throw new Error(x.left.message + (x.left.detail ? `: ${x.left.detail}` : ''));
  return x.right;
};

const invoice = (lines: number) => ({
  invoicenumber: 'INV-00042',
  name: 'Pump service',
  customerid: { id: 'a', name: 'account', label: 'Čačina s.r.o.' },
  invoicedate: '2026-11-05',
  duedate: '2026-11-19',
  totalamount: lines * 12.5,
  lines: Array.from({ length: lines }, (_, k) => ({ productid: { id: String(k), name: 'product', label: `Ventil ${k + 1}` }, quantity: 1, priceperunit: 12.5, discount: 0, totalamount: 12.5 })),
});
const norm = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');

describe('issue 20: report documents (pdfkit and docx)', () => {
  it('an invoice PDF holds the customer (Slovak letters), its lines and the totals', async () => {
    const model = ok(layoutReport(INVOICE_TEMPLATE, invoice(3)));
    const text = norm((await pdfPages(ok(await renderReportPdf(model)))).join(' '));
    expect(text).toContain('Invoice INV-00042');
    expect(text).toContain('Čačina s.r.o.');
    expect(text).toContain('Ventil 3');
    expect(text).toContain('37,50 €');
  });
  it('the same invoice as Word: the document XML holds the same texts', async () => {
    const model = ok(layoutReport(INVOICE_TEMPLATE, invoice(3)));
    const text = norm(await docxText(ok(await renderReportDocx(model))));
    expect(text).toContain('Čačina s.r.o.');
    expect(text).toContain('37,50 €');
    expect(text).toContain('Ventil 2');
  });
  it('1000 line items paginate: every row whole on one page, the header on each page', async () => {
    const body: ReportBody = {
      content: [{ type: 'table', rows: 'lines', columns: [{ header: 'Start', text: 'S{{$index}}S' }, { header: 'Product', text: '{{productid}}', width: 3 }, { header: 'End', text: 'E{{$index}}E', align: 'right' }] }],
    };
    const model = ok(layoutReport(body, invoice(1000)));
    const pages = await pdfPages(ok(await renderReportPdf(model)));
    expect(pages.length).toBeGreaterThan(10);
    for (const p of pages) expect(p.startsWith('Start Product End')).toBe(true);
    for (let k = 1; k <= 1000; k++) {
      const holding = pages.findIndex((p) => p.includes(`S${k}S`));
      expect(holding, `row ${k}`).toBeGreaterThanOrEqual(0);
      expect(pages[holding].includes(`E${k}E`), `row ${k} whole on page ${holding + 1}`).toBe(true);
    }
  });
  it('the server draws on a drawing thread: the same bytes come back, and a template error as a value', async () => {
    const renderer = new ReportDocumentRenderer();
    const model = ok(layoutReport(INVOICE_TEMPLATE, invoice(3)));
    const pdf = ok(await renderer.render(model, 'pdf'));
    expect(norm((await pdfPages(pdf)).join(' '))).toContain('Čačina s.r.o.');
    const docx = ok(await renderer.render(model, 'docx'));
    expect(norm(await docxText(docx))).toContain('37,50 €');
    const tall = ok(layoutReport({ content: [{ type: 'grid', cells: Array.from({ length: 200 }, (_, k) => [`row ${k}`]) }] }, {}));
    const r = await renderer.render(tall, 'pdf');
    expect(isLeft(r) && r.left.message).toBe('PDF cannot split grid to page');
  });
  it("a grid taller than a page is 'PDF cannot split grid to page'", async () => {
    const model: DocumentModel = ok(layoutReport({ content: [{ type: 'grid', cells: Array.from({ length: 200 }, (_, k) => [`row ${k}`]) }] }, {}));
    const r = await renderReportPdf(model);
    expect(isLeft(r) && r.left.message).toBe('PDF cannot split grid to page');
  });
  it("an image over 2000 px or not an image is 'Invalid template format'", async () => {
    const png = Buffer.alloc(33);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(2001, 16);
    png.writeUInt32BE(10, 20);
    const big = ok(layoutReport({ images: { logo: `data:image/png;base64,${png.toString('base64')}` }, content: [{ type: 'image', image: 'logo' }] }, {}));
    const r = await renderReportPdf(big);
    expect(isLeft(r) && r.left.message).toBe('Invalid template format');
    const junk = ok(layoutReport({ images: { logo: 'aGVsbG8=' }, content: [{ type: 'image', image: 'logo' }] }, {}));
    const d = await renderReportDocx(junk);
    expect(isLeft(d) && d.left.message).toBe('Invalid template format');
    expect(isRight(await renderReportPdf(ok(layoutReport({ content: [] }, {}))))).toBe(true);
  });
});
