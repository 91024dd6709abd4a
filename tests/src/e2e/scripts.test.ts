import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, DEMO_ORG, DEMO_PASSWORD, launchBrowser, newPage, ROOT, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 16, "Scripts in the browser": metadata scripts (inu_view records of kind script) run in a
 * Web Worker sandbox. The demo's opportunity form names its events opportunity.change,
 * opportunity.validate and opportunity.postsave; the administrator writes them here through the
 * API before signing in, as the Customize app would.
 */
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'scripts');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const SCRIPTS: Record<string, string> = {
  // Worked example 1 of docs/scripts.md: compute a field on change.
  'opportunity.change': [
    "if (context.record.changed.includes('estimatedvalue') || context.record.changed.includes('closeprobability')) {",
    "  const value = Number(context.record.get('estimatedvalue') ?? 0);",
    "  const probability = Number(context.record.get('closeprobability') ?? 0);",
    "  context.record.set('actualvalue', Math.round(value * probability) / 100);",
    '}',
  ].join('\n'),
  // Worked example 2: veto a save with a message; and two bad scripts' ways to fail.
  'opportunity.validate': [
    "const name = String(context.record.get('name') ?? '');",
    "if (name.includes('forbidden')) veto('An opportunity name may not say forbidden.');",
    "if (name.startsWith('THROW')) throw new Error('boom');",
    "if (name.startsWith('HANG')) { while (true) {} }",
  ].join('\n'),
  // Worked example 3: a list command that closes the selected opportunities.
  'opportunity.closewon': [
    "if (context.selected.length === 0) { await alert('Select the opportunities to close.'); return; }",
    "if (!(await confirm('Close ' + context.selected.length + ' opportunities as won?'))) return;",
    'const today = new Date().toISOString().slice(0, 10);',
    "await executeMultiple(context.selected.map((r) => ({ operation: 'update', name: 'opportunity', object: { id: r.id, outcome: 2, actualclosedate: today } })));",
    "toast(context.selected.length + ' opportunities closed as won');",
  ].join('\n'),
};

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
const poll = <T>(read: () => T | Promise<T>, timeout = 10_000) => expect.poll(read, { timeout, interval: 100 });
const dialogText = (page: Page) => page.locator('dialog.modal[open] #app-dialog-message');

const opportunity = async (name: string): Promise<Record<string, unknown>> => admin.byName('opportunity', name);
const newOpportunity = async (name: string): Promise<string> => {
  const [account] = await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 });
  // Closing this month and owned by the administrator: the quick filters of the list show it.
  const closes = new Date().toISOString().slice(0, 10);
  return admin.create('opportunity', { name, customerid: { id: String(account.id), name: 'account' }, estimatedvalue: 10000, closeprobability: 10, outcome: 1, estimatedclosedate: closes });
};
const openForm = async (page: Page, id: string) => {
  await page.goto(`${server.url}/!/edit/opportunity/${id}`);
  await page.locator('form.panels').waitFor();
};

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
  for (const [name, source] of Object.entries(SCRIPTS)) await admin.create('inu_view', { name, kind: 'script', objectname: 'opportunity', body: JSON.stringify({ source }) });
  // The opportunity lists offer the custom command.
  for (const v of await admin.fetchRecords({ entity: { name: 'inu_view', allattrs: true, filter: { conditions: [{ attribute: 'kind', operator: 'eq', value: 'view' }, { attribute: 'objectname', operator: 'eq', value: 'opportunity' }] } }, page: 1, pageSize: 50 })) {
    const body = JSON.parse(String(v.body)) as Record<string, unknown>;
    const r = await admin.write('update', 'inu_view', { id: v.id, versionnumber: v.versionnumber, body: JSON.stringify({ ...body, commands: [{ kind: 'custom', name: 'closewon', label: 'Close as won', permissions: 'opportunity;2' }] }) });
    if (!r.ok) throw new Error(`view ${String(v.name)}: ${r.text}`);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('scripts in the browser (issue 16)', { timeout: 90_000 }, () => {
  it('a change script fills a field: actual value = estimated value x probability', async () => {
    const id = await newOpportunity('Scripted change');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openForm(page, id);
    await page.locator('#f-closeprobability').fill('50');
    await poll(async () => (await page.locator('#f-actualvalue').inputValue()).replace(/[^\d]/g, '')).toMatch(/^5000(00)?$/);
    await shot(page, 'change-script');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => Number((await opportunity('Scripted change')).actualvalue)).toBe(5000);
    await context.close();
  });

  it('a validate script vetoes a save with its message, and nothing is saved', async () => {
    const id = await newOpportunity('Scripted veto');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openForm(page, id);
    await page.locator('#f-name').fill('A forbidden deal');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => dialogText(page).textContent()).toBe('An opportunity name may not say forbidden.');
    await shot(page, 'validate-veto');
    await page.locator('dialog.modal[open] .modal-actions button').last().click();
    expect((await opportunity('Scripted veto')).name).toBe('Scripted veto');
    await context.close();
  });

  it('a throwing script is said with its name and line; a hanging one is stopped after 5 s with an error', async () => {
    const id = await newOpportunity('Scripted failures');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await openForm(page, id);
    await page.locator('#f-name').fill('THROW please');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => dialogText(page).textContent()).toBe('The script opportunity.validate failed at line 3: Error: boom');
    await page.locator('dialog.modal[open] .modal-actions button').last().click();
    await page.locator('#f-name').fill('HANG please');
    const started = Date.now();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => dialogText(page).textContent(), 15_000).toBe('The script opportunity.validate was stopped: it ran longer than 5 s.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    await shot(page, 'hanging-script');
    await page.locator('dialog.modal[open] .modal-actions button').last().click();
    // The page still works: the form saves once the name is fine.
    await page.locator('#f-name').fill('Scripted failures fixed');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (await admin.fetchRecords({ entity: { name: 'opportunity', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } }))[0]?.name).toBe('Scripted failures fixed');
    await context.close();
  });

  it('a script error at 360 px, dark, in Slovak: the alert names the script and its line, nothing scrolls sideways', async () => {
    const id = await newOpportunity('Scripted narrow');
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await openForm(page, id);
    await page.locator('#f-name').fill('THROW narrow');
    await page.getByRole('button', { name: 'Uložiť', exact: true }).click();
    await poll(() => dialogText(page).textContent()).toBe('Skript opportunity.validate zlyhal na riadku 3: Error: boom');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'script-error-360-dark-sk');
    await context.close();
  });

  it('a custom list command runs on the two selected records', async () => {
    const first = await newOpportunity('AAA scripted close 1');
    const second = await newOpportunity('AAA scripted close 2');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO_ORG, ADMIN, DEMO_PASSWORD);
    await page.goto(`${server.url}/!/list/opportunity`);
    const search = page.getByRole('searchbox').first();
    await search.fill('AAA scripted close');
    await poll(() => page.locator('.grid tbody tr:has(a.row-link)').count()).toBe(2);
    for (const row of await page.locator('.grid tbody tr:has(a.row-link) td.col-check input').all()) await row.check();
    await shot(page, 'list-command-selected');
    await page.getByRole('button', { name: 'Close as won' }).click();
    await poll(() => dialogText(page).textContent()).toBe('Close 2 opportunities as won?');
    await page.locator('dialog.modal[open] .modal-actions button').last().click();
    await page.getByText('2 opportunities closed as won').waitFor();
    for (const id of [first, second]) {
      await poll(async () => (await admin.fetchRecords({ entity: { name: 'opportunity', attributes: [{ attribute: 'outcome' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } }))[0]?.outcome).toBe(2);
    }
    await context.close();
  });
});
