import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, launchBrowser, newPage, screenshot, signIn, startServer, type Server } from './harness.js';

/**
 * Issue 23 item 2 (the data part) and item 10, in chromium against `tessera demo` data: the demo
 * administrator's first lists, with the owner filter on "Mine" as the demo pack sets it, have rows,
 * and what they show holds together (account numbers, invoices due after they were issued).
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';

let server: Server;
let browser: Browser;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });
const rows = (page: Page) => page.locator('.grid tbody tr:has(a.row-link)');
/** Views that open as a board or a calendar (the Lead Board, the Schedule) are switched to their list mode. */
const listMode = async (page: Page): Promise<void> => {
  const list = page.getByRole('radiogroup', { name: 'View mode' }).getByRole('radio', { name: 'List' });
  await page.locator('.grid, .mode-switcher').first().waitFor();
  if ((await list.count()) > 0) await list.click();
};
/** The text of the option the Owner quick filter shows. */
const ownerChoice = (page: Page) =>
  page.getByRole('combobox', { name: 'Owner' }).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the demo administrator starts on lists of their own (issue 23 items 2 and 10)', { timeout: 90_000 }, () => {
  it("lands on Accounts with the owner filter on Mine, and the list has the administrator's accounts", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await poll(() => page.locator('h1').textContent()).toBe('Accounts');
    expect(new URL(page.url()).pathname).toBe('/!/list/account');
    await rows(page).first().waitFor();
    expect(await ownerChoice(page)).toBe('Mine');
    expect(await rows(page).count()).toBeGreaterThan(0);
    await poll(async () => (await page.locator('.grid tbody td[data-label="Owner"]').allTextContents()).every((t) => t === 'Ada Admin')).toBe(true);
    // Item 10: every account has a number as an auto number would give it.
    const numbers = await page.locator('.grid tbody td[data-label="Account Number"]').allTextContents();
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(n).toMatch(/^ACC-\d{5}$/);
    await screenshot(page, 'demo-admin-accounts');
    await context.close();
  });

  it('has contacts, leads and opportunities of their own in the Sales app', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    for (const [entity, title] of [['contact', 'Contacts'], ['opportunity', 'Opportunities'], ['lead', 'Leads']] as const) {
      await page.goto(`${server.url}/!/list/${entity}`);
      await poll(() => page.locator('h1').textContent()).toBe(title);
      await listMode(page);
      await rows(page).first().waitFor();
      await screenshot(page, `demo-admin-${entity}`);
      expect(await ownerChoice(page), entity).toBe('Mine');
      expect(await rows(page).count(), entity).toBeGreaterThan(0);
    }
    await context.close();
  });

  it('has scheduled work orders of their own in the Service app, numbered as an auto number would', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.getByRole('button', { name: 'Apps' }).click();
    await page.getByRole('menu', { name: 'Apps' }).getByRole('menuitem', { name: 'Service', exact: true }).click();
    await poll(() => page.locator('.app-name').textContent()).toBe('Service');
    await page.getByRole('link', { name: 'Work Orders' }).first().click();
    await poll(() => page.locator('h1').textContent()).toBe('Work Orders');
    await listMode(page);
    await rows(page).first().waitFor();
    expect(await ownerChoice(page)).toBe('Mine');
    expect(await rows(page).count()).toBeGreaterThan(0);
    await screenshot(page, 'demo-admin-workorders');
    await page.locator('.view-select select').selectOption({ label: 'Active Work Orders' });
    await page.locator('.grid thead th', { hasText: 'Work Order Number' }).first().waitFor();
    await rows(page).first().waitFor();
    // The rows of the new view replace those of the Schedule: read them once they are all there.
    const numbers = () => page.locator('.grid tbody td[data-label="Work Order Number"]').allTextContents();
    await poll(async () => (await numbers()).length > 0 && (await numbers()).every((n) => /^WO-\d{5}$/.test(n))).toBe(true);
    await context.close();
  });

  it('lists invoices with numbers as an auto number gives them and a total on each', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/list/invoice`);
    await poll(() => page.locator('h1').textContent()).toBe('Invoices');
    await page.locator('.view-select select').selectOption({ label: 'All Invoices' });
    await rows(page).first().waitFor();
    const numbers = await page.locator('.grid tbody td[data-label="Invoice Number"]').allTextContents();
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(n).toMatch(/^INV-\d{5}$/);
    for (const total of await page.locator('.grid tbody td[data-label="Total Amount"]').allTextContents()) expect(total.trim()).not.toBe('');
    await screenshot(page, 'demo-admin-invoices');
    // An invoice's form: its lines and its total (the core test checks the sums).
    await rows(page).first().locator('a.row-link').click();
    await page.locator('form.panels').waitFor();
    await screenshot(page, 'demo-admin-invoice-form');
    await context.close();
  });

  it('screenshots: Accounts at 360 px, in dark mode and in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 740);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await rows(page).first().waitFor();
    await screenshot(page, 'demo-admin-accounts-360');
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByText('Dark Mode').click();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('sk');
    await page.keyboard.press('Escape');
    await poll(() => page.locator('h1').textContent()).toBe('Firmy');
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBeGreaterThan(0);
    await screenshot(page, 'demo-admin-accounts-360-dark-sk');
    await context.close();
  });
});
