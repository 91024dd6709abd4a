import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 15, customize mode, in chromium against a fresh demo organization: the administrator
 * presses Ctrl+E on an account, moves a field to another panel (previewed live), adds a column to
 * the accounts list, saves both for everyone; another user (Nina, a salesperson) sees the new
 * column in her open list at once (the realtime stream) and the new form. A user without update on inu_view gets nothing from Ctrl+E.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const NINA = 'nina@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'customize-mode');

let server: Server;
let browser: Browser;
let admin: DemoApi;
let accountId = '';

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
  const [a] = await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'id' }], orders: [{ attribute: 'name' }] }, page: 1, pageSize: 1 });
  accountId = String(a?.id);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('customize mode in a real browser (issue 15)', { timeout: 90_000 }, () => {
  it('moves a field to another panel and adds a list column, saved for everyone; another user sees the column in her open list at once and the moved field on the form', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);

    // The form: Ctrl+E, then Website moves from Contact to Summary (the preview is the live form).
    await page.goto(`${server.url}/!/edit/account/${accountId}`);
    await page.locator('[data-field="website"]').waitFor();
    await page.waitForLoadState('networkidle'); // the context refresh after sign-in remounts the form
    await page.keyboard.press('Control+e');
    await page.locator('.cz-bar').waitFor();
    await shot(page, 'form-customize');
    await page.locator('.cz-field[data-cz-field="website"] select').selectOption('summary');
    await page.locator('.cz-panel[data-cz-panel="summary"] [data-field="website"]').waitFor();
    expect(await page.locator('.cz-panel[data-cz-panel="contact"] [data-field="website"]').count()).toBe(0);
    // Undo puts it back, and doing it again moves it again.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.locator('.cz-panel[data-cz-panel="contact"] [data-field="website"]').waitFor();
    await page.locator('.cz-field[data-cz-field="website"] select').selectOption('summary');
    await page.locator('.cz-panel[data-cz-panel="summary"] [data-field="website"]').waitFor();
    // The field dialog (formFieldDialog): a tooltip.
    await page.locator('.cz-field[data-cz-field="website"]').getByRole('button', { name: /^Edit field/ }).click();
    await page.locator('#formFieldDialog').waitFor();
    await page.locator('#ffd-tooltip').fill('The company site');
    await shot(page, 'form-field-dialog');
    await page.locator('#formFieldDialog').getByRole('button', { name: 'Apply' }).click();
    await page.locator('#formFieldDialog').waitFor({ state: 'detached' });
    await page.locator('.cz-bar select').first().selectOption('everyone');
    await page.getByRole('button', { name: 'Save layout' }).click();
    await page.getByText('Layout saved').waitFor();
    // Ctrl+E leaves; the saved layout is the form's now.
    await page.keyboard.press('Control+e');
    await page.locator('.cz-bar').waitFor({ state: 'detached' });
    await page.locator('[data-field="website"] .hint', { hasText: 'The company site' }).waitFor();

    // Another user has the accounts list open meanwhile: the save reaches it through the realtime stream.
    const nina = await newPage(browser);
    await signIn(nina.page, server.url, ORG, NINA, PASSWORD);
    await nina.page.goto(`${server.url}/!/list/account?view=active`);
    await nina.page.locator('table.grid tbody tr[data-row]').first().waitFor();
    expect(await nina.page.locator('table.grid th', { hasText: 'Website' }).count()).toBe(0);

    // The list: add the Website column, give it a width, save for everyone.
    await page.goto(`${server.url}/!/list/account?view=active`);
    await page.locator('table.grid tbody tr[data-row]').first().waitFor();
    await page.keyboard.press('Control+e');
    await page.locator('.cz-bar').waitFor();
    await page.getByLabel('Add column').selectOption('website');
    await page.locator('table.grid th', { hasText: 'Website' }).waitFor();
    await page.getByLabel('Width of Website (px)').fill('220');
    await page.getByLabel('Width of Website (px)').blur();
    await shot(page, 'list-customize');
    await page.locator('.cz-bar select').last().selectOption('everyone');
    await page.getByRole('button', { name: 'Save layout' }).click();
    await page.getByText('Layout saved').waitFor();
    await context.close();

    // The stored records: two inu_view records for everyone, none private.
    const stored = await admin.fetchRecords({ entity: { name: 'inu_view', attributes: [{ attribute: 'name' }, { attribute: 'kind' }, { attribute: 'isprivate' }, { attribute: 'body' }], filter: { conditions: [{ attribute: 'objectname', operator: 'eq', value: 'account' }] } }, page: 1, pageSize: 50 });
    const form = stored.find((r) => r.kind === 'form' && r.name === 'main');
    expect(form?.isprivate).toBe(false);
    expect(String(form?.body)).toContain('The company site');
    expect(stored.filter((r) => r.isprivate === true)).toEqual([]);
    const view = stored.find((r) => r.kind === 'view' && r.name === 'active');
    expect(JSON.parse(String(view?.body)).columns).toContainEqual({ name: 'website', width: 220 });

    // The open list of the other user shows the column without a reload (metadata-changed event).
    await nina.page.locator('table.grid th', { hasText: 'Website' }).waitFor();
    await shot(nina.page, 'list-as-another-user');

    // The form, opened by the other user: the new layout; Ctrl+E does nothing for them (no update on inu_view).
    const [own] = await (await demoApi(server, NINA)).fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 });
    await nina.page.goto(`${server.url}/!/edit/account/${String(own?.id)}`);
    await nina.page.locator('section[aria-label="Summary"] [data-field="website"]').waitFor();
    await nina.page.keyboard.press('Control+e');
    await nina.page.waitForTimeout(300);
    expect(await nina.page.locator('.cz-bar').count()).toBe(0);
    await nina.context.close();
  });
});
