import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 13 section 3 (chart, view mode 3) in chromium against a fresh demo organization: the Lead
 * Board switches to Chart and shows the demo's saved "Leads by Source" with the figures the API's
 * own aggregate query gives; the user picks Y/X and sees the bars change; a bar click filters the
 * list to that bar's count and a second click clears it (mouse and keyboard); Save as view writes an
 * inu_view record of kind chart named from the Y and X display names without spaces.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const NINA = 'nina@demo.test';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'chart');

let server: Server;
let browser: Browser;
let nina: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

/** The list's total as its foot shows it ("{shown} of {count}"). */
const listCount = async (page: Page): Promise<number | null> => {
  const text = (await page.locator('.list-foot span').first().textContent()) ?? '';
  const m = /(\d+)\D+(\d+)/.exec(text);
  return m ? Number(m[2]) : null;
};

/** The chart's figures from its table for screen readers: [X label, ...values]. */
const chartRows = async (page: Page): Promise<string[][]> =>
  page.locator('.uplot-chart table tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children).map((c) => (c.textContent ?? '').trim())));

/** Clicks the middle of column `i` of `n` near the bottom of the plot (where every non-empty bar is). */
const clickColumn = async (page: Page, i: number, n: number) => {
  const box = await page.locator('.chart-plot .u-over').boundingBox();
  if (!box) throw new Error('no plot');
  await page.mouse.click(box.x + (box.width * (i + 0.5)) / n, box.y + box.height - 3);
};

const openBoardChart = async (page: Page) => {
  await page.goto(`${server.url}/!/list/lead?view=board`);
  await page.locator('.mode-switcher').getByRole('radio', { name: 'Chart' }).click();
  await page.locator('.chart-plot canvas').first().waitFor();
};

/** The open leads of the board (statecode 0) with the quick filters' defaults: status New, owned by the user. */
const boardFilter = (userId: string, extra: unknown[] = []) => ({
  type: 'and',
  conditions: [
    { attribute: 'statecode', operator: 'eq', value: 0 },
    { attribute: 'status', operator: 'eq', value: 1 },
    { attribute: 'ownerid', operator: 'eq', value: userId },
    ...extra,
  ],
});

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  nina = await demoApi(server, NINA);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('chart view mode (issue 13 section 3)', { timeout: 120_000 }, () => {
  it("opens the Lead Board as a chart: the demo's Leads by Source with the figures of the API's aggregate query", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await openBoardChart(page);
    await poll(() => page.getByRole('combobox', { name: 'Chart', exact: true }).inputValue()).toBe('bysource');
    const truth = await nina.fetchAnswer({
      entity: {
        name: 'lead',
        attributes: [
          { attribute: 'leadsource', groupBy: true, alias: 'g' },
          { attribute: 'id', aggregate: 'count', alias: 'n' },
        ],
        filter: boardFilter(nina.userId),
      },
      page: 1,
      pageSize: 1000,
    });
    expect(truth.records.length).toBeGreaterThan(0);
    await poll(async () => (await chartRows(page)).map((r) => Number(r[1]))).toEqual(truth.records.map((r) => r.n));
    // Two series: legend entries, cut to 10 characters plus '...'.
    await expect.poll(() => page.locator('.chart-legend li').allTextContents()).toEqual(['Count', 'Sum (Estim...']);
    await shot(page, 'lead-board-chart-desktop');
    await context.close();
  });

  it('picks the Y field and aggregate, the X field, and line or bar: the bars follow (sum of Estimated Value by Rating)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await openBoardChart(page);
    await page.getByRole('combobox', { name: 'Y axis' }).selectOption('estimatedvalue');
    await page.getByRole('combobox', { name: 'Aggregate' }).selectOption('sum');
    await page.getByRole('combobox', { name: 'X axis' }).selectOption('rating');
    await poll(() => page.getByRole('combobox', { name: 'Chart', exact: true }).inputValue()).toBe('');
    const truth = await nina.fetchAnswer({
      entity: {
        name: 'lead',
        attributes: [
          { attribute: 'rating', groupBy: true, alias: 'g' },
          { attribute: 'estimatedvalue', aggregate: 'sum', alias: 's' },
        ],
        filter: boardFilter(nina.userId),
      },
      page: 1,
      pageSize: 1000,
    });
    const labels: Record<string, string> = { '1': 'Hot', '2': 'Warm', '3': 'Cold' };
    await poll(async () => (await chartRows(page)).map((r) => r[0])).toEqual(truth.records.map((r) => (r.g === null ? '(empty)' : labels[String(r.g)])));
    const sums = (await chartRows(page)).map((r) => Number(r[1].replace(/[^\d.-]/g, '')));
    expect(sums).toEqual(truth.records.map((r) => Math.round(Number(r.s) * 100) / 100));
    await page.getByRole('radio', { name: 'Line' }).click();
    await poll(() => page.getByRole('radio', { name: 'Line' }).getAttribute('aria-checked')).toBe('true');
    await page.locator('.chart-plot canvas').first().waitFor();
    await shot(page, 'lead-board-chart-line');
    await context.close();
  });

  it('clicking a bar filters the list to that bar; clicking it again clears; the keyboard does the same', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await openBoardChart(page);
    await poll(async () => (await chartRows(page)).length).toBeGreaterThan(0);
    const rows = await chartRows(page);
    const total = await listCount(page);
    expect(total).toBe(rows.reduce((a, r) => a + Number(r[1]), 0));
    // The bar with the most leads, so the filtered list differs from the whole one whenever there are two bars.
    const i = rows.reduce((best, r, k) => (Number(r[1]) > Number(rows[best][1]) ? k : best), 0);
    await clickColumn(page, i, rows.length);
    await poll(() => listCount(page)).toBe(Number(rows[i][1]));
    await page.getByText(`List filtered by ${rows[i][0]}`).waitFor();
    await shot(page, 'lead-board-chart-picked');
    await clickColumn(page, i, rows.length);
    await poll(() => listCount(page)).toBe(total);
    // Keyboard: focus the chart, Home goes to the first column, Enter picks it, Enter again clears.
    await page.locator('.chart-plot').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await poll(() => listCount(page)).toBe(Number(rows[0][1]));
    await page.keyboard.press('Enter');
    await poll(() => listCount(page)).toBe(total);
    await context.close();
  });

  it('saves the chart as a view: an inu_view record of kind chart named from the Y and X display names without spaces', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openBoardChart(page);
    await page.getByRole('combobox', { name: 'Y axis' }).selectOption('estimatedvalue');
    await page.getByRole('combobox', { name: 'Aggregate' }).selectOption('average');
    await page.getByRole('combobox', { name: 'X axis' }).selectOption('nextcontact');
    await poll(() => page.getByRole('combobox', { name: 'Grouping' }).inputValue()).toBe('month');
    await page.getByRole('combobox', { name: 'Grouping' }).selectOption('quarter');
    await page.getByRole('button', { name: 'Save as view' }).click();
    await page.getByText('Chart saved as EstimatedValueNextContact').waitFor();
    const admin = await demoApi(server, ADMIN);
    const saved = await admin.fetchRecords({
      entity: { name: 'inu_view', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'EstimatedValueNextContact' }] } },
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ kind: 'chart', objectname: 'lead' });
    expect(JSON.parse(String(saved[0].body))).toEqual({
      type: 'bar',
      series: [{ aggregateField: 'estimatedvalue', aggregateMethod: 'average' }],
      groups: [{ field: 'nextcontact', method: 'quarter' }],
    });
    await poll(() => page.getByRole('combobox', { name: 'Chart', exact: true }).inputValue()).toBe('EstimatedValueNextContact');
    // A salesperson without create on inu_view has no Save button.
    const other = await newPage(browser);
    await signIn(other.page, server.url, ORG, NINA, PASSWORD);
    await openBoardChart(other.page);
    await other.page.getByRole('combobox', { name: 'Y axis' }).waitFor();
    expect(await other.page.getByRole('button', { name: 'Save as view' }).count()).toBe(0);
    await other.context.close();
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak (screenshots)', async () => {
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, ORG, NINA, PASSWORD);
    await openBoardChart(page);
    await poll(async () => (await chartRows(page)).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'lead-board-chart-360');
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/list/lead?view=board`);
    await page.locator('.mode-switcher').getByRole('radio', { name: 'Graf' }).click();
    await page.locator('.chart-plot canvas').first().waitFor();
    await page.getByRole('combobox', { name: 'Os Y' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'lead-board-chart-360-dark-sk');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.locator('.chart-plot canvas').first().waitFor();
    await shot(page, 'lead-board-chart-dark-sk');
    await context.close();
  });
});
