import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, launchBrowser, newPage, screenshot, signIn, startServer, type Server } from './harness.js';

/**
 * Issue 23, the record form (items 1, 7, 8, 9, 11): what a new administrator and a salesperson
 * hit first, in chromium against `tessera serve` with a fresh demo organization. One server and
 * one browser for the file; each test opens its own context (its own session).
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const NINA = 'nina@demo.test';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let server: Server;
let browser: Browser;

/** The API as a second, scriptable client: finds and writes records, never checks the UI's own work. */
const api = async (email: string) => {
  const { userId, fetchRecords, byName, write: post } = await demoApi(server, email);
  const write = async (operation: 'create' | 'update', name: string, object: Record<string, unknown>): Promise<string> => {
    const r = await post(operation, name, object);
    if (!r.ok) throw new Error(r.text);
    return r.text;
  };
  /** The names of a user's roles, read through the link entity. */
  const rolesOf = async (user: string): Promise<string[]> =>
    (
      await fetchRecords({
        entity: {
          name: 'inu_role',
          attributes: [{ attribute: 'name' }],
          links: [{ name: 'systemuserroles', from: 'id', to: 'roleid', type: 'inner', filter: { conditions: [{ attribute: 'systemuserid', operator: 'eq', value: user }] } }],
          orders: [{ attribute: 'name' }],
        },
      })
    ).map((r) => String(r.name));
  const byId = async (entity: string, id: string): Promise<Record<string, unknown>> => byName(entity, id, 'id');
  return { userId, fetchRecords, write, byName, byId, rolesOf };
};

const openRecord = async (page: Page, entity: string, id: string) => {
  await page.goto(`${server.url}/!/edit/${entity}/${id}`);
  await page.locator('form.panels').waitFor();
};

/** Polls for up to 10 s: the suite may share two cores with other work. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });

/** Dark mode and Slovak, stored as the profile menu stores them (read on the next page load). */
const darkSlovak = (page: Page) =>
  page.evaluate(() => {
    localStorage.setItem('tessera.colorTheme', '1');
    localStorage.setItem('tessera.language', 'sk');
  });

