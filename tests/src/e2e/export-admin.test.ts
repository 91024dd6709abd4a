import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, DEMO_ORG, DEMO_PASSWORD, demoApi, launchBrowser, magicLinkFor, newPage, ROOT, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 17 "Export" and "Admin dialogs" in Debian's chromium against `tessera serve` with the demo:
 * the Export dialog (Selected as CSV read back from the browser's download, All as PDF, the
 * organization's default options, the page without link entities), Change Password (a mismatch,
 * then success, then a sign-in with the new password) and Send Invite (the mail in the outbox).
 */
const ADMIN = 'admin@demo.test';
const NINA = 'nina@demo.test';
const TOM = 'tom@demo.test';
const TARA = 'tara@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'export-admin');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
const dialog = (page: Page) => page.locator('dialog#exportDialog');

/** Sets inu_orgsettings.export_options (creating the settings record when there is none). */
const setExportOptions = async (text: string | null) => {
  const [r] = await admin.fetchRecords({ entity: { name: 'inu_orgsettings', allattrs: true }, page: 1, pageSize: 1 });
  const w = r ? await admin.write('update', 'inu_orgsettings', { id: r.id, versionnumber: r.versionnumber, export_options: text }) : await admin.write('create', 'inu_orgsettings', { export_options: text });
  expect(w.ok, w.text).toBe(true);
};

