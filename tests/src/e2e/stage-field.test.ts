import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ROOT,
  buildUi,
  demoApi,
  launchBrowser,
  newPage,
  signIn,
  startServer,
  type DemoApi,
  type Server,
} from './harness.js';

/**
 * Issue 20 "Stage field" and "Wizard" (spec 001 section 4) in chromium on the demo: the work
 * order's status as steps whose last one groups Completed and Canceled behind a choice menu, the
 * opportunity's stage taking its default when empty, and the Sales Process wizard saving
 * process_stage_index on Continue and opening at the stored step.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'stage-field');

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const field = async (entity: string, id: string, name: string) => (await admin.byName(entity, id, 'id'))[name];
const anAccount = async (): Promise<string> =>
  String(
    (
      await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'id' }] }, page: 1, pageSize: 1 })
    )[0]!.id,
  );

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

describe('the stage field (issue 20, spec 001 section 4 "Stage field")', { timeout: 120_000 }, () => {
  it('selecting a step sets the value and highlights it; a grouped step offers its values in a choice menu (mouse and keyboard)', async () => {
    const id = await admin.create('workorder', {
      name: 'E2E stages',
      customerid: { id: await anAccount(), name: 'account' },
      workordertype: 1,
      status: 1,
    });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/workorder/${id}`);
    const stage = page.locator('[data-field="status"] .stage-field');
    await stage.waitFor();
    const current = stage.locator('[aria-current="step"]');
    await poll(() => current.textContent()).toContain('Unscheduled');
    expect(await stage.getByRole('button').allTextContents()).toEqual([
      '1Unscheduled (current step)',
      '2Scheduled',
      '3In Progress',
      '4Completed / Canceled',
    ]);

    await stage
      .getByRole('button', { name: /Scheduled/ })
      .filter({ hasNotText: 'Unscheduled' })
      .click();
    await poll(() => current.textContent()).toContain('Scheduled');
    expect(await stage.locator('.stage-step.done').count()).toBe(1);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => field('workorder', id, 'status')).toBe(2);

    // The grouped step: its menu, Canceled picked with the mouse.
    const group = stage.getByRole('button', { name: /Completed \/ Canceled/ });
    await group.click();
    expect(await group.getAttribute('aria-expanded')).toBe('true');
    const menu = stage.getByRole('menu');
    expect(await menu.getByRole('menuitemradio').allTextContents()).toEqual(['Completed', 'Canceled']);
    await shot(page, 'stage-field-menu');
    await menu.getByRole('menuitemradio', { name: 'Canceled' }).click();
    await poll(() => current.textContent()).toContain('Canceled');
    expect(await menu.count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => field('workorder', id, 'status')).toBe(5);

    // The keyboard: Enter opens the menu on the chosen value, Arrow keys move, Enter picks, Escape closes.
    const step4 = page.locator('#f-status-step-3');
    await step4.focus();
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Canceled');
    await page.keyboard.press('ArrowDown');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Completed');
    await page.keyboard.press('Enter');
    await poll(() => current.textContent()).toContain('Completed');
    await step4.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    expect(await menu.count()).toBe(0);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('step');
    await shot(page, 'stage-field-desktop');
    await context.close();
  });

  it('"The default value is used when the field is empty": an opportunity without a stage stands at Qualify', async () => {
    const id = await admin.create('opportunity', {
      name: 'E2E no stage',
      customerid: { id: await anAccount(), name: 'account' },
    });
    await admin.write('update', 'opportunity', {
      id,
      stage: null,
      versionnumber: (await admin.byName('opportunity', id, 'id')).versionnumber as number,
    });
    expect(await field('opportunity', id, 'stage')).toBeNull();
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/opportunity/${id}`);
    await page.getByRole('tab', { name: 'Owner' }).click();
    const stage = page.locator('[data-field="stage"] .stage-field');
    await poll(() => stage.locator('[aria-current="step"]').textContent()).toContain('Qualify');
    // shown, not written: the form is not dirty
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    await context.close();
  });
});

describe('the wizard (issue 20, spec 001 section 4 "Wizard")', { timeout: 120_000 }, () => {
  it('Continue saves the record with process_stage_index set; the wizard opens at the stored step ("Progress is the stored stage index")', async () => {
    const id = await admin.create('opportunity', {
      name: 'E2E wizard',
      customerid: { id: await anAccount(), name: 'account' },
      process_stage_index: 0,
    });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/opportunity/${id}`);
    const wizard = page.locator('section.panel-tabs.wizard');
    await poll(() => wizard.getByRole('tab', { selected: true }).textContent()).toContain('Qualify');
    await wizard.getByRole('button', { name: 'Continue' }).click();
    await poll(() => field('opportunity', id, 'process_stage_index')).toBe(1);
    await poll(() => wizard.getByRole('tab', { selected: true }).textContent()).toContain('Develop');
    await wizard.getByRole('button', { name: 'Continue' }).click();
    await poll(() => field('opportunity', id, 'process_stage_index')).toBe(2);
    await shot(page, 'wizard-step-3');

    await page.reload();
    await poll(() => wizard.getByRole('tab', { selected: true }).textContent()).toContain('Propose');
    expect(await wizard.locator('.tab-btn.done').count()).toBe(2);
    await context.close();
  });
});

// Last: the language chosen here is kept in the user's settings on the server.
describe('the stage field on a phone (issue 20)', { timeout: 120_000 }, () => {
  it('at 360 px, dark, in Slovak the steps stack and nothing scrolls sideways', async () => {
    const id = await admin.create('workorder', {
      name: 'E2E fázy',
      customerid: { id: await anAccount(), name: 'account' },
      workordertype: 1,
      status: 3,
    });
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/workorder/${id}`);
    const stage = page.locator('[data-field="status"] .stage-field');
    await poll(() => stage.locator('[aria-current="step"]').textContent()).toContain('aktuálny krok');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await stage.scrollIntoViewIfNeeded();
    await shot(page, 'stage-field-360-dark-sk');
    await context.close();
  });
});
