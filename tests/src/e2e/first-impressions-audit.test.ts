import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, launchBrowser, newPage, screenshot, signIn, startServer, type Server } from './harness.js';

/**
 * Issue 23 item 6, the audit: every write is an audit row the store writes itself, read-only for
 * everyone, and every form of an audited record shows its History (who, when, what changed).
 * Chromium against `tessera serve` with a fresh demo organization; one server and one browser.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let server: Server;
let browser: Browser;

/** The API as a second client: writes and reads records, never checks the UI's own work. */
const api = async (email: string) => {
  const { fetchRecords, write } = await demoApi(server, email);
  const auditOf = (id: string) =>
    fetchRecords({
      entity: { name: 'audit', allattrs: true, filter: { conditions: [{ attribute: 'objectid', operator: 'eq', value: id }] }, orders: [{ attribute: 'createdon', descending: true }] },
    });
  return { fetchRecords, write, auditOf };
};

const openRecord = async (page: Page, entity: string, id: string) => {
  await page.goto(`${server.url}/!/edit/${entity}/${id}`);
  await page.locator('form.panels').waitFor();
};

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 100 });

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('issue 23 item 6: audit of every write and a History panel on every form', () => {
  let id = '';

  it('an update appears in History with old and new values (who, when, field labels, newest first)', async () => {
    const admin = await api(ADMIN);
    const created = await admin.write('create', 'account', { name: 'Audit Trail Ltd', telephone1: '+421 900 000 001', numberofemployees: 10 });
    expect(created.ok).toBe(true);
    id = created.text;
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openRecord(page, 'account', id);
    await page.getByRole('textbox', { name: 'Phone' }).fill('+421 900 000 002');
    await page.locator('#f-numberofemployees').fill('25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (await admin.auditOf(id)).length).toBe(2);

    // The store wrote the rows: the update's body holds exactly the changed fields, old and new.
    const [update, create] = await admin.auditOf(id);
    expect(update.operation).toBe(2);
    expect(JSON.parse(String(update.body))).toEqual({ telephone1: { old: '+421 900 000 001', new: '+421 900 000 002' }, numberofemployees: { old: 10, new: 25 } });
    expect(create.operation).toBe(1);

    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'History' }).click();
    const entries = history.locator('.history-entry');
    await poll(() => entries.count()).toBe(2);
    const newest = entries.nth(0);
    expect(await newest.locator('.history-head').textContent()).toContain('Changed');
    expect(await newest.locator('.history-head').textContent()).toContain('Ada Admin');
    const phone = newest.locator('.history-change', { hasText: 'Phone' });
    expect(await phone.locator('.history-old').textContent()).toBe('+421 900 000 001');
    expect(await phone.locator('.history-new').textContent()).toBe('+421 900 000 002');
    const employees = newest.locator('.history-change', { hasText: 'Employees' });
    expect(await employees.locator('.history-old').textContent()).toBe('10');
    expect(await employees.locator('.history-new').textContent()).toBe('25');
    expect(await entries.nth(1).locator('.history-head').textContent()).toContain('Created');
    // No bare id where a name exists.
    expect(await history.textContent()).not.toMatch(UUID);
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, 'audit-history');

    // A later save adds an entry on top without reopening the panel.
    await page.getByRole('textbox', { name: 'Phone' }).fill('+421 900 000 003');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => entries.count()).toBe(3);
    expect(await entries.nth(0).locator('.history-change', { hasText: 'Phone' }).locator('.history-new').textContent()).toBe('+421 900 000 003');
    await context.close();
  }, 90_000);

  it('History at 360 px, in dark mode and in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await openRecord(page, 'account', id);
    const history = page.getByRole('region', { name: 'História' });
    await history.getByRole('button', { name: 'História' }).click();
    await poll(() => history.locator('.history-entry').count()).toBe(3);
    expect(await history.locator('.history-entry').nth(0).locator('.history-head').textContent()).toContain('Zmenené');
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, 'audit-history-360-dark-sk');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await context.close();
  }, 90_000);

  it('audit rows are read-only for everyone: the API refuses writes, the audit form offers no Save, Create Copy, Delete or New; Undo Delete is kept', async () => {
    const admin = await api(ADMIN);
    const [row] = await admin.auditOf(id);
    const forged = await admin.write('create', 'audit', { name: 'forged', logicalname: 'account', operation: 3, body: '{}' });
    expect(forged.ok).toBe(false);
    expect(forged.text).toContain('ERR_PERMISSION');
    expect((await admin.write('update', 'audit', { id: row.id, body: '{}' })).ok).toBe(false);
    expect((await admin.write('delete', 'audit', { id: row.id })).ok).toBe(false);

    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openRecord(page, 'audit', String(row.id));
    await page.getByText('Read only').waitFor();
    const bar = page.locator('.screen-head');
    for (const name of ['Save', 'Create Copy', 'Delete', 'New']) expect(await bar.getByRole('button', { name, exact: true }).count()).toBe(0);
    // Undo Delete belongs to delete rows only; this one is an update. No bare record id on the form.
    expect(await bar.getByRole('button', { name: 'Undo Delete' }).count()).toBe(0);
    const values = await page.locator('form.panels input:not([type=hidden])').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(' '));
    expect(values).toContain('Audit Trail Ltd');
    expect(values).not.toMatch(UUID);
    await screenshot(page, 'audit-record-read-only');

    // Undo Delete: delete the account, then restore it from its delete row.
    const [account] = await admin.fetchRecords({ entity: { name: 'account', allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
    expect((await admin.write('delete', 'account', { id, versionnumber: account.versionnumber })).ok).toBe(true);
    const [deleted] = await admin.auditOf(id);
    expect(deleted.operation).toBe(3);
    await openRecord(page, 'audit', String(deleted.id));
    await page.getByRole('button', { name: 'Undo Delete' }).click();
    await page.getByText('Record restored').waitFor();
    await poll(async () => (await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } })).map((r) => r.name)).toEqual(['Audit Trail Ltd']);

    // The Audit list: no New, quick filters by record, user and date.
    await page.goto(`${server.url}/!/list/audit`);
    await page.locator('.screen').first().waitFor();
    await page.getByRole('searchbox', { name: 'Record' }).or(page.getByRole('textbox', { name: 'Record' })).first().fill('Audit Trail');
    await poll(async () => (await page.locator('body').textContent()) ?? '').toContain('Audit Trail Ltd');
    expect(await page.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await screenshot(page, 'audit-list-filtered');
    await context.close();
  }, 90_000);
});
