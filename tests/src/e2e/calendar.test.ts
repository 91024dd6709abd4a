import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type DemoRecord, type Server } from './harness.js';

/**
 * Issue 14 "Calendar" (spec 001 section 2, view mode 2) in chromium against a fresh demo
 * organization: the demo's Schedule view of work orders opens as a week of the demo's events;
 * an event dragged two hours later and then resized by its bottom edge is saved (read back through
 * the API); a move that fails the version check (the record changed elsewhere first) puts the event
 * back and shows the error in a dialog; the five views (month, week, working week, three days, day)
 * switch; a double click opens the create-record dialog with the new event's start and end.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'calendar');
/** Pixels of a 15-minute row of the time grids (calendar-view.tsx ROW_PX). */
const ROW = 12;
const HOUR = 3_600_000;

let server: Server;
let browser: Browser;
let admin: DemoApi;
/** The week shown: the one of the first work order scheduled after today (a Monday, YYYY-MM-DD). */
let day: string;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

const workOrder = async (id: string): Promise<DemoRecord> => {
  const [r] = await admin.fetchRecords({ entity: { name: 'workorder', allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } }, page: 1, pageSize: 1 });
  return r;
};
const ms = (v: unknown) => Date.parse(String(v));

/** Opens the Schedule view on `date` (the calendar keeps its selected date and mode for the session). */
const openSchedule = async (page: Page, date: string, mode = 'week') => {
  await page.goto(`${server.url}/!/list/workorder?view=schedule`);
  await page.evaluate(
    ([d, m]) => {
      sessionStorage.setItem('tessera.calendar.date.workorder', d);
      sessionStorage.setItem('tessera.calendar.mode.workorder', m);
      // No quick filter (the demo's bar starts on Status: Scheduled): the calendar shows every open work order.
      sessionStorage.setItem('tessera.quickFilters.workorder', JSON.stringify({ search: null, status: null, type: null, scheduled: null, owner: null, overdue: null }));
    },
    [date, mode],
  );
  await page.reload();
  await page.locator('.calendar').waitFor({ timeout: 30_000 });
};
const events = (page: Page): Locator => page.locator('.cal-event');
/** An event the user may drag, well inside its day (so two hours later stays on the same day). */
const draggable = async (page: Page): Promise<Locator> => {
  await events(page).first().waitFor();
  // One segment only (an event over midnight shows on each of its days), starting on its day in the grid.
  const ids = await page.locator('.cal-col .cal-event.can-drag').evaluateAll((els) => {
    const all = els.map((e) => e.getAttribute('data-event-id'));
    return els
      .filter((e) => all.filter((id) => id === e.getAttribute('data-event-id')).length === 1)
      .filter((e) => (e as HTMLElement).offsetTop > 0 && (e as HTMLElement).offsetTop < 18 * 4 * 12)
      .map((e) => e.getAttribute('data-event-id'));
  });
  if (!ids[0]) throw new Error('no event to drag');
  return page.locator(`.cal-col .cal-event[data-event-id="${ids[0]}"]`);
};
/** Drags with the mouse in small steps, as a hand does: from a point of `el` by (dx, dy). */
const mouseDrag = async (page: Page, el: Locator, dx: number, dy: number, at: 'top' | 'bottom' = 'top') => {
  await el.scrollIntoViewIfNeeded();
  const a = await el.boundingBox();
  if (!a) throw new Error('nothing to drag');
  const x = a.x + a.width / 2;
  const y = at === 'top' ? a.y + 6 : a.y + a.height - 3;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + 6, { steps: 2 });
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
};
const saved = (page: Page) => poll(() => page.locator('.cal-event.cal-saving').count()).toBe(0);

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
  const [next] = await admin.fetchRecords({
    entity: {
      name: 'workorder',
      attributes: [{ attribute: 'id' }, { attribute: 'scheduledstart' }],
      filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }, { attribute: 'scheduledstart', operator: 'gt', value: new Date(Date.now() + 24 * HOUR).toISOString() }] },
    },
    orders: [{ attribute: 'scheduledstart', descending: false }],
    page: 1,
    pageSize: 1,
  });
  day = new Date(ms(next.scheduledstart) + 2 * HOUR).toISOString().slice(0, 10);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('calendar view mode in a real browser (issue 14 "Calendar")', { timeout: 120_000 }, () => {
  it("a week of the Schedule view shows the demo's work orders of that week (Monday to Sunday), each named with its time", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day);
    await events(page).first().waitFor();
    const heads = await page.locator('.cal-dayhead').allTextContents();
    expect(heads).toHaveLength(7);
    expect(heads[0]).toMatch(/^Mon/);
    // The API's open work orders overlapping the week shown (Bratislava time), against the events drawn.
    const monday = await page.locator('.cal-col').first().getAttribute('data-date');
    const sunday = await page.locator('.cal-col').last().getAttribute('data-date');
    const start = new Date(`${monday}T00:00:00+01:00`);
    const end = new Date(new Date(`${sunday}T00:00:00+01:00`).getTime() + 24 * HOUR);
    const inWeek = await admin.fetchRecords({
      entity: {
        name: 'workorder',
        attributes: [{ attribute: 'id' }, { attribute: 'name' }],
        filter: {
          conditions: [
            { attribute: 'statecode', operator: 'eq', value: 0 },
            { attribute: 'scheduledend', operator: 'gt', value: start.toISOString() },
            { attribute: 'scheduledstart', operator: 'lt', value: end.toISOString() },
          ],
        },
      },
      page: 1,
      pageSize: 500,
    });
    expect(inWeek.length).toBeGreaterThan(0);
    const shown = new Set(await events(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-event-id'))));
    expect([...shown].sort()).toEqual(inWeek.map((r) => String(r.id)).sort());
    // A screen reader hears each event's name and time.
    const first = inWeek[0];
    const label = await page.locator(`.cal-event[data-event-id="${String(first.id)}"]`).first().getAttribute('aria-label');
    expect(label).toContain(String(first.name));
    expect(label).toMatch(/\d{1,2}:\d{2}/);
    await shot(page, 'schedule-week');
    await context.close();
  });

  it('drags an event two hours later, then its bottom edge an hour down: both saved (read through the API)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day);
    const ev = await draggable(page);
    const id = (await ev.getAttribute('data-event-id')) ?? '';
    const before = await workOrder(id);
    await mouseDrag(page, ev, 0, 8 * ROW);
    await poll(async () => ms((await workOrder(id)).scheduledstart)).toBe(ms(before.scheduledstart) + 2 * HOUR);
    expect(ms((await workOrder(id)).scheduledend)).toBe(ms(before.scheduledend) + 2 * HOUR);
    await saved(page);
    // The bottom edge (an event over midnight has it on its last day only).
    await mouseDrag(page, page.locator(`.cal-col .cal-event[data-event-id="${id}"] .cal-resize`), 0, 4 * ROW, 'bottom');
    await poll(async () => ms((await workOrder(id)).scheduledend)).toBe(ms(before.scheduledend) + 3 * HOUR);
    expect(ms((await workOrder(id)).scheduledstart)).toBe(ms(before.scheduledstart) + 2 * HOUR);
    await saved(page);
    await expect(page.locator('dialog.modal[open]').count()).resolves.toBe(0);
    await context.close();
  });

  it('a move that fails the version check returns the event to its old time and shows the error in a dialog', async () => {
    const { context, page } = await newPage(browser);
    // No change events for this page: it keeps the version it loaded, as a user whose stream lags would.
    await context.route('**/api/stream**', (route) => route.abort());
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day);
    const ev = await draggable(page);
    const id = (await ev.getAttribute('data-event-id')) ?? '';
    const label = await ev.getAttribute('aria-label');
    const record = await workOrder(id);
    const changed = await admin.write('update', 'workorder', { id, versionnumber: record.versionnumber, description: 'Changed elsewhere' });
    expect(changed.ok).toBe(true);
    await mouseDrag(page, ev, 0, 8 * ROW);
    const dialog = page.locator('dialog.modal[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('ERR_8001');
    expect(await dialog.textContent()).toContain('could not be moved');
    await shot(page, 'schedule-move-failed');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await poll(() => page.locator(`.cal-col .cal-event[data-event-id="${id}"]`).first().getAttribute('aria-label')).toBe(label);
    await poll(() => page.locator(`.cal-col .cal-event[data-event-id="${id}"]`).count()).toBe(1);
    expect(ms((await workOrder(id)).scheduledstart)).toBe(ms(record.scheduledstart));
    await context.close();
  });

  it('switches the five views (month, week, working week, three days, day); back, today and forward move the date', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day);
    const mode = page.getByLabel('Mode', { exact: true });
    await mode.selectOption('month');
    await page.locator('.cal-month').waitFor();
    expect([28, 35, 42]).toContain(await page.locator('.cal-cell').count());
    expect(await page.locator('.cal-cell.cal-selected').getAttribute('data-date')).toBe(day);
    await events(page).first().waitFor();
    await shot(page, 'schedule-month');
    for (const [m, n] of [['week', 7], ['workweek', 5], ['threeday', 3], ['day', 1]] as const) {
      await mode.selectOption(m);
      await poll(() => page.locator('.cal-dayhead').count()).toBe(n);
    }
    const title = await page.locator('.cal-title').textContent();
    await page.getByRole('button', { name: 'Forward' }).click();
    await poll(() => page.locator('.cal-title').textContent()).not.toBe(title);
    await page.getByRole('button', { name: 'Back' }).click();
    await poll(() => page.locator('.cal-title').textContent()).toBe(title);
    // Keyboard: the arrows move the selected day.
    await page.locator('.cal-dayhead[data-selected="true"]').focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => page.locator('.cal-title').textContent()).not.toBe(title);
    await page.getByRole('button', { name: 'Today' }).click();
    // The mode and the date last for the session: a reload keeps the day view.
    await page.reload();
    await poll(() => page.locator('.cal-dayhead').count()).toBe(1);
    await context.close();
  });

  it('a double click on the grid opens the create-record dialog with a one-hour event from that slot', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day, 'day');
    await events(page).first().waitFor();
    const col = page.locator('.cal-col').first();
    await poll(() => col.boundingBox()).not.toBeNull();
    const box = await col.boundingBox();
    if (!box) throw new Error('no column');
    // The grid opens at 07:00: 10 rows lower is 09:30.
    await page.locator('.cal-grid-body').evaluate((el) => (el.scrollTop = 7 * 4 * 12));
    const top = await col.boundingBox();
    const y = (top?.y ?? 0) + 7 * 4 * ROW + 10 * ROW + 3;
    await page.mouse.dblclick(box.x + box.width / 2, y);
    const dialog = page.locator('#createRecordDialog');
    await dialog.waitFor();
    const start = dialog.getByLabel('Scheduled Start');
    await poll(() => start.first().inputValue()).toContain('09:30');
    await shot(page, 'schedule-create');
    await context.close();
  });

  it('groups by owner: a header per group under each day, a dialog hides groups (kept in local storage); today has the red now-line', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day, 'day');
    await events(page).first().waitFor();
    const groups = await page.locator('.cal-grouphead span').allTextContents();
    expect(groups.length).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Groups' }).click();
    const dialog = page.locator('#calendarGroupsDialog');
    await dialog.getByLabel(groups[0]).uncheck();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await poll(() => page.locator('.cal-grouphead span').allTextContents()).toEqual(groups.slice(1));
    await page.reload();
    await poll(() => page.locator('.cal-grouphead span').allTextContents()).toEqual(groups.slice(1));
    await page.getByRole('button', { name: 'Today' }).click();
    await page.locator('.cal-col.cal-today .cal-now').first().waitFor();
    await page.locator('.cal-col.cal-today .cal-now').first().scrollIntoViewIfNeeded();
    await shot(page, 'schedule-today-now-line');
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openSchedule(page, day, 'threeday');
    await events(page).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'schedule-360');
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.reload();
    await page.locator('.calendar').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByLabel('Režim', { exact: true }).waitFor();
    await shot(page, 'schedule-360-dark-sk');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.getByLabel('Režim', { exact: true }).selectOption('month');
    await events(page).first().waitFor();
    await shot(page, 'schedule-month-dark-sk');
    await context.close();
  });
});
