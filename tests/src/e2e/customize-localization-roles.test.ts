import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, launchBrowser, newPage, ROOT, signIn, startServer, type Server } from './harness.js';

/**
 * Issue 15: the localization editor (/{appid}/customizelocalization) and the role editor
 * (/{appid}/edit/inu_role/{id}) in a real browser against a fresh demo organization.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const NINA = 'nina@demo.test';
const SAM = 'sam@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'customize-localization-roles');

let server: Server;
let browser: Browser;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
};
/** A page signed in as a user, in a language and theme chosen before the app starts. */
const open = async (email: string, options: { lang?: string; dark?: boolean; width?: number } = {}) => {
  const { context, page } = await newPage(browser, options.width ?? 1280, 860);
  // The sign-in page's chunk may be slow on a loaded machine: wait for it longer than the harness does.
  await page.goto(`${server.url}/login?org=${ORG}`);
  await page.getByLabel('Organization').waitFor({ timeout: 60_000 });
  await signIn(page, server.url, ORG, email, PASSWORD);
  // Set after signing in (the login page reads the language too); the next page load applies them.
  await page.evaluate(
    ([lang, dark]) => {
      if (lang) localStorage.setItem('tessera.language', lang);
      if (dark) localStorage.setItem('tessera.colorTheme', '1');
    },
    [options.lang ?? '', options.dark ? '1' : ''] as const,
  );
  return { context, page };
};
/** The total of the list's footer ('{shown} of {count}'). */
const listTotal = async (page: Page): Promise<number> => {
  const text = (await page.locator('.list-foot .muted').first().textContent()) ?? '';
  const m = /(\d[\d\s,.]*)\s*$/.exec(text.trim());
  return m ? Number(m[1].replace(/[\s,.]/g, '')) : NaN;
};

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('issue 15: the localization editor and the role editor', { timeout: 120_000 }, () => {
  it('a Slovak text changed in the localization editor shows in the UI of a Slovak user, without a reload', async () => {
    // Nina works in Slovak with her accounts open.
    const nina = await open(NINA, { lang: 'sk' });
    await nina.page.goto(`${server.url}/Sales/list/account`);
    await nina.page.locator('.grid tbody a.row-link').first().waitFor({ timeout: 60_000 });
    await poll(() => nina.page.locator('h1').textContent()).toBe('Firmy');
    await nina.page.getByRole('button', { name: 'Nový', exact: true }).first().waitFor();

    const admin = await open(ADMIN);
    await admin.page.goto(`${server.url}/Customize/customizelocalization`);
    await admin.page.getByRole('heading', { name: 'Localization', level: 1 }).waitFor();
    await admin.page.getByLabel('Language', { exact: true }).selectOption('sk');
    // A metadata text: the plural of account, English beside Slovak.
    await admin.page.getByLabel('Search texts').fill('account.plural');
    const plural = admin.page.getByRole('textbox', { name: 'account.plural in Slovenčina' });
    await poll(() => plural.inputValue()).toBe('Firmy');
    expect(await admin.page.locator('.loc-grid tbody tr').first().locator('.loc-en').textContent()).toBe('Accounts');
    await plural.fill('Klienti');
    // A built-in text of the application: the New button.
    await admin.page.getByLabel('Search texts').fill('ui.CmdNew');
    const newButton = admin.page.getByRole('textbox', { name: 'ui.CmdNew in Slovenčina' });
    await poll(() => newButton.inputValue()).toBe('Nový');
    await newButton.fill('Pridať');
    await admin.page.getByText('2 unsaved changes').waitFor();
    await shot(admin.page, 'localization-editing');
    await admin.page.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.page.getByText('2 texts saved').waitFor();

    // Nina's open page follows (the realtime change of inu_localize), and so does a new page.
    await poll(() => nina.page.locator('h1').textContent()).toBe('Klienti');
    await nina.page.getByRole('button', { name: 'Pridať', exact: true }).first().waitFor();
    await shot(nina.page, 'localization-seen-by-slovak-user');
    await nina.page.reload();
    await poll(() => nina.page.locator('h1').textContent()).toBe('Klienti');
    await nina.page.getByRole('button', { name: 'Pridať', exact: true }).first().waitFor();

    // The missing-translation filter, and the text back to its built-in wording.
    await admin.page.getByLabel('Search texts').fill('ui.CmdNew');
    await admin.page.getByRole('button', { name: 'Back to the built-in text' }).first().click();
    await admin.page.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.page.getByText('1 text saved').waitFor();
    await nina.page.getByRole('button', { name: 'Nový', exact: true }).first().waitFor();
    await admin.page.getByLabel('Search texts').fill('');
    await admin.page.getByLabel('Missing translation').check();
    await admin.page.locator('.loc-tag-missing').first().waitFor();
    await nina.context.close();
    await admin.context.close();
  });

  it("a role's read level lowered in the role editor shrinks the list of a user of that role", async () => {
    const adminApi = await demoApi(server, ADMIN);
    const role = await adminApi.byName('inu_role', 'Salesperson');
    const samApi = await demoApi(server, SAM);
    const own = await samApi.count('account', { conditions: [{ attribute: 'ownerid', operator: 'eq', value: samApi.userId }] });

    const sam = await open(SAM);
    await sam.page.goto(`${server.url}/Sales/list/account`);
    await sam.page.locator('.grid tbody a.row-link').first().waitFor();
    // The list starts at the owner filter's Mine: everyone's accounts, to see what the role lets him read.
    const everyone = () => sam.page.getByRole('combobox', { name: 'Owner', exact: true }).selectOption({ label: 'All' });
    await everyone();
    await poll(() => listTotal(sam.page)).toBeGreaterThan(own);
    const before = await listTotal(sam.page);

    const admin = await open(ADMIN);
    await admin.page.goto(`${server.url}/Customize/edit/inu_role/${String(role.id)}`);
    await admin.page.getByRole('heading', { name: 'Role: Salesperson' }).waitFor();
    const cell = admin.page.getByRole('gridcell', { name: 'Accounts, Read: Organization' });
    await cell.focus();
    await admin.page.keyboard.press('1');
    await admin.page.getByRole('gridcell', { name: 'Accounts, Read: Owner' }).waitFor();
    // The keyboard moves through the grid: right to Update, which stays Owner.
    await admin.page.keyboard.press('ArrowRight');
    await poll(() => admin.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Accounts, Update: Owner');
    await shot(admin.page, 'role-editor');
    await admin.page.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.page.getByText('Record saved').waitFor();
    const body = JSON.parse(String((await adminApi.byName('inu_role', 'Salesperson')).body)) as { permissions: Record<string, number> };
    expect(body.permissions.account).toBe(4369);

    await sam.page.reload();
    await sam.page.locator('.grid tbody a.row-link').first().waitFor();
    await everyone();
    await poll(() => listTotal(sam.page)).toBe(own);
    expect(own).toBeLessThan(before);
    await shot(sam.page, 'role-list-shrunk');

    // The admin role: full access, read-only.
    const adminRole = await adminApi.byName('inu_role', 'admin');
    await admin.page.goto(`${server.url}/Customize/edit/inu_role/${String(adminRole.id)}`);
    await admin.page.getByText('The admin role has full access to every entity').waitFor();
    await admin.page.getByRole('gridcell', { name: 'Accounts, Delete: Organization' }).focus();
    await admin.page.keyboard.press('0');
    await admin.page.getByRole('gridcell', { name: 'Accounts, Delete: Organization' }).waitFor();
    expect(await admin.page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await sam.context.close();
    await admin.context.close();
  });

  it('both screens work at 360 px, in dark mode and in Slovak', async () => {
    const adminApi = await demoApi(server, ADMIN);
    const role = await adminApi.byName('inu_role', 'Technician');
    const phone = await open(ADMIN, { lang: 'sk', dark: true, width: 360 });
    await phone.page.goto(`${server.url}/Customize/customizelocalization`);
    await phone.page.getByRole('heading', { name: 'Lokalizácia', level: 1 }).waitFor();
    await phone.page.locator('.loc-grid tbody tr').first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(phone.page, 'localization-360-dark-sk');
    await phone.page.goto(`${server.url}/Customize/edit/inu_role/${String(role.id)}`);
    await phone.page.getByRole('heading', { name: 'Rola: Technician' }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(phone.page, 'role-editor-360-dark-sk');
    await phone.context.close();

    const desk = await open(ADMIN, { lang: 'sk' });
    await desk.page.goto(`${server.url}/Customize/edit/inu_role/${String(role.id)}`);
    await desk.page.getByRole('heading', { name: 'Rola: Technician' }).waitFor();
    await shot(desk.page, 'role-editor-sk');
    await desk.page.goto(`${server.url}/Customize/customizelocalization`);
    await desk.page.locator('.loc-grid tbody tr').first().waitFor();
    await shot(desk.page, 'localization-sk');
    const dark = await open(ADMIN, { dark: true });
    await dark.page.goto(`${server.url}/Customize/edit/inu_role/${String(role.id)}`);
    await dark.page.getByRole('heading', { name: 'Role: Technician' }).waitFor();
    await shot(dark.page, 'role-editor-dark');
    await desk.context.close();
    await dark.context.close();
  });
});
