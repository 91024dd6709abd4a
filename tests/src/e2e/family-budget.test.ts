import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type DemoRecord, type Server } from './harness.js';

/**
 * Issue 19 "Family budget" (spec 002 "Family budget panel", sections 3, 4, 5 and 9) on the demo's
 * family form in chromium: lines added, changed and deleted are marked and flushed when the family
 * is saved (read back through the API), a new family gets its lines once created, the computed
 * allowances and the balance per month show, and RodinnyRozpocet.csv is read back with its BOM;
 * RodinnyRozpocet.pdf comes from the server's PDF export.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'family-budget');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const linesOf = (familyId: string): Promise<DemoRecord[]> =>
  admin.fetchRecords({ entity: { name: 'fi_budget_line', allattrs: true, filter: { conditions: [{ attribute: 'familyid', operator: 'eq', value: familyId }] }, orders: [{ attribute: 'type' }, { attribute: 'name' }] }, page: 1, pageSize: 500 });

/** A demo family with at least two lines and a child under 17 (so an allowance shows). */
const aFamily = async (): Promise<DemoRecord> => {
  const families = await admin.fetchRecords({ entity: { name: 'fi_family', allattrs: true, orders: [{ attribute: 'name' }] }, page: 1, pageSize: 50 });
  for (const f of families) if ((await linesOf(String(f.id))).length >= 2) return f;
  throw new Error('no demo family with budget lines');
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

describe('the family budget panel (issue 19, spec 002 "Family budget panel")', { timeout: 120_000 }, () => {
  it('spec 002 section 4: rows marked create, update or delete are flushed when the family is saved; the CSV export is read back with its BOM', async () => {
    const family = await aFamily();
    const id = String(family.id);
    const before = await linesOf(id);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/fi_family/${id}`);
    const panel = page.locator('section.budget-panel');
    await poll(() => panel.locator('.budget-row[data-mark]').count()).toBe(before.length);
    const balanceBefore = await panel.getByTestId('budget-balance').textContent();

    // update row 1, delete row 2, add an expense
    const firstAmount = Number(before[0]!.amount);
    await panel.getByLabel('Amount (EUR) 1', { exact: true }).fill(String(firstAmount + 10));
    await panel.getByRole('button', { name: `Delete line ${String(before[1]!.name)}` }).click();
    await panel.getByRole('button', { name: 'Add expense' }).click();
    const n = before.length + 1;
    const name = panel.getByLabel(`Name ${n}`, { exact: true });
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    await name.fill('E2E Internet');
    await panel.getByLabel(`Amount (EUR) ${n}`, { exact: true }).fill('25.5');
    await panel.getByLabel(`Comment ${n}`, { exact: true }).fill('fibre; 100 Mbit');
    // Each row says what Save will do with it.
    await poll(() => panel.locator('.budget-row[data-mark="update"]').count()).toBe(1);
    await poll(() => panel.locator('.budget-row[data-mark="delete"]').count()).toBe(1);
    await poll(() => panel.locator('.budget-row[data-mark="create"]').count()).toBe(1);
    await poll(() => panel.getByTestId('budget-balance').textContent()).not.toBe(balanceBefore);
    await shot(page, 'family-budget-marked');
    // Another tab and back: the panel was unmounted, its unsaved rows are still there.
    await page.getByRole('tab', { name: /^Budget Lines/ }).click();
    await page.getByRole('tab', { name: 'Budget', exact: true }).click();
    await poll(() => page.locator('section.budget-panel .budget-row[data-mark="create"]').count()).toBe(1);
    await poll(() => page.locator('section.budget-panel .budget-row[data-mark="delete"]').count()).toBe(1);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await poll(async () => (await linesOf(id)).map((l) => String(l.name)).sort()).toEqual(
      [...before.filter((l) => l.id !== before[1]!.id).map((l) => String(l.name)), 'E2E Internet'].sort(),
    );
    const after = await linesOf(id);
    expect(after.find((l) => l.id === before[0]!.id)!.amount).toBe(firstAmount + 10);
    expect(after.find((l) => l.name === 'E2E Internet')).toMatchObject({ type: 2, amount: 25.5, comment: 'fibre; 100 Mbit' });
    // the marks are gone once the rows are stored
    await poll(() => panel.locator('.budget-row[data-mark="none"]').count()).toBe(after.length);

    // RodinnyRozpocet.csv: semicolons, UTF-8 with a BOM, the lines, the allowances and the balance per month.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('RodinnyRozpocet.csv');
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Type;Name;Category;Amount (EUR);Comment;Person');
    expect(lines).toContain('Expense;E2E Internet;;25.50;"fibre; 100 Mbit";');
    expect(lines.some((l) => l.startsWith(';Balance per month;;'))).toBe(true);
    expect(lines.length).toBe(after.length + (await panel.locator('.budget-allowances tbody tr').count()) + 5); // header, 3 totals, final CRLF

    // RodinnyRozpocet.pdf: the server's PDF table of the saved lines.
    const [pdf] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export PDF' }).click()]);
    expect(pdf.suggestedFilename()).toBe('RodinnyRozpocet.pdf');
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });

  it('a new family gets its lines after the create, with the new id; allowances show as computed lines', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/fi_family/0`);
    await page.locator('#f-name').fill('E2E Budget family');
    const panel = page.locator('section.budget-panel');
    await panel.getByText("No budget lines yet. Add the family's income and expenses.").waitFor();
    await panel.getByRole('button', { name: 'Add income' }).click();
    await panel.getByLabel('Name 1', { exact: true }).fill('Pension');
    await panel.getByLabel('Amount (EUR) 1', { exact: true }).fill('612.40');
    // a row without a name stops the save with its number
    await panel.getByRole('button', { name: 'Add expense' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Budget line 2: a name and an amount of 0 or more are needed').first().waitFor();
    await page.locator('dialog.modal').getByRole('button', { name: 'OK' }).click();
    await panel.getByRole('button', { name: 'Delete line 2' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    const family = await admin.byName('fi_family', 'E2E Budget family');
    await poll(async () => (await linesOf(String(family.id))).map((l) => [l.name, l.amount, l.type])).toEqual([['Pension', 612.4, 1]]);

    // A family with a child under 17 or a parent on family leave: the allowance is a computed line (not stored).
    const families = await admin.fetchRecords({ entity: { name: 'fi_family', attributes: [{ attribute: 'id' }], orders: [{ attribute: 'name' }] }, page: 1, pageSize: 50 });
    const p2 = page;
    let found = false;
    for (const f of families) {
      await p2.goto(`${server.url}/!/edit/fi_family/${String(f.id)}`);
      const panel2 = p2.locator('section.budget-panel');
      await panel2.getByRole('heading', { name: 'Allowances (computed)' }).waitFor();
      if ((await panel2.locator('.budget-allowances').count()) === 0) continue;
      expect(await panel2.locator('.budget-allowances').textContent()).toMatch(/Child allowance|Parental allowance/);
      found = true;
      break;
    }
    expect(found).toBe(true);
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak', async () => {
    const family = await aFamily();
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/fi_family/${String(family.id)}`);
    const panel = page.locator('section.budget-panel');
    await panel.getByText('Bilancia za mesiac').first().waitFor();
    await panel.locator('.budget-row[data-mark]').first().waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.getByRole('button', { name: 'Pridať výdavok' }).click();
    await shot(page, 'family-budget-360-dark-sk');
    await context.close();
  });
});