const openAccountsExport = async (page: Page) => {
  await page.goto(`${server.url}/!/list/account`);
  await page
    .locator('.grid tbody a.row-link')
    .first()
    .waitFor()
    .catch(async (e: unknown) => {
      await shot(page, 'failed-list');
      throw e;
    });
  await page.getByRole('toolbar').getByRole('button', { name: 'Export', exact: true }).click();
  await dialog(page).waitFor();
  await dialog(page).getByRole('button', { name: 'Download' }).waitFor();
  await poll(() => dialog(page).getByRole('button', { name: 'Download' }).isEnabled()).toBe(true);
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

describe('Export (issue 17)', { timeout: 120_000 }, () => {
  it('a list exports its Selected rows as CSV: the browser downloads the file, and it holds exactly those rows', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
    await page.goto(`${server.url}/!/list/account`);
    const links = page.locator('.grid tbody a.row-link');
    await links.first().waitFor();
    const names = (await links.allTextContents()).slice(0, 2);
    for (const n of names) await page.getByRole('checkbox', { name: `Select row ${n}` }).check();
    await page.getByRole('toolbar').getByRole('button', { name: 'Export', exact: true }).click();
    const d = dialog(page);
    await d.waitFor();
    // Selected is offered (rows are selected) and chosen; csv is the default format.
    await poll(() => d.getByRole('radio', { name: /Selected/ }).isChecked()).toBe(true);
    expect(await d.getByRole('combobox', { name: 'Format' }).inputValue()).toBe('csv');
    expect(await d.getByRole('textbox', { name: 'File Name' }).inputValue()).toBe('Accounts');
    await shot(page, 'export-dialog-selected');
    const [download] = await Promise.all([page.waitForEvent('download'), d.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('Accounts.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0].split(';')).toContain('name');
    const nameAt = lines[0].split(';').indexOf('name');
    expect(lines.slice(1).map((l) => l.split(';')[nameAt].replace(/^"|"$/g, '')).sort()).toEqual([...names].sort());
    await poll(() => dialog(page).count()).toBe(0);
    await context.close();
  });

  it('All as PDF is prepared by the server and downloaded by the browser', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
    await openAccountsExport(page);
    const d = dialog(page);
    // No rows selected: Selected is not offered.
    expect(await d.getByRole('radio', { name: /Selected/ }).count()).toBe(0);
    expect(await d.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
    await d.getByRole('combobox', { name: 'Format' }).selectOption('pdf');
    await d.getByRole('checkbox', { name: 'Calculate totals' }).check();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), d.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('Accounts.pdf');
    expect(readFileSync((await download.path())!).subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });

  it('Edit Query shows what is wrong before anything is sent, and exports the edited query', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
    await openAccountsExport(page);
    const d = dialog(page);
    // Issue 15: Edit Query opens the Setup Query dialog; the query is checked there, with the path of a problem.
    await d.getByRole('button', { name: 'Edit Query' }).click();
    const sq = page.locator('dialog#setupQueryDialog');
    const editor = sq.getByRole('textbox', { name: 'Query (JSON)' });
    await editor.fill('{"entity": {"name": "account", "attributes": [{"attribute": "shoe"}]}}');
    await sq.getByText('At entity.attributes[0]: Field not found:account.shoe').waitFor();
    await editor.fill('{"entity": ');
    await sq.getByText(/^ ?Invalid JSON/).waitFor();
    await shot(page, 'export-dialog-edit-query-error');
    await editor.fill(JSON.stringify({ entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'address1_city' }], orders: [{ attribute: 'name' }] } }));
    await sq.getByRole('button', { name: 'Save' }).click();
    await poll(() => sq.count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent('download'), d.getByRole('button', { name: 'Download' }).click()]);
    const header = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '').split('\r\n')[0];
    expect(header).toBe('name;address1_city');
    await context.close();
  });

  it("takes the organization's default options from inu_orgsettings export_options, only for users who may read them; invalid JSON alerts", async () => {
    await setExportOptions(JSON.stringify({ format: 'json', formats: ['csv', 'json'], fileName: 'Firmy', totals: true }));
    try {
      const { context, page } = await newPage(browser);
      await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
      await openAccountsExport(page);
      const d = dialog(page);
      const format = d.getByRole('combobox', { name: 'Format' });
      expect(await format.inputValue()).toBe('json');
      expect(await format.locator('option').allTextContents()).toEqual(['csv', 'json']);
      expect(await d.getByRole('textbox', { name: 'File Name' }).inputValue()).toBe('Firmy');
      expect(await d.getByRole('checkbox', { name: 'Calculate totals' }).isChecked()).toBe(true);
      await shot(page, 'export-dialog-org-defaults');
      await d.getByRole('button', { name: 'Cancel' }).click();
      await poll(() => dialog(page).count()).toBe(0);

      // Salespeople have no permission on inu_orgsettings (the demo's Salesperson role): the built-in defaults.
      const nina = await newPage(browser);
      await signIn(nina.page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
      await openAccountsExport(nina.page);
      expect(await dialog(nina.page).getByRole('combobox', { name: 'Format' }).inputValue()).toBe('csv');
      expect(await dialog(nina.page).getByRole('textbox', { name: 'File Name' }).inputValue()).toBe('Accounts');
      await nina.context.close();

      await setExportOptions('{ "format": pdf');
      await page.reload();
      await page.locator('.grid tbody a.row-link').first().waitFor();
      await page.getByRole('toolbar').getByRole('button', { name: 'Export', exact: true }).click();
      await page.locator('#app-dialog-message').getByText(/^The default export options of the organization \(inu_orgsettings export_options\) are not valid: /).waitFor();
      await shot(page, 'export-dialog-invalid-options');
      await context.close();
    } finally {
      await setExportOptions(null);
    }
  });

  it('the export page lists the readable entities and no link entities; an entity opens the Export dialog', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await page.goto(`${server.url}/!/export`);
    const list = page.getByRole('list', { name: 'Export' });
    await list.waitFor();
    const shown = await list.locator('.export-entity-btn .muted').allTextContents();
    expect(shown).toContain('account');
    for (const link of ['systemuserroles', 'teammembership', 'fi_family_member']) expect(shown).not.toContain(link);
    expect(await page.getByText('This page is not available yet').count()).toBe(0);
    await shot(page, 'export-page-desktop');
    await page.getByRole('searchbox', { name: 'Search' }).fill('contact');
    await poll(() => list.locator('.export-entity-btn .muted').allTextContents()).toContain('contact');
    await list.getByRole('button', { name: /^Contacts/ }).click();
    await dialog(page).getByText('Contacts').first().waitFor();
    await shot(page, 'export-page-dialog');
    await context.close();
  });

  it('screenshots: the export page and dialog at 360 px, dark, in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/export`);
    await page.locator('.export-entities').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await shot(page, 'export-page-360-dark-sk');
    await page.locator('.export-entity-btn').first().click();
    await dialog(page).getByRole('button', { name: 'Stiahnuť' }).waitFor();
    await shot(page, 'export-dialog-360-dark-sk');
    await dialog(page).getByRole('button', { name: 'Zrušiť' }).click();
    await poll(() => dialog(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Profil' }).click();
    await page.getByRole('button', { name: 'Zmeniť heslo' }).click();
    const d = page.locator('dialog#changePasswordDialog');
    await d.getByLabel('Nové heslo').fill('one-password-1');
    await d.getByLabel('Potvrdenie hesla').fill('another-password-1');
    await d.getByText('Heslá sa nezhodujú.').waitFor();
    await shot(page, 'change-password-360-dark-sk');
    await context.close();
  });
});

