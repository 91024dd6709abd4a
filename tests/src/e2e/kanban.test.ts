import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 13 section 3 (kanban, view mode 4) in chromium against a fresh demo organization: the demo's
 * Lead Board opens as lanes of the lead status with the counts the API gives; a card dragged with the
 * mouse, or moved with its Move to menu from the keyboard, changes the record on the server; a save
 * that fails on the version check (the record changed by someone else first) puts the card back with
 * the error; a user who may not update a record gets no handle and no Move to on its card, and
 * dragging it changes nothing. The opportunity Pipeline shows its stages.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const TOM = 'tom@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'kanban');
const LEAD_LANES = ['New', 'Contacted', 'Qualified', 'Disqualified'];

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

const lane = (page: Page, label: string): Locator => page.locator('.kb-lane').filter({ has: page.locator('.kb-lane-title').getByText(label, { exact: true }) });
const laneCount = async (page: Page, label: string): Promise<number> => Number(await lane(page, label).locator('.kb-count').textContent());
const cardsIn = (page: Page, label: string): Locator => lane(page, label).locator('.kb-card');
const card = (page: Page, name: string): Locator => page.locator(`.kb-card[aria-label="${name.replace(/"/g, '\\"')}"]`);
const laneOfCard = async (page: Page, name: string): Promise<string | null> =>
  card(page, name).evaluate((el) => el.closest('.kb-lane')?.querySelector('.kb-lane-title')?.textContent ?? null).catch(() => null);

/** The admin's open leads per status, as the API counts them (the board's owner filter defaults to the user). */
const apiLaneCounts = async (): Promise<number[]> =>
  Promise.all(
    [1, 2, 3, 4].map((status) =>
      admin.count('lead', {
        type: 'and',
        conditions: [
          { attribute: 'statecode', operator: 'eq', value: 0 },
          { attribute: 'ownerid', operator: 'eq', value: admin.userId },
          { attribute: 'status', operator: 'eq', value: status },
        ],
      }),
    ),
  );

const statusOf = async (name: string): Promise<number> => Number((await admin.byName('lead', name)).status);

const openBoard = async (page: Page) => {
  await page.goto(`${server.url}/!/list/lead?view=board`);
  await page.locator('.kb-lane .kb-count').first().waitFor({ timeout: 30_000 });
};
/** Waits until no move is being saved (a card being saved does not drag). */
const saved = (page: Page) => poll(() => page.locator('.kb-card.kb-saving').count()).toBe(0);

/** Drags with the mouse in small steps, as a hand does: from the middle of `from` to the middle of `to`. */
const mouseDrag = async (page: Page, from: Locator, to: Locator) => {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + 12);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 20, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 120), { steps: 12 });
  await page.mouse.up();
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

