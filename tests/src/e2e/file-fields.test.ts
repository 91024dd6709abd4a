import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 18 "File and image fields" in chromium, on the demo's product form (its Image field
 * `image` and File field `datasheet`): an image chosen is made smaller in the browser to the
 * field's maximum (1200 px), uploaded when the record is saved, and the field stores the blob
 * NAME; the preview dialog CloudFilePreview shows it, turns it and saves it (the turned image is
 * uploaded with the next record save); a zip shows its entries; arrows move, 'No more files' at
 * the ends, Escape closes. An upload failure says 'Server Error: {text}' with the status and
 * the record is not saved.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'file-fields');

/** A zip of readme.txt (5 bytes, 2024-03-15 10:30:42) and docs/Návod k obsluze.pdf, written by Python's zipfile. */
const ZIP =
  'UEsDBBQAAAAAANVTb1iGphA2BQAAAAUAAAAKAAAAcmVhZG1lLnR4dGhlbGxvUEsDBBQAAAAAAOBTb1gAAAAAAAAAAAAAAAAFAAAAZG9jcy9QSwMEFAAACAAAfb+fV/s+9/4xAAAAMQAAABkAAABkb2NzL07DoXZvZCBrIG9ic2x1emUucGRmJVBERi0xLjQgAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJ1BLAQIUAxQAAAAAANVTb1iGphA2BQAAAAUAAAAKAAAAAAAAAAAAAACAAQAAAAByZWFkbWUudHh0UEsBAhQDFAAAAAAA4FNvWAAAAAAAAAAAAAAAAAUAAAAAAAAAAAAAAIABLQAAAGRvY3MvUEsBAhQDFAAACAAAfb+fV/s+9/4xAAAAMQAAABkAAAAAAAAAAAAAAIABUAAAAGRvY3MvTsOhdm9kIGsgb2JzbHV6ZS5wZGZQSwUGAAAAAAMAAwCyAAAAuAAAAAkAYSBjb21tZW50';

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
};

/** A photo-like JPEG of width x height drawn by the page's canvas (a gradient and a marker in the top left corner). */
const jpeg = async (page: Page, width: number, height: number): Promise<Buffer> => {
  const b64 = await page.evaluate(
    ([w, h]) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const g = c.getContext('2d')!;
      const grad = g.createLinearGradient(0, 0, w, h);
      grad.addColorStop(0, '#1e88e5');
      grad.addColorStop(1, '#43a047');
      g.fillStyle = grad;
      g.fillRect(0, 0, w, h);
      g.fillStyle = '#e53935';
      g.fillRect(0, 0, w / 4, h / 4);
      g.fillStyle = '#ffffff';
      g.font = `${Math.round(h / 6)}px sans-serif`;
      g.fillText('Tessera', w / 3, h / 2);
      return c.toDataURL('image/jpeg', 0.9).split(',')[1];
    },
    [width, height] as const,
  );
  return Buffer.from(b64, 'base64');
};

const newProduct = (name: string) => admin.create('product', { name, listprice: 10 });
const stored = async (id: string) => admin.byName('product', id, 'id');
/** The natural size of the image an address serves, as the page loads it. */
const naturalSize = (page: Page, url: string) =>
  page.evaluate(
    (src) =>
      new Promise<{ width: number; height: number }>((ok, fail) => {
        const img = new Image();
        img.onload = () => ok({ width: img.naturalWidth, height: img.naturalHeight });
        img.onerror = () => fail(new Error(`cannot load ${src}`));
        img.src = src;
      }),
    url,
  );
const field = (page: Page, name: string) => page.locator(`.file-field[data-file-field="${name}"]`);
const thumbUrl = (page: Page, name: string) => field(page, name).locator('.file-thumb img').getAttribute('src');

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

