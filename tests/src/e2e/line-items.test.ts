import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ROOT,
  buildUi,
  demoApi,
  launchBrowser,
  newPage,
  signIn,
  startServer,
  type DemoApi,
  type DemoRecord,
  type Server,
} from './harness.js';

/**
 * Issue 19 "Line items", the panel (spec 002 "Line-item panel", sections 3 to 5) on the demo's
 * invoice form in chromium: a product picked by search takes its listprice, a discount gives
 * total = base x (100 - discount) / 100, the lines are written with the record, and the invoice
 * total read back through the API agrees (the server's line-item rule moves it with each line);
 * quantity 0 on a stored line deletes it on save.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'line-items');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const linesOf = (invoiceId: string): Promise<DemoRecord[]> =>
  admin.fetchRecords({
    entity: {
      name: 'invoicedetail',
      allattrs: true,
      filter: { conditions: [{ attribute: 'invoiceid', operator: 'eq', value: invoiceId }] },
    },
    page: 1,
    pageSize: 50,
  });
const invoiceTotal = async (id: string): Promise<number> =>
  Number((await admin.byName('invoice', id, 'id')).totalamount ?? 0);

/** A product with a listprice whose name starts with letters no other product shares. */
const aProduct = async (): Promise<{ id: string; name: string; listprice: number }> => {
  const products = await admin.fetchRecords({
    entity: { name: 'product', attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'listprice' }] },
    page: 1,
    pageSize: 200,
  });
  const p = products.find(
    (x) =>
      Number(x.listprice) > 0 &&
      products.filter((y) => String(y.name).startsWith(String(x.name).slice(0, 8))).length === 1,
  )!;
  return { id: String(p.id), name: String(p.name), listprice: Number(p.listprice) };
};

const newInvoice = async (name: string): Promise<string> => {
  const [account] = await admin.fetchRecords({
    entity: { name: 'account', attributes: [{ attribute: 'id' }] },
    page: 1,
    pageSize: 1,
  });
  return admin.create('invoice', {
    name,
    customerid: { id: String(account!.id), name: 'account' },
    invoicedate: '2026-11-20',
  });
};

