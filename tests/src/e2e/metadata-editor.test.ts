import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, launchBrowser, newPage, ROOT, startServer, type Server } from './harness.js';

/**
 * Issue 15, the metadata editor in chromium against `tessera demo`: add a field, review the plan,
 * apply it and see the field on a record's form; removing it again asks first and names the
 * column and its rows. One server and one browser for the file.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const ENTITY = 'fi_budget_line_type';
const FIELD = 'e2e_note';
const SHOTS = join(ROOT, 'artifacts', 'metadata-editor');

let server: Server;
let browser: Browser;

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
};
/** ui-react/dist is shared: a page answered 'ERR_NOT_FOUND' while a parallel build rewrites it is loaded again. */
const settle = async (page: Page): Promise<void> => {
  for (let i = 0; i < 10 && ((await page.locator('body').textContent()) ?? '').startsWith('ERR_NOT_FOUND'); i++) {
    await page.waitForTimeout(3000);
    await page.reload();
  }
};
const goto = async (page: Page, path: string): Promise<void> => {
  await page.goto(`${server.url}${path}`);
  await settle(page);
};
const open = async (options: { lang?: string; dark?: boolean; width?: number } = {}) => {
  const { context, page } = await newPage(browser, options.width ?? 1280, 860);
  if (options.dark) await context.addInitScript(() => localStorage.setItem('tessera.colorTheme', '1'));
  await goto(page, `/login?org=${ORG}`);
  await page.getByLabel('Organization').fill(ORG);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('.topbar').waitFor();
  // The language is chosen once signed in (the sign-in page would speak it too).
  if (options.lang) await page.evaluate((lang) => localStorage.setItem('tessera.language', lang), options.lang);
  return { context, page };
};
const openEditor = async (page: Page, entity: string) => {
  await goto(page, '/!/customizemetadata');
  // The editor's chunk loads on first use; on a loaded machine (or while a parallel build rewrites dist) give it longer.
  await page.locator('nav.meta-entities').waitFor({ timeout: 45_000 });
  await page.locator('nav.meta-entities input[type="search"]').fill(entity);
  await page.locator('button.meta-entity', { has: page.locator(`code:text-is("${entity}")`) }).click();
  await page.locator('section.meta-entity-editor').waitFor();
};

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  const { context, page } = await newPage(browser);
  await page.goto(`${server.url}/login?org=${ORG}`);
  await page.getByLabel('Organization').waitFor({ timeout: 90_000 });
  await context.close();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the metadata editor in a real browser (issue 15)', { timeout: 120_000 }, () => {
  it("add a property, review the plan, apply it, and see the new field on a record's form", async () => {
    const api = await demoApi(server, ADMIN);
    const [record] = await api.fetchRecords({ entity: { name: ENTITY, attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 });
    expect(record).toBeDefined();
    const { context, page } = await open();
    await openEditor(page, ENTITY);
    const add = page.getByRole('form', { name: 'Add field' });
    await add.getByLabel('Logical name').fill(FIELD);
    await add.getByLabel('Display name').fill('E2E note');
    await add.getByLabel('Type').selectOption('String');
    await add.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => page.locator('.meta-field-row code', { hasText: FIELD }).count()).toBe(1);
    await page.getByRole('button', { name: 'Review changes' }).click();
    const review = page.locator('section.meta-review');
    await review.waitFor();
    expect(await review.locator('.meta-steps').textContent()).toContain(`add column ${ENTITY}.${FIELD}`);
    expect(await review.locator('pre').textContent()).toContain(`ALTER TABLE "${ENTITY}" ADD COLUMN "${FIELD}"`);
    await shot(page, 'review-add');
    await review.getByRole('button', { name: 'Apply' }).click();
    await page.locator('section.meta-review').waitFor({ state: 'detached' });
    await page.getByText(/Applied: metadata version \d+/).waitFor();

    await goto(page, `/!/edit/${ENTITY}/${record.id as string}`);
    const field = page.locator(`[data-field="${FIELD}"]`);
    await field.waitFor();
    expect(await field.textContent()).toContain('E2E note');
    await context.close();
  });

  it('a destructive change asks first and names the column and its rows; Apply waits for the confirmation', async () => {
    const api = await demoApi(server, ADMIN);
    const [record] = await api.fetchRecords({ entity: { name: ENTITY, attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 });
    const written = await api.write('update', ENTITY, { id: record.id, [FIELD]: 'keep me?' });
    expect(written.ok, written.text).toBe(true);
    const { context, page } = await open();
    await openEditor(page, ENTITY);
    await page.locator('.meta-field-row', { has: page.locator(`code:text-is("${FIELD}")`) }).click();
    await page.getByRole('button', { name: `Remove field ${FIELD}` }).click();
    await page.getByRole('button', { name: 'Review changes' }).click();
    const loss = page.locator('fieldset.meta-loss');
    await loss.waitFor();
    expect(await loss.textContent()).toContain(`Column ${ENTITY}.${FIELD} is dropped: 1 row holds a value`);
    const apply = page.getByRole('button', { name: 'Apply' });
    expect(await apply.isDisabled()).toBe(true);
    await shot(page, 'review-destructive');
    await loss.getByRole('checkbox').check();
    expect(await apply.isDisabled()).toBe(false);
    await apply.click();
    await page.getByText(/Applied: metadata version \d+/).waitFor();
    const after = await api.post('/api/fetch', { entity: { name: ENTITY, attributes: [{ attribute: FIELD }] } });
    expect(after.status).toBe(400);
    await context.close();
  });

  it('screens: options with colour and icon preview, 360 px, dark and Slovak', async () => {
    const desk = await open();
    await openEditor(desk.page, 'account');
    await desk.page.locator('.meta-field-row', { has: desk.page.locator('code:text-is("industry")') }).click();
    await desk.page.locator('.meta-option-preview li').first().waitFor();
    expect(await desk.page.locator('.meta-option-preview li').count()).toBeGreaterThan(3);
    await desk.page.locator('.meta-option-preview').scrollIntoViewIfNeeded();
    await shot(desk.page, 'desktop-options');
    await desk.context.close();
    const narrow = await open({ width: 360 });
    await openEditor(narrow.page, 'account');
    await shot(narrow.page, 'narrow-360');
    const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await narrow.context.close();
    const dark = await open({ dark: true });
    await openEditor(dark.page, 'account');
    await shot(dark.page, 'dark');
    await dark.context.close();
    const sk = await open({ lang: 'sk' });
    await openEditor(sk.page, 'account');
    expect(await sk.page.getByRole('button', { name: 'Skontrolovať zmeny' }).count()).toBe(1);
    await shot(sk.page, 'slovak');
    await sk.context.close();
  });
});