describe('Admin dialogs (issue 17)', { timeout: 120_000 }, () => {
  it("Change Password on one's own account: a mismatch says so, then success in green, the dialog closes, and the new password signs in", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, TOM, DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Change Password' }).click();
    const d = page.locator('dialog#changePasswordDialog');
    await d.waitFor();
    await d.getByLabel('Old password').fill(DEMO_PASSWORD);
    await d.getByLabel('New password').fill('tom-new-password-1');
    await d.getByLabel('Confirm password').fill('tom-new-password-2');
    await d.getByText('Passwords do not match.').waitFor();
    await d.getByRole('button', { name: 'Change Password' }).click();
    await d.getByText('Passwords do not match.').waitFor();
    await shot(page, 'change-password-mismatch');
    // a wrong old password: the server's text, in red
    await d.getByLabel('Old password').fill('not-the-password');
    await d.getByLabel('Confirm password').fill('tom-new-password-1');
    await d.getByRole('button', { name: 'Change Password' }).click();
    const error = d.getByText('ERR_INPUT: The old password is not right');
    await error.waitFor();
    expect(await error.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(198, 40, 40)');
    await d.getByLabel('Old password').fill(DEMO_PASSWORD);
    await d.getByRole('button', { name: 'Change Password' }).click();
    const done = d.getByText('Password Changed');
    await done.waitFor();
    expect(await done.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(27, 127, 75)');
    await shot(page, 'change-password-success');
    await poll(() => page.locator('dialog#changePasswordDialog').count()).toBe(0);
    await expect(demoApi(server, TOM, { password: 'tom-new-password-1' })).resolves.toMatchObject({ token: expect.any(String) });
    await expect(demoApi(server, TOM)).rejects.toThrow(/sign-in of tom@demo.test failed/);
    // this session stays signed in
    await page.goto(`${server.url}/!/list/account`);
    await page.locator('.grid').waitFor();
    await context.close();
  });

  it("on a systemuser record an administrator changes another user's password (no old password) and sends an invite that lands in the outbox", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    const tara = await admin.byName('systemuser', TARA, 'emailaddress');
    await page.goto(`${server.url}/!/edit/systemuser/${String(tara.id)}`);
    await page.locator('form.panels').waitFor();
    const before = magicLinkFor(server.data, TARA);
    await page.getByRole('button', { name: 'Send Invite' }).click();
    await page.locator('.toasts').getByText('Invite Sent').waitFor();
    await poll(() => magicLinkFor(server.data, TARA)).toMatch(/reason=INVITE/);
    expect(magicLinkFor(server.data, TARA)).not.toBe(before);
    await shot(page, 'systemuser-commands');

    await page.getByRole('button', { name: 'Change Password' }).click();
    const d = page.locator('dialog#changePasswordDialog');
    await d.waitFor();
    expect(await d.getByLabel('Old password').count()).toBe(0);
    await d.getByLabel('New password').fill('tara-set-by-admin-1');
    await d.getByLabel('Confirm password').fill('tara-set-by-admin-1');
    await d.getByRole('button', { name: 'Change Password' }).click();
    await d.getByText('Password Changed').waitFor();
    await poll(() => page.locator('dialog#changePasswordDialog').count()).toBe(0);
    await context.close();
  });

  it("a salesperson's own user record offers Change Password but not Send Invite; a colleague's offers neither", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, NINA, DEMO_PASSWORD);
    const nina = await demoApi(server, NINA);
    await page.goto(`${server.url}/!/edit/systemuser/${nina.userId}`);
    await page.locator('form.panels').waitFor();
    await page.getByRole('button', { name: 'Change Password' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send Invite' }).count()).toBe(0);
    const tom = await admin.byName('systemuser', TOM, 'emailaddress');
    await page.goto(`${server.url}/!/edit/systemuser/${String(tom.id)}`);
    await page.locator('form.panels').waitFor();
    expect(await page.getByRole('button', { name: 'Change Password' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send Invite' }).count()).toBe(0);
    await context.close();
  });
});