describe('file and image fields on the product form (issue 18)', { timeout: 150_000 }, () => {
  it('an image is made smaller to 1200 px in the browser, uploaded when the record is saved, and the field keeps the blob name', async () => {
    const id = await newProduct('E2E image product');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/product/${id}`);
    const image = field(page, 'image');
    await image.getByRole('button', { name: 'Choose an image' }).waitFor();
    const blobCalls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/blob?')) blobCalls.push(r.url());
    });

    await image.locator('input[type=file]').setInputFiles({ name: 'workshop.jpg', mimeType: 'image/jpeg', buffer: await jpeg(page, 2400, 1600) });
    await image.getByText('Made smaller to 1200 × 800 px').waitFor();
    await image.getByText('Uploaded when the record is saved').waitFor();
    expect(blobCalls).toEqual([]);
    await shot(page, 'image-field-pending-desktop');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    expect(blobCalls.length).toBe(1);
    // The field stores the blob NAME (<random id>.<ext>), never an address.
    await poll(async () => String((await stored(id)).image ?? '')).toMatch(/^[A-Za-z0-9_-]+\.jpg$/);
    const name = String((await stored(id)).image);
    await poll(() => thumbUrl(page, 'image')).toContain(`/api/blob/${ORG}/${name}?`);
    expect(await naturalSize(page, (await thumbUrl(page, 'image'))!)).toEqual({ width: 1200, height: 800 });
    await image.getByText('Uploaded when the record is saved').waitFor({ state: 'detached' });
    await context.close();
  });

  it('the preview: rotate, save (uploaded with the record), a zip lists its entries, arrows move, No more files, Escape closes', async () => {
    const id = await newProduct('E2E preview product');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/product/${id}`);
    const image = field(page, 'image');
    await image.getByRole('button', { name: 'Choose an image' }).waitFor();
    await image.locator('input[type=file]').setInputFiles({ name: 'machine.jpg', mimeType: 'image/jpeg', buffer: await jpeg(page, 1800, 1200) });
    await field(page, 'datasheet').locator('input[type=file]').setInputFiles({ name: 'bundle.zip', mimeType: 'application/zip', buffer: Buffer.from(ZIP, 'base64') });
    await field(page, 'datasheet').getByText('bundle.zip').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await poll(async () => String((await stored(id)).datasheet ?? '')).toMatch(/\.zip$/);
    const before = String((await stored(id)).image);
    await shot(page, 'file-fields-saved-desktop');

    // Open the image's preview.
    await image.locator('.file-name').click();
    const dialog = page.locator('dialog#CloudFilePreview');
    await dialog.waitFor();
    const img = dialog.locator('.file-preview-image img');
    await poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1200);
    await dialog.getByText('1 of 2').waitFor();
    await dialog.getByRole('button', { name: 'Rotate left' }).click();
    await dialog.getByRole('button', { name: 'Rotate right' }).click();
    await dialog.getByRole('button', { name: 'Rotate right' }).click();
    expect(await img.getAttribute('data-turns')).toBe('1');
    await page.waitForTimeout(400); // the turn's transition
    await shot(page, 'preview-image-turned-desktop');
    // ArrowLeft at the first file: 'No more files'.
    await page.keyboard.press('ArrowLeft');
    await dialog.getByText('No more files').waitFor();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText('The turned image is uploaded when the record is saved.').waitFor();
    expect(await img.getAttribute('data-turns')).toBe('0');
    await poll(() => img.evaluate((el: HTMLImageElement) => el.complete && `${el.naturalWidth}x${el.naturalHeight}`)).toBe('800x1200');

    // ArrowRight: the datasheet zip, its entries with modified date and size; then No more files.
    await page.keyboard.press('ArrowRight');
    await dialog.getByText('2 of 2').waitFor();
    await dialog.getByRole('heading', { name: 'bundle.zip' }).waitFor();
    const rows = dialog.locator('.zip-table tbody tr');
    await poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/readme\.txt\s+Mar 15, 2024, 10:30 AM\s+5 B/);
    await expect.poll(() => rows.nth(1).innerText()).toMatch(/docs\/Návod k obsluze\.pdf\s+Dec 31, 2023, 11:59 PM\s+49 B/);
    await shot(page, 'preview-zip-desktop');
    await page.keyboard.press('ArrowRight');
    await dialog.getByText('No more files').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The turned image is the field's pending file: saved with the record, 800 x 1200 now.
    await image.getByText('Uploaded when the record is saved').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => String((await stored(id)).image)).not.toBe(before);
    const after = String((await stored(id)).image);
    await poll(() => thumbUrl(page, 'image')).toContain(after);
    expect(await naturalSize(page, (await thumbUrl(page, 'image'))!)).toEqual({ width: 800, height: 1200 });
    await context.close();
  });

  it("an upload failure says 'Server Error: {text}' with the status, and the record is not saved", async () => {
    const id = await newProduct('E2E failing upload');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.route('**/api/blob?**', (route) => route.fulfill({ status: 413, contentType: 'text/plain', body: 'ERR_TOO_LARGE: the file is over the limit of 25 MB' }));
    await page.goto(`${server.url}/!/edit/product/${id}`);
    const image = field(page, 'image');
    await image.getByRole('button', { name: 'Choose an image' }).waitFor();
    await page.locator('#f-name').fill('E2E failing upload, renamed');
    await image.locator('input[type=file]').setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: await jpeg(page, 900, 600) });
    await image.getByText('Uploaded when the record is saved').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const message = 'Server Error: ERR_TOO_LARGE: the file is over the limit of 25 MB (413)';
    await page.locator('dialog.modal[open]').getByText(message).waitFor();
    await shot(page, 'upload-failure-desktop');
    await page.locator('dialog.modal[open]').getByRole('button', { name: 'OK' }).click();
    await image.getByRole('alert').getByText(message).waitFor();
    // Nothing was written: not the name, not a reference to a blob that is not there.
    const r = await stored(id);
    expect(r.name).toBe('E2E failing upload');
    expect(r.image ?? null).toBeNull();
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak (screenshots)', async () => {
    const id = await newProduct('E2E mobile product');
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/product/${id}`);
    const image = field(page, 'image');
    await image.getByRole('button', { name: 'Vybrať obrázok' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await image.scrollIntoViewIfNeeded();
    await shot(page, 'image-field-empty-360-dark-sk');
    await image.locator('input[type=file]').setInputFiles({ name: 'fotka.jpg', mimeType: 'image/jpeg', buffer: await jpeg(page, 1600, 2400) });
    await image.getByText('Zmenšené na 800 × 1200 px').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await image.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'image-field-pending-360-dark-sk');
    await image.locator('.file-name').click();
    const dialog = page.locator('dialog#CloudFilePreview');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Otočiť doprava' }).click();
    await page.keyboard.press('ArrowRight');
    await dialog.getByText('Žiadne ďalšie súbory').waitFor();
    await page.waitForTimeout(400); // the turn's transition
    await shot(page, 'preview-360-dark-sk');
    await context.close();
  });
});
