import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildUi, DEMO_ORG, DEMO_PASSWORD, demoApi, launchBrowser, newPage, ROOT, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 17 "Import" in Debian's chromium against `tessera serve` with the demo: the /{appid}/import
 * screen and a list's Import Records modal. A CSV with a lookup by name and a bad date (the preview
 * names both problems, the confirmation, the result, the records in the list); Create New against
 * Update Existing; declining the confirmation writes nothing; Cancel while the batches are written.
 */
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'import-screen');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>, timeout = 20_000) => expect.poll(read, { timeout, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
/** The confirmation and alert host of the app (ui/dialogs.tsx). */
const question = (page: Page) => page.locator('dialog[aria-describedby="app-dialog-message"]');
const upload = (scope: Page | Locator, name: string, text: string) =>
  scope.locator('.import-panel input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
const contactsNamed = (prefix: string) => admin.count('contact', { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: `${prefix}%` }] });

const openImportPage = async (page: Page, entity = 'contact') => {
  await page.goto(`${server.url}/!/import`);
  try {
    await page.getByLabel('Import Object').selectOption(entity);
  } catch (e) {
    await shot(page, 'failed-open');
    throw e;
  }
};

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

describe('Import (issue 17)', { timeout: 180_000 }, () => {
  it('a CSV with a lookup by name and a bad date: the preview shows both problems, the confirmation counts, the result, and the records are in the list', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    const [account] = await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'name' }] }, page: 1, pageSize: 1 });
    await openImportPage(page);
    await shot(page, 'import-empty');
    const csv = `name;parentcustomerid;birthdate;jobtitle;shoe size\r\nImpA Ada;${String(account.name)};1.2.1990;Buyer;42\r\nImpA Bob;No Such Account Ltd;31.02.xx;${'Clerk '.repeat(20)};43\r\n`;
    await upload(page, 'contacts.csv', csv);
    const grid = page.locator('table.import-grid');
    await grid.waitFor();
    await expect(page.locator('.import-count-create dd').textContent()).resolves.toBe('2');
    const bob = grid.locator('tbody tr').nth(1);
    await expect(bob.locator('.import-problems').textContent()).resolves.toContain("birthdate: '31.02.xx' is not a date; left empty");
    await expect(bob.locator('.import-problems').textContent()).resolves.toContain("parentcustomerid: 'No Such Account Ltd' no account is named so; left empty");
    await expect(bob.locator('.import-problems').textContent()).resolves.toContain('jobtitle: the text of 120 characters was cut to 100');
    await expect(grid.locator('tbody tr').first().locator('.import-mark').textContent()).resolves.toBe('Create');
    await expect(page.locator('.import-ignored').textContent()).resolves.toContain('shoe size');
    await shot(page, 'import-preview');
    await page.getByRole('toolbar', { name: 'Import' }).getByRole('button', { name: 'Import', exact: true }).click();
    await expect(question(page).locator('.modal-message').textContent()).resolves.toBe('Import will Create 2 record(s) Update 0 record(s) continue?');
    await shot(page, 'import-confirm');
    await question(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.locator('.import-outcome').waitFor();
    await expect(page.locator('.import-outcome-head').textContent()).resolves.toBe('Imported: 2 records');
    await shot(page, 'import-result');
    const ada = await admin.byName('contact', 'ImpA Ada');
    expect((ada.parentcustomerid as { id: string }).id).toBe(account.id);
    expect(ada.birthdate).toMatch(/^1990-02-01/);
    const bobRecord = await admin.byName('contact', 'ImpA Bob');
    expect(bobRecord.birthdate ?? null).toBeNull();
    expect(bobRecord.parentcustomerid ?? null).toBeNull();
    // The records are visible in the list.
    await page.goto(`${server.url}/!/list/contact`);
    await page.getByRole('searchbox').first().fill('ImpA');
    await poll(() => page.locator('.grid tbody a.row-link').allTextContents()).toEqual(expect.arrayContaining(['ImpA Ada', 'ImpA Bob']));
    await context.close();
  });

  it("Create New vs Update Existing, from the list's Import Records modal (the object selector turned off)", async () => {
    await admin.create('contact', { name: 'ImpB Eva', jobtitle: 'Intern' });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await page.goto(`${server.url}/!/list/contact`);
    await page.getByRole('toolbar').getByRole('button', { name: 'Import', exact: true }).click();
    const modal = page.locator('dialog#importRecordsDialog');
    await modal.waitFor();
    await expect(modal.getByLabel('Import Object').count()).resolves.toBe(0);
    await modal.getByLabel('Find Matching Records By').selectOption('name');
    await upload(modal, 'eva.csv', 'name;jobtitle\nImpB Eva;Manager\nImpB Finn;Driver\n');
    await modal.locator('table.import-grid').waitFor();
    await poll(() => modal.locator('.import-grid tbody .import-mark').allTextContents()).toEqual(['Update', 'Create']);
    await shot(page, 'import-modal-update');
    await modal.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(question(page).locator('.modal-message').textContent()).resolves.toBe('Import will Create 1 record(s) Update 1 record(s) continue?');
    await question(page).getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => modal.locator('.import-outcome-head').textContent()).toBe('Imported: 2 records');
    expect((await admin.byName('contact', 'ImpB Eva')).jobtitle).toBe('Manager');
    expect(await contactsNamed('ImpB Eva')).toBe(1);
    // Create New never matches: the same file creates Eva again.
    await modal.getByRole('button', { name: 'Upload File' }).first().waitFor();
    await modal.getByLabel('Create New').check();
    await upload(modal, 'eva.csv', 'name;jobtitle\nImpB Eva;Manager\n');
    await poll(() => modal.locator('.import-grid tbody .import-mark').allTextContents()).toEqual(['Create']);
    await expect(modal.getByLabel('Find Matching Records By').isDisabled()).resolves.toBe(true);
    await modal.getByRole('button', { name: 'Import', exact: true }).click();
    await question(page).getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => modal.locator('.import-outcome-head').textContent()).toBe('Imported: 1 records');
    expect(await contactsNamed('ImpB Eva')).toBe(2);
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await modal.waitFor({ state: 'detached' });
    await context.close();
  });

  it('declining the confirmation processes nothing', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openImportPage(page);
    await upload(page, 'c.csv', 'name\nImpC One\nImpC Two\n');
    await page.locator('table.import-grid').waitFor();
    const importButton = page.getByRole('toolbar', { name: 'Import' }).getByRole('button', { name: 'Import', exact: true });
    await importButton.click();
    await question(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await question(page).waitFor({ state: 'hidden' });
    await page.waitForTimeout(500);
    expect(await contactsNamed('ImpC')).toBe(0);
    await expect(importButton.isEnabled()).resolves.toBe(true); // the preview stays, Import may be asked again
    await context.close();
  });

  it('Cancel while the batches are written: the batches written stay, the result says how many rows were not imported', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openImportPage(page);
    const rows = 6000; // batches of 100 rows: 60 atomic calls
    await upload(page, 'many.csv', 'name;jobtitle\n' + Array.from({ length: rows }, (_, i) => `ImpD ${String(i).padStart(5, '0')};Row ${i}`).join('\n') + '\n');
    await page.locator('table.import-grid').waitFor({ timeout: 60_000 }).catch(async (e) => {
      await shot(page, 'failed-cancel');
      throw e;
    });
    await expect(page.locator('.import-count-create dd').textContent()).resolves.toBe(String(rows));
    await page.getByRole('toolbar', { name: 'Import' }).getByRole('button', { name: 'Import', exact: true }).click();
    await question(page).getByRole('button', { name: 'Import', exact: true }).click();
    const bar = page.locator('.import-progress progress');
    await poll(async () => Number((await bar.getAttribute('value')) ?? 0)).toBeGreaterThan(0);
    await shot(page, 'import-progress');
    await page.locator('.import-progress').getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.import-outcome').waitFor({ timeout: 60_000 });
    const text = (await page.locator('.import-outcome').innerText()).split('\n').filter(Boolean);
    const imported = Number(/^Imported: (\d+) records$/.exec(text[0])?.[1]);
    expect(imported).toBeGreaterThan(0);
    expect(imported).toBeLessThan(rows);
    expect(imported % 100).toBe(0);
    expect(text[1]).toBe(`Cancelled: ${rows - imported} rows were not imported`);
    expect(await contactsNamed('ImpD')).toBe(imported);
    await shot(page, 'import-cancelled');
    await context.close();
  });

  it('a file dropped on the panel is read like an uploaded one; a file of another kind is refused', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openImportPage(page);
    const drop = async (name: string, text: string) => {
      const data = await page.evaluateHandle(([n, t]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], n, { type: 'text/plain' }));
        return dt;
      }, [name, text] as const);
      await page.locator('.import-drop').dispatchEvent('dragover', { dataTransfer: data });
      await page.locator('.import-drop').dispatchEvent('drop', { dataTransfer: data });
    };
    await drop('notes.txt', 'name\nX\n');
    await expect(page.locator('.import-error').textContent()).resolves.toBe('Only .csv and .json files can be imported.');
    await drop('dropped.json', '[{"name":"ImpF Dropped"}]');
    await poll(() => page.locator('.import-grid tbody .import-mark').allTextContents()).toEqual(['Create']);
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak (screenshots)', async () => {
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openImportPage(page);
    await upload(page, 'c.csv', 'name;birthdate;parentcustomerid\nImpE Ema;x.y;Nobody\n');
    await page.locator('table.import-grid').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'import-preview-360');
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/import`);
    await page.getByLabel('Importovaný objekt').selectOption('contact');
    await upload(page, 'c.csv', 'name;birthdate;parentcustomerid\nImpE Ema;x.y;Nobody\n');
    await page.locator('table.import-grid').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'import-preview-360-dark-sk');
    await page.setViewportSize({ width: 1280, height: 860 });
    await shot(page, 'import-preview-dark-sk');
    await context.close();
  });
});