/** A name no demo record has, so that the namesakes are only those the test creates. */
const NAMESAKE = 'Alpine Werkstatt';

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('issue 23: first impressions in the record form', () => {
  it("item 1: the user form's Roles tab lists the user's roles (no server error); Add and Remove write the link rows", async () => {
    const admin = await api(ADMIN);
    const tom = await admin.byName('systemuser', 'tom@demo.test', 'emailaddress');
    expect(await admin.rolesOf(String(tom.id))).toEqual(['Technician']);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openRecord(page, 'systemuser', String(tom.id));
    const tab = page.getByRole('tab', { name: 'Roles (1)' });
    await tab.click();
    const panel = page.getByRole('tabpanel', { name: 'Roles (1)' });
    await panel.getByRole('link', { name: 'Technician' }).waitFor();
    expect(await page.locator('form.panels').textContent()).not.toContain('Server Error');

    // Add: the many-to-many dialog, search, tick, Add.
    await panel.getByRole('button', { name: 'Add' }).click();
    const dialog = page.locator('#EditObjectsDialog');
    await dialog.getByRole('heading', { name: 'Add Roles' }).waitFor();
    const linked = dialog.getByRole('checkbox', { name: 'Technician' });
    await linked.waitFor();
    expect(await linked.isChecked()).toBe(true);
    expect(await linked.isDisabled()).toBe(true);
    await dialog.getByRole('searchbox', { name: 'Search' }).fill('Sales');
    await poll(() => dialog.getByRole('checkbox').count()).toBe(1);
    await dialog.getByRole('checkbox', { name: 'Salesperson' }).check();
    await dialog.getByRole('tab', { name: '1 selected' }).click();
    await dialog.getByRole('checkbox', { name: 'Salesperson' }).waitFor();
    await screenshot(page, 'form-m2m-dialog');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    // The link is pending until Save (the save sequence's afterSave step writes it): shown as added, nothing written yet.
    await page.getByRole('tab', { name: 'Roles (2)' }).waitFor();
    const roles2 = page.getByRole('tabpanel', { name: 'Roles (2)' });
    await roles2.getByText('Added on save').waitFor();
    expect(await admin.rolesOf(String(tom.id))).toEqual(['Technician']);
    await screenshot(page, '../m2m/pending-add-desktop');
    await page.setViewportSize({ width: 360, height: 740 });
    await roles2.getByText('Added on save').scrollIntoViewIfNeeded();
    await screenshot(page, '../m2m/pending-add-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await roles2.getByRole('link', { name: 'Salesperson' }).waitFor();
    await poll(() => admin.rolesOf(String(tom.id))).toEqual(['Salesperson', 'Technician']);
    await screenshot(page, 'form-user-roles');

    // Remove: tick the linked record, Remove (pending, with undo), Save; the role itself stays.
    await roles2.getByRole('checkbox', { name: 'Select Salesperson' }).check();
    await roles2.getByRole('button', { name: 'Remove (1)' }).click();
    await page.getByRole('tab', { name: 'Roles (1)' }).waitFor();
    await page.getByRole('tabpanel', { name: 'Roles (1)' }).getByText('Removed on save').waitFor();
    await screenshot(page, '../m2m/pending-remove-desktop');
    expect(await admin.rolesOf(String(tom.id))).toEqual(['Salesperson', 'Technician']);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => admin.rolesOf(String(tom.id))).toEqual(['Technician']);
    expect((await admin.byName('inu_role', 'Salesperson')).id).toBeTruthy();

    // The role lists its users (the other side): the role editor's "Users and details" (issue 15) opens the role as a record.
    const technician = await admin.byName('inu_role', 'Technician');
    await page.goto(`${server.url}/!/edit/inu_role/${technician.id}`);
    await page.getByRole('link', { name: 'Users and details' }).click();
    await page.locator('form.panels').waitFor();
    const users = page.getByRole('tab', { name: /^Users \(\d+\)$/ });
    await users.click();
    await page.getByRole('tabpanel', { name: /^Users/ }).getByRole('link', { name: 'Tom Tech' }).waitFor();
    await context.close();
  }, 90_000);

  it('item 1: Profile → Edit profile shows the Roles tab without an error for a salesperson', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByText('Edit profile').click();
    await page.locator('form.panels').waitFor();
    await page.getByRole('tab', { name: /^Roles/ }).click();
    await page.waitForTimeout(500);
    expect(await page.locator('form.panels').textContent()).not.toMatch(/Server Error|ERR_/);
    await context.close();
  }, 60_000);

  it("item 7: no bare id in the record header or its fields: a record the system created reads 'System'", async () => {
    const admin = await api(ADMIN);
    const role = await admin.byName('inu_role', 'Technician');
    expect(role.createdby).toMatchObject({ id: '00000000-0000-0000-0000-000000000000' });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    // The role as a record (the role editor's "Users and details", issue 15).
    await openRecord(page, 'inu_role', `${String(role.id)}/details`);
    await poll(() => page.getByRole('combobox', { name: 'Created By' }).inputValue()).toBe('System');
    expect(await page.getByRole('combobox', { name: 'Modified By' }).inputValue()).toBe('System');
    expect(await page.locator('.screen-head').innerText()).not.toMatch(UUID);
    const values = await page.locator('form.panels input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values.filter((v) => UUID.test(v))).toEqual([]);
    expect(await page.locator('form.panels').innerText()).not.toMatch(UUID);
    await screenshot(page, 'form-system-user');
    await context.close();
  }, 60_000);

  it('item 8: two same-named accounts are told apart in the lookup dialog (city and owner); a record is not offered as its own parent', async () => {
    const admin = await api(ADMIN);
    const cities = ['Brno', 'Graz', 'Linz'];
    const ids: string[] = [];
    for (const city of cities) ids.push(await admin.write('create', 'account', { name: NAMESAKE, address1_city: city }));
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openRecord(page, 'account', ids[0]);
    await page.getByRole('button', { name: 'Browse Accounts' }).first().waitFor();
    // The Parent Account field's browse button.
    await page.locator('[data-field="parentaccountid"]').getByRole('button', { name: 'Browse Accounts' }).click();
    const dialog = page.locator('#LookupDialog');
    await dialog.getByRole('searchbox', { name: 'Search' }).fill(NAMESAKE);
    const options = dialog.getByRole('option');
    await poll(() => options.count()).toBe(2);
    const texts = await options.allInnerTexts();
    // Brno is the record itself: not offered; the other two differ by their secondary columns.
    expect(texts.some((x) => x.includes('Brno'))).toBe(false);
    expect(texts.find((x) => x.includes('Graz'))).toContain('Ada Admin');
    expect(texts.find((x) => x.includes('Linz'))).toBeTruthy();
    expect(new Set(texts).size).toBe(2);
    // No large empty gap: the search box is one line high and the list follows it closely.
    const search = await dialog.locator('.dialog-search').boundingBox();
    const list = await dialog.locator('.pick-list').boundingBox();
    expect(search!.height).toBeLessThan(60);
    expect(list!.y - (search!.y + search!.height)).toBeLessThan(24);
    await screenshot(page, 'form-lookup-dialog');
    // The typed search of the lookup shows the same details and leaves the record out too.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const parent = page.getByRole('combobox', { name: 'Parent Account' });
    await parent.click();
    await parent.fill(NAMESAKE);
    const listbox = page.getByRole('listbox', { name: 'Parent Account' });
    await poll(() => listbox.getByRole('option').count()).toBe(2);
    expect((await listbox.getByRole('option').allInnerTexts()).join(' ')).not.toContain('Brno');
    await context.close();
  }, 60_000);

  it("item 9: a new record's title reads 'New Account' until it has a name", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await page.goto(`${server.url}/!/edit/account/0`);
    await poll(() => page.locator('h1.screen-title').textContent()).toBe('New Account');
    await page.locator('#f-name').fill('Zeta Works');
    await poll(() => page.locator('h1.screen-title').textContent()).toBe('Zeta Works');
    await page.locator('#f-name').fill('');
    await poll(() => page.locator('h1.screen-title').textContent()).toBe('New Account');
    await context.close();
  }, 60_000);

  it("item 11: a version conflict is titled 'This record was modified by {modifier}' and offers Reload or Keep mine", async () => {
    const nina = await api(NINA);
    // The other session is Nina's too (another tab): a salesperson may not read other users' names.
    const other = await api(NINA);
    const [own] = await nina.fetchRecords({
      entity: { name: 'account', attributes: [{ attribute: 'id' }, { attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: nina.userId }] }, orders: [{ attribute: 'name' }] },
      page: 1,
      pageSize: 1,
    });
    const id = String(own.id);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await openRecord(page, 'account', id);
    const phone = page.getByRole('textbox', { name: 'Phone' });

    // Keep mine: the other user's change to the same field is reviewed, then overwritten by mine.
    await phone.fill('+421 900 111 111');
    const current = await other.byId('account', id);
    await other.write('update', 'account', { id, versionnumber: current.versionnumber, telephone1: '+43 1 222 222' });
    // The server's change notification may ask first (the form is then inert behind the dialog).
    await page.getByRole('button', { name: 'Save', exact: true }).click({ timeout: 1500 }).catch(() => undefined);
    const title = page.locator('#app-dialog-title');
    await poll(() => title.textContent()).toBe('This record was modified by Nina North');
    expect(await title.textContent()).not.toContain('Something went wrong');
    expect(await title.textContent()).not.toMatch(UUID);
    const dialog = page.locator('dialog.modal[open]');
    await dialog.getByRole('button', { name: 'Reload' }).waitFor();
    await screenshot(page, 'form-conflict');
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    expect(await phone.inputValue()).toBe('+421 900 111 111');
    await page.locator('[data-field="telephone1"] .field-conflict', { hasText: 'Also changed by Nina North' }).waitFor();
    await screenshot(page, 'form-conflict-review');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (await other.byId('account', id)).telephone1).toBe('+421 900 111 111');

    // Reload: the other user's value is shown and mine is dropped.
    await poll(() => page.locator('[data-field="telephone1"] .field-conflict').count()).toBe(0);
    await phone.fill('+421 900 333 333');
    const again = await other.byId('account', id);
    await other.write('update', 'account', { id, versionnumber: again.versionnumber, telephone1: '+43 1 444 444' });
    await page.getByRole('button', { name: 'Save', exact: true }).click({ timeout: 1500 }).catch(() => undefined);
    await poll(() => title.textContent()).toBe('This record was modified by Nina North');
    await page.locator('dialog.modal[open]').getByRole('button', { name: 'Reload' }).click();
    await poll(() => phone.inputValue()).toBe('+43 1 444 444');
    await context.close();
  }, 90_000);

  it('looks right at 360 px, in dark mode and in Slovak (screenshots)', async () => {
    const admin = await api(ADMIN);
    const tom = await admin.byName('systemuser', 'tom@demo.test', 'emailaddress');
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await darkSlovak(page);
    await openRecord(page, 'systemuser', String(tom.id));
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.locator('.panel-tabs [role=tab]').first().click();
    const roles = page.locator('.panel-tabs [role=tabpanel]:not([hidden])');
    await roles.getByRole('link', { name: 'Technician' }).waitFor();
    await roles.scrollIntoViewIfNeeded();
    await screenshot(page, 'form-user-roles-360-dark-sk');
    await roles.getByRole('button', { name: 'Pridať' }).click();
    await page.locator('#EditObjectsDialog').getByRole('heading', { name: /^Pridať: / }).waitFor();
    await page.locator('#EditObjectsDialog').getByRole('checkbox').first().waitFor();
    await screenshot(page, 'form-m2m-dialog-360-dark-sk');
    await page.keyboard.press('Escape');
    const account = await admin.byName('account', NAMESAKE);
    await openRecord(page, 'account', String(account.id));
    await page.locator('[data-field="parentaccountid"]').getByRole('button').last().click();
    await page.locator('#LookupDialog').getByRole('searchbox').fill(NAMESAKE);
    await poll(() => page.locator('#LookupDialog').getByRole('option').count()).toBe(2);
    await screenshot(page, 'form-lookup-dialog-360-dark-sk');
    await context.close();
  }, 90_000);
});