describe('kanban view mode in a real browser (issue 13 section 3)', { timeout: 90_000 }, () => {
  it('the Lead Board opens as lanes of the lead status, with the counts of the API and cards showing the view columns', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    await poll(() => page.locator('.kb-lane-title').allTextContents()).toEqual(LEAD_LANES);
    const expected = await apiLaneCounts();
    expect(expected.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await poll(() => Promise.all(LEAD_LANES.map((l) => laneCount(page, l)))).toEqual(expected);
    // Each lane shows its cards (up to a page), each card its title and the view's other columns.
    for (const [i, l] of LEAD_LANES.entries()) expect(await cardsIn(page, l).count()).toBe(Math.min(expected[i], 25));
    const first = page.locator('.kb-card').first();
    await expect(first.locator('a.kb-title').getAttribute('href')).resolves.toMatch(/\/edit\/lead\/[0-9a-f-]{36}$/);
    expect(await first.locator('.kb-field dt').allTextContents()).toEqual(expect.arrayContaining(['Company']));
    await shot(page, 'lead-board');
    await context.close();
  });

  it('drags a card with the mouse to another lane: the record gets the lane value on the server', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    const from = cardsIn(page, 'New').first();
    await from.waitFor();
    const name = (await from.getAttribute('aria-label')) ?? '';
    const before = [await laneCount(page, 'New'), await laneCount(page, 'Qualified')];
    expect(await statusOf(name)).toBe(1);
    await mouseDrag(page, from, lane(page, 'Qualified'));
    await poll(() => statusOf(name)).toBe(3);
    await poll(() => laneOfCard(page, name)).toBe('Qualified');
    expect([await laneCount(page, 'New'), await laneCount(page, 'Qualified')]).toEqual([before[0] - 1, before[1] + 1]);
    await saved(page);
    // The moved card keeps working: it was read again with its new version, so a second drag saves too.
    await mouseDrag(page, card(page, name), lane(page, 'Contacted'));
    await poll(() => statusOf(name)).toBe(2);
    await expect(page.locator('.kb-alert').count()).resolves.toBe(0);
    await context.close();
  });

  it('drags a card with a finger on its handle (touch pointer events)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, hasTouch: true, locale: 'en-US', timezoneId: 'Europe/Bratislava' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    const from = cardsIn(page, 'New').first();
    await from.waitFor();
    const name = (await from.getAttribute('aria-label')) ?? '';
    const handle = await from.locator('.kb-handle').boundingBox();
    const target = await lane(page, 'Qualified').boundingBox();
    if (!handle || !target) throw new Error('nothing to drag');
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const [x0, y0] = [handle.x + handle.width / 2, handle.y + handle.height / 2];
    const [x1, y1] = [target.x + target.width / 2, target.y + 80];
    await touch('touchStart', x0, y0);
    for (let i = 1; i <= 12; i++) await touch('touchMove', x0 + ((x1 - x0) * i) / 12, y0 + ((y1 - y0) * i) / 12);
    await touch('touchEnd', x1, y1);
    await poll(() => statusOf(name)).toBe(3);
    await poll(() => laneOfCard(page, name)).toBe('Qualified');
    await context.close();
  });

  it('moves a card with the keyboard (Move to): the record changes and the focus stays on the card', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    const from = cardsIn(page, 'New').first();
    await from.waitFor();
    const name = (await from.getAttribute('aria-label')) ?? '';
    const button = from.getByRole('button', { name: `Move to: ${name}` });
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual(['Contacted', 'Qualified', 'Disqualified']);
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Contacted');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await poll(() => statusOf(name)).toBe(4);
    await poll(() => laneOfCard(page, name)).toBe('Disqualified');
    // The focus followed the card to its new lane: Enter opens its menu again, Escape closes it.
    await poll(() => page.evaluate(() => document.activeElement?.closest('.kb-card')?.getAttribute('aria-label'))).toBe(name);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('menu').count()).toBe(0);
    await context.close();
  });

  it('a save that fails the version check (the record changed elsewhere first) puts the card back with the error', async () => {
    const { context, page } = await newPage(browser);
    // No change events for this page: it keeps the version it loaded, as a user whose stream lags would.
    await context.route('**/api/stream**', (route) => route.abort());
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    const from = cardsIn(page, 'New').first();
    await from.waitFor();
    const name = (await from.getAttribute('aria-label')) ?? '';
    const lead = await admin.byName('lead', name);
    const changed = await admin.write('update', 'lead', { id: lead.id, versionnumber: lead.versionnumber, companyname: 'Changed Elsewhere Ltd' });
    expect(changed.ok).toBe(true);
    await mouseDrag(page, from, lane(page, 'Contacted'));
    const alert = page.locator('.kb-alert[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`${name} could not be moved: ERR_8001`);
    await poll(() => laneOfCard(page, name)).toBe('New');
    expect(await statusOf(name)).toBe(1);
    // The card now holds the server's record (its company and version), so the next move saves.
    await poll(() => card(page, name).locator('.kb-field dd').allTextContents()).toContain('Changed Elsewhere Ltd');
    await shot(page, 'lead-board-move-failed');
    await saved(page);
    await mouseDrag(page, card(page, name), lane(page, 'Contacted'));
    await poll(() => statusOf(name)).toBe(2);
    await poll(() => alert.count()).toBe(0);
    await context.close();
  });

  it('a user who may not update a record cannot drag its card: no handle, no Move to, and a drag changes nothing', async () => {
    // Technicians read every work order but update only their team's (business-unit level).
    const tom = await demoApi(server, TOM);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, TOM, PASSWORD);
    await page.goto(`${server.url}/!/list/workorder?view=schedule`);
    await page.locator('.mode-switcher').getByRole('radio', { name: 'Kanban' }).click();
    await page.locator('.kb-lane .kb-count').first().waitFor();
    // Show every owner's work orders.
    const owner = page.getByRole('combobox', { name: 'Owner' });
    if (await owner.count()) await owner.first().selectOption('');
    await poll(() => page.locator('.kb-card:not(.can-drag)').count()).toBeGreaterThan(0);
    const locked = page.locator('.kb-card:not(.can-drag)').first();
    const name = (await locked.getAttribute('aria-label')) ?? '';
    expect(await locked.locator('.kb-handle').count()).toBe(0);
    expect(await locked.getByRole('button', { name: /^Move to/ }).count()).toBe(0);
    const before = await tom.byName('workorder', name);
    const fromLane = await laneOfCard(page, name);
    const other = page.locator('.kb-lane').filter({ hasNot: page.locator(`.kb-card[aria-label="${name}"]`) }).first();
    await mouseDrag(page, locked, other);
    await page.waitForTimeout(500);
    expect(await laneOfCard(page, name)).toBe(fromLane);
    expect((await tom.byName('workorder', name)).versionnumber).toBe(before.versionnumber);
    // Cards of the user's own team do have both.
    const free = page.locator('.kb-card.can-drag').first();
    if (await free.count()) {
      expect(await free.locator('.kb-handle').count()).toBe(1);
      expect(await free.getByRole('button', { name: /^Move to/ }).count()).toBe(1);
    }
    await shot(page, 'workorder-board-technician');
    await context.close();
  });

  it('the opportunity Pipeline shows a lane per stage', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/list/opportunity?view=pipeline`);
    await poll(() => page.locator('.kb-lane-title').allTextContents()).toEqual(['Qualify', 'Develop', 'Propose', 'Close']);
    await shot(page, 'opportunity-pipeline');
    await context.close();
  });

  it('works at 360 px (lanes scroll sideways, not the page), in dark mode and in Slovak (screenshots)', async () => {
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoard(page);
    await page.locator('.kb-card').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'lead-board-360');
    await context.close();
    const desk = await newPage(browser);
    await signIn(desk.page, server.url, ORG, ADMIN, PASSWORD);
    await desk.page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await openBoard(desk.page);
    await desk.page.locator('.kb-card').first().waitFor();
    await desk.page.locator('.kb-card').first().getByRole('button', { name: /^Presunúť do/ }).click();
    await desk.page.getByRole('menu').waitFor();
    await shot(desk.page, 'lead-board-dark-sk');
    await desk.context.close();
  });
});
