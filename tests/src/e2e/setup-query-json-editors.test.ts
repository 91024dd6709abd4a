import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, DEMO_ORG, DEMO_PASSWORD, demoApi, launchBrowser, newPage, ROOT, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 15 "Setup Query dialog" and "Special editors" in Debian's chromium against `tessera serve`
 * with the demo: on the accounts list the Setup Query dialog alerts a file that is not JSON
 * (spec 002 section 9), shows the query engine's error with its path, exports fetch.json and saves
 * the view's query (the list changes); the inu_view editor saves a view's body and the list shows
 * it. Screenshots (desktop, 360 px, dark, Slovak) go to artifacts/setup-query/.
 */
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'setup-query');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
const sq = (page: Page) => page.locator('dialog#setupQueryDialog');
const activeView = () => admin.fetchRecords({ entity: { name: 'inu_view', allattrs: true, filter: { conditions: [{ attribute: 'kind', operator: 'eq', value: 'view' }, { attribute: 'objectname', operator: 'eq', value: 'account' }, { attribute: 'name', operator: 'eq', value: 'active' }] } } });

const openAccounts = async (page: Page) => {
  await page.goto(`${server.url}/!/list/account`);
  await page
    .locator('.grid tbody a.row-link')
    .first()
    .waitFor()
    .catch(async (e: unknown) => {
      await shot(page, 'failed-list');
      throw e;
    });
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

describe('Setup Query and the inu_view editor (issue 15)', { timeout: 120_000 }, () => {
  it('Setup Query on a list: bad JSON alerts, an engine error names its path, Export downloads fetch.json, Save changes the view and the list', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openAccounts(page);
    const before = await page.locator('.grid tbody a.row-link').count();
    await page.getByRole('toolbar').getByRole('button', { name: 'Setup Query' }).click();
    const d = sq(page);
    await d.waitFor();
    const editor = d.getByRole('textbox', { name: 'Query (JSON)' });
    expect(JSON.parse(await editor.inputValue())).toMatchObject({ entity: { name: 'account', filter: { conditions: [{ attribute: 'statecode' }] } } });
    await d.getByText('The query is valid').waitFor();

    // Spec 002 section 9: "Setup Query bad JSON | Alert".
    await d.getByTestId('setup-query-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ "entity": ') });
    const alert = page.locator('#app-dialog-message');
    await alert.getByText(/The file broken\.json is not valid JSON/).waitFor();
    await shot(page, 'setup-query-bad-json-alert');
    await page.getByRole('button', { name: 'OK' }).click();

    // The query engine's own validation, with the path of the error.
    await editor.fill(JSON.stringify({ entity: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }, { attribute: 'nope', operator: 'eq', value: 1 }] } } }, null, 2));
    await d.getByText('At entity.filter.conditions[1].attribute: Field not found:account.nope').waitFor();
    await shot(page, 'setup-query-path-error');

    // A good file imports; Export downloads it as fetch.json.
    const query = { entity: { name: 'account', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }, { attribute: 'name', operator: 'like', value: 'A%' }] }, orders: [{ attribute: 'name' }] } };
    await d.getByTestId('setup-query-file').setInputFiles({ name: 'fetch.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(query)) });
    await d.getByText('The query is valid').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), d.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('fetch.json');
    expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toEqual(query);
    await shot(page, 'setup-query-valid');

    // Save writes the view's record; the list runs the new query.
    await d.getByRole('button', { name: 'Save' }).click();
    await poll(() => sq(page).count()).toBe(0);
    const [view] = await activeView();
    expect(JSON.parse(String(view.body)).query).toEqual(query.entity);
    await poll(async () => (await page.locator('.grid tbody a.row-link').allTextContents()).every((n) => n.startsWith('A'))).toBe(true);
    const after = await page.locator('.grid tbody a.row-link').count();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    await context.close();
  });

  it('the inu_view editor: the body is checked with its path, the preview shows the rows, Save changes the list', async () => {
    const [view] = await activeView();
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await page.goto(`${server.url}/!/edit/inu_view/${String(view.id)}`);
    const body = page.getByRole('textbox', { name: 'Body (JSON)' });
    await body.waitFor();
    await page.locator('.view-preview-table tbody tr').first().waitFor();
    const parsed = JSON.parse(await body.inputValue()) as { query: unknown; columns: Array<{ name: string }> };
    await body.fill(JSON.stringify({ ...parsed, columns: [{ name: 'name' }, { name: 'shoesize' }] }, null, 2));
    await page.getByText('At columns[1].name: Field not found:account.shoesize').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await body.fill(JSON.stringify({ ...parsed, columns: [{ name: 'name' }, { name: 'telephone1' }] }, null, 2));
    await page.getByText('The body is valid').waitFor();
    await poll(() => page.locator('.view-preview-table thead th').allTextContents()).toEqual(['Name', 'Phone']);
    await shot(page, 'inu-view-editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Record saved').first().waitFor();
    const [saved] = await activeView();
    expect(JSON.parse(String(saved.body)).columns).toEqual([{ name: 'name' }, { name: 'telephone1' }]);
    await openAccounts(page);
    await poll(() => page.locator('.grid thead th').allTextContents()).toContain('Phone');
    expect((await page.locator('.grid thead th').allTextContents()).some((t) => t.includes('Industry'))).toBe(false);
    await context.close();
  });

  it('screenshots: 360 px wide, dark, Slovak', async () => {
    const [view] = await activeView();
    const narrow = await newPage(browser, 360, 740);
    await signIn(narrow.page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await narrow.page.goto(`${server.url}/!/edit/inu_view/${String(view.id)}`);
    await narrow.page
      .getByRole('textbox', { name: 'Body (JSON)' })
      .waitFor()
      .catch(async (e: unknown) => {
        await shot(narrow.page, 'failed-editor-360');
        throw e;
      });
    await shot(narrow.page, 'inu-view-editor-360');
    await openAccounts(narrow.page);
    await narrow.page.getByRole('button', { name: 'Setup Query' }).click();
    await sq(narrow.page).waitFor();
    await shot(narrow.page, 'setup-query-360');
    await narrow.context.close();

    const dark = await newPage(browser);
    await signIn(dark.page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await dark.page.evaluate(() => localStorage.setItem('tessera.colorTheme', '1'));
    await openAccounts(dark.page);
    await dark.page.getByRole('button', { name: 'Setup Query' }).click();
    await sq(dark.page).waitFor();
    await shot(dark.page, 'setup-query-dark');
    await dark.page.goto(`${server.url}/!/signinproviders`);
    await dark.page.getByRole('heading', { name: 'Sign-in providers' }).waitFor();
    await shot(dark.page, 'provider-settings-dark');
    await dark.context.close();

    const sk = await newPage(browser);
    await signIn(sk.page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await sk.page.evaluate(() => localStorage.setItem('tessera.language', 'sk'));
    await sk.page.goto(`${server.url}/!/edit/inu_view/${String(view.id)}`);
    await sk.page.locator('.view-preview-table').waitFor();
    await shot(sk.page, 'inu-view-editor-sk');
    await sk.page.goto(`${server.url}/!/signinproviders`);
    await sk.page.locator('.provider-card').first().waitFor();
    await shot(sk.page, 'provider-settings-sk');
    await sk.context.close();
  });
});
