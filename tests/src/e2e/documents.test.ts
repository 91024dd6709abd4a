import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 20 "Document generation" in chromium over the demo: the Print command on an invoice picks
 * the demo's Invoice template and downloads the PDF and the Word file, whose texts (pdf.js, the
 * docx XML) hold the customer 'Čačina s.r.o.' and the totals; the report template editor shows a
 * live preview of a chosen record and the spec's error text as the body is typed; an invoice of
 * 1000 lines paginates without a cut row.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'documents');

let server: Server;
let browser: Browser;
let admin: DemoApi;
let invoiceId = '';
let invoiceNumber = '';
let total = 0;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const norm = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
const money = (n: number, locale: string) => `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} €`;

const pdfPages = async (bytes: Uint8Array): Promise<string[]> => {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(norm(content.items.map((it) => ('str' in it ? it.str : '')).join(' ')));
  }
  await doc.destroy();
  return pages;
};
const docxText = async (bytes: Uint8Array): Promise<string> => {
  const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
  return norm([...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' '));
};

const templateId = async (name: string): Promise<string> => String((await admin.byName('report_template', name)).id);

/** An invoice of `lines` lines of 2 x 12.50 for the customer 'Čačina s.r.o.'. */
const invoiceWithLines = async (name: string, lines: number): Promise<string> => {
  const account = await admin.create('account', { name: 'Čačina s.r.o.', address1_city: 'Žilina' });
  const [product] = await admin.fetchRecords({ entity: { name: 'product', attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 });
  const id = await admin.create('invoice', { name, customerid: { id: account, name: 'account' }, invoicedate: '2026-11-20', duedate: '2026-12-04' });
  const line = { invoiceid: { id, name: 'invoice' }, productid: { id: String(product!.id), name: 'product' }, quantity: 2, priceperunit: 12.5, baseamount: 25, discount: 0, totalamount: 25 };
  for (let k = 0; k < lines; k += 200) {
    const batch = Array.from({ length: Math.min(200, lines - k) }, () => ({ operation: 'create', name: 'invoicedetail', object: line }));
    const r = await admin.post('/api/executemultiple', { records: batch, atomic: true });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
  }
  return id;
};

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
  invoiceId = await invoiceWithLines('E2E documents', 3);
  const inv = await admin.byName('invoice', invoiceId, 'id');
  invoiceNumber = String(inv.invoicenumber ?? '');
  total = Number(inv.totalamount ?? 0);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('document generation (issue 20)', { timeout: 120_000 }, () => {
  it('Print on an invoice (Slovak): the PDF and the Word file hold Čačina and the totals', async () => {
    expect(total).toBe(75);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => localStorage.setItem('tessera.language', 'sk'));
    await page.goto(`${server.url}/!/edit/invoice/${invoiceId}`);
    await page.getByRole('button', { name: 'Tlačiť' }).click();
    const dialog = page.getByRole('dialog', { name: 'Vytvoriť dokument' });
    await dialog.getByLabel('Šablóna').waitFor();
    await poll(() => dialog.getByLabel('Šablóna').locator('option').allTextContents()).toEqual(['Invoice', 'Invoice (Word)']);
    await shot(page, 'print-dialog-sk');

    const [pdfDownload] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Vytvoriť' }).click()]);
    expect(pdfDownload.suggestedFilename()).toBe(`Invoice ${invoiceNumber}.pdf`);
    const pdf = (await pdfPages(readFileSync((await pdfDownload.path())!))).join(' ');
    expect(pdf).toContain(`Invoice ${invoiceNumber}`);
    expect(pdf).toContain('Čačina s.r.o.');
    expect(pdf).toContain(norm(money(75, 'sk-SK')));
    expect(pdf).toContain(norm(money(25, 'sk-SK')));
    expect(pdf).toContain('3 items');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Tlačiť' }).click();
    await dialog.getByLabel('Šablóna').selectOption({ label: 'Invoice (Word)' });
    await poll(() => dialog.getByRole('radio', { name: 'Word' }).isChecked()).toBe(true);
    const [docxDownload] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Vytvoriť' }).click()]);
    expect(docxDownload.suggestedFilename()).toMatch(/\.docx$/);
    const docx = await docxText(readFileSync((await docxDownload.path())!));
    expect(docx).toContain('Čačina s.r.o.');
    expect(docx).toContain(norm(money(75, 'sk-SK')));
    await context.close();
  });

  it('the Print dialog at 360 px, dark', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/invoice/${invoiceId}`);
    await page.getByRole('button', { name: 'Tlačiť' }).click();
    await page.getByRole('dialog').getByLabel('Šablóna').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(SHOTS, 'print-dialog-360-dark-sk.png') });
    await context.close();
  });

  it("the template editor previews a chosen record live and shows the spec's error text as the body is typed", async () => {
    const id = await templateId('Invoice');
    const { context, page } = await newPage(browser, 1400, 900);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/report_template/${id}`);
    await page.getByRole('heading', { name: 'Report template: Invoice' }).waitFor().catch(async (e) => {
      await shot(page, 'debug-editor');
      throw e;
    });
    const record = page.getByLabel('Preview with');
    await record.waitFor();
    await record.selectOption(invoiceId);
    const paper = page.locator('article.doc-paper');
    await poll(async () => norm((await paper.textContent()) ?? '')).toContain('Čačina s.r.o.');
    expect(norm((await paper.textContent()) ?? '')).toContain(norm(money(75, 'en-GB')));
    await page.getByText('The template is valid.').waitFor();
    await shot(page, 'template-editor');

    const body = page.getByLabel('Body (JSON)');
    const text = await body.inputValue();
    await body.fill(text.replace('{{invoicenumber}}', '{{invoicenumber'));
    await page.getByRole('alert').filter({ hasText: 'Invalid formatted text' }).first().waitFor();
    await shot(page, 'template-editor-error');
    await body.fill(text.replaceAll('Invoice {{invoicenumber}}', 'Faktúra {{invoicenumber}}'));
    await poll(async () => norm((await paper.textContent()) ?? '')).toContain(`Faktúra ${invoiceNumber}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => String((await admin.byName('report_template', id, 'id')).body)).toContain('Faktúra {{invoicenumber}}');
    await context.close();
  });

  it('the template editor at 360 px, dark, in Slovak', async () => {
    const id = await templateId('Travel report');
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/report_template/${id}`);
    await page.getByText('Šablóna je v poriadku.').waitFor();
    await page.locator('article.doc-paper').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'template-editor-360-dark-sk');
    await context.close();
  });

  it('an invoice of 1000 lines paginates: every line whole on one page, the header on each', async () => {
    const big = await invoiceWithLines('E2E thousand lines', 1000);
    const body = JSON.stringify({
      content: [{ type: 'table', rows: 'lines', columns: [{ header: 'No.', text: 'S{{$index}}S' }, { header: 'Product', text: '{{productid}}', width: 3 }, { header: 'Amount', text: '{{totalamount | money}} E{{$index}}E', width: 2, align: 'right' }] }],
      variables: { lines: { entity: 'invoicedetail', parentField: 'invoiceid', orderBy: 'createdon' } },
    });
    const started = Date.now();
    const r = await fetch(`${server.url}/api/document`, { method: 'POST', headers: admin.headers, body: JSON.stringify({ entity: 'invoice', id: big, body, format: 'pdf' }) });
    expect(r.status).toBe(200);
    const pages = await pdfPages(new Uint8Array(await r.arrayBuffer()));
    console.log(`1000-line invoice: ${pages.length} pages in ${Date.now() - started} ms`);
    expect(pages.length).toBeGreaterThan(10);
    for (const p of pages) expect(p.startsWith('No. Product Amount')).toBe(true);
    for (let k = 1; k <= 1000; k++) {
      const at = pages.findIndex((p) => p.includes(`S${k}S`));
      expect(at, `line ${k}`).toBeGreaterThanOrEqual(0);
      expect(pages[at].includes(`E${k}E`), `line ${k} whole on page ${at + 1}`).toBe(true);
    }
  });
});