const money = (n: number) => Math.round(n * 100) / 100;

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the line-item panel on an invoice (issue 19, spec 002 "Line-item panel")', { timeout: 120_000 }, () => {
  it('a product found by search takes its listprice; with a discount the line and the invoice total agree, through the API too', async () => {
    const product = await aProduct();
    const id = await newInvoice('E2E lines');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/invoice/${id}`);
    const panel = page.locator('section.lineitems');
    await panel.getByText('No products yet. Add the first one.').waitFor();

    await panel.getByRole('button', { name: 'Add product' }).click();
    const search = panel.getByRole('combobox', { name: 'Product 1' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.pressSequentially(product.name.slice(0, 8), { delay: 30 });
    await page.getByRole('option', { name: product.name }).first().click();
    // Spec 002 section 3: priceperunit defaults from the product's listprice.
    await poll(() => panel.getByLabel('Price Per Unit 1').inputValue()).toBe(String(product.listprice));

    await panel.getByLabel('Quantity 1').fill('3');
    await panel.getByLabel('Discount (%) 1').fill('15');
    const base = money(3 * product.listprice);
    const total = money((base * 85) / 100);
    // The line's total and the invoice's total field move at once (spec 002 section 5).
    await poll(() => page.locator('#f-totalamount').inputValue()).toBe(String(total));
    await shot(page, 'line-items-desktop');
    // Another tab and back: the panel was unmounted, its unsaved line is still there and still saves.
    await page.getByRole('tab', { name: 'Notes' }).click();
    await page.getByRole('tab', { name: 'Products' }).click();
    expect(await panel.getByLabel('Quantity 1').inputValue()).toBe('3');
    expect(await page.locator('#f-totalamount').inputValue()).toBe(String(total));

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await poll(async () => (await linesOf(id)).length).toBe(1);
    const [line] = await linesOf(id);
    expect(line).toMatchObject({
      quantity: 3,
      priceperunit: product.listprice,
      discount: 15,
      baseamount: base,
      totalamount: total,
    });
    expect((line!.productid as { id: string }).id).toBe(product.id);
    // The invoice total through the API: the server's line-item rule (issue 19's last sentences).
    await poll(() => invoiceTotal(id)).toBe(total);
    await poll(() => page.locator('#f-totalamount').inputValue()).toBe(String(total));
    await context.close();
  });

  it('spec 002 section 4: quantity 0 on a stored line deletes it on save; a new line with quantity 0 is skipped', async () => {
    const product = await aProduct();
    const id = await newInvoice('E2E delete line');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/invoice/${id}`);
    const panel = page.locator('section.lineitems');
    await panel.getByRole('button', { name: 'Add product' }).click();
    await panel.getByRole('combobox', { name: 'Product 1' }).pressSequentially(product.name.slice(0, 8), { delay: 30 });
    await page.getByRole('option', { name: product.name }).first().click();
    await poll(() => panel.getByLabel('Price Per Unit 1').inputValue()).toBe(String(product.listprice));
    // a second, new line left at quantity 0: skipped
    await panel.getByRole('button', { name: 'Add product' }).click();
    await panel.getByLabel('Quantity 2').fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await poll(async () => (await linesOf(id)).length).toBe(1);
    await poll(() => invoiceTotal(id)).toBe(product.listprice);

    // The stored line's quantity to 0: struck through until saved, then gone, and the total back to 0.
    await panel.locator('tr.lineitem').first().waitFor();
    await panel.getByLabel('Quantity 1').fill('0');
    await panel.getByText('Deleted on save').waitFor();
    await poll(() => page.locator('#f-totalamount').inputValue()).toBe('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (await linesOf(id)).length).toBe(0);
    await poll(() => invoiceTotal(id)).toBe(0);
    await panel.getByText('No products yet. Add the first one.').waitFor();
    await context.close();
  });

  it('a new invoice: its lines are written once it has an id, and its total follows them', async () => {
    const product = await aProduct();
    const [account] = await admin.fetchRecords({
      entity: { name: 'account', attributes: [{ attribute: 'id' }] },
      page: 1,
      pageSize: 1,
    });
    const init = {
      name: 'E2E new with lines',
      customerid: { id: String(account!.id), name: 'account' },
      invoicedate: '2026-11-21',
    };
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/invoice/0?init=${encodeURIComponent(JSON.stringify(init))}`);
    const panel = page.locator('section.lineitems');
    await panel.getByRole('button', { name: 'Add product' }).click();
    await panel.getByRole('combobox', { name: 'Product 1' }).pressSequentially(product.name.slice(0, 8), { delay: 30 });
    await page.getByRole('option', { name: product.name }).first().click();
    await poll(() => panel.getByLabel('Price Per Unit 1').inputValue()).toBe(String(product.listprice));
    await panel.getByLabel('Quantity 1').fill('2');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/edit\/invoice\/[0-9a-f-]{36}/);
    const id = page.url().split('/').at(-1)!;
    await poll(async () => (await linesOf(id)).map((l) => l.totalamount)).toEqual([money(2 * product.listprice)]);
    await poll(() => invoiceTotal(id)).toBe(money(2 * product.listprice));
    await poll(() => page.locator('#f-totalamount').inputValue()).toBe(String(money(2 * product.listprice)));
    await context.close();
  });

  it('a demo invoice at 360 px, dark, in Slovak: the lines are cards, nothing scrolls sideways', async () => {
    const [withLines] = await admin.fetchRecords({
      entity: { name: 'invoicedetail', attributes: [{ attribute: 'invoiceid' }] },
      page: 1,
      pageSize: 1,
    });
    const invoiceId = (withLines!.invoiceid as { id: string }).id;
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/invoice/${invoiceId}`);
    const panel = page.locator('section.lineitems.narrow');
    await panel.locator('tr.lineitem').first().waitFor();
    await panel.getByRole('button', { name: 'Pridať produkt' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'line-items-360-dark-sk');
    await context.close();
  });
});
