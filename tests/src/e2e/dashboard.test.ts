import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildUi, demoApi, DEMO_ORG as ORG, DEMO_PASSWORD as PASSWORD, launchBrowser, newPage, ROOT, signIn, startServer, type DemoApi, type Server } from './harness.js';

/**
 * Issue 13 section 4 in chromium against `tessera demo` data: the Sales dashboard opened from the
 * menu shows its label, filters, number, gauge (percent), chart and grid with the figures the API
 * itself aggregates; a filter changes them; an unsupported filter type shows 'Unsupported' and a
 * failing query alerts its message (spec 000 sections 2, 8 and 9).
 */
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'dashboard');

let server: Server;
let browser: Browser;
let api: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

type Condition = { attribute: string; operator: string; value?: unknown };
/** The Period filter's "This year" as the browser computes it (days of the estimated close date). */
const thisYear = (): Condition[] => {
  const y = new Date().getFullYear();
  return [
    { attribute: 'estimatedclosedate', operator: 'ge', value: `${y}-01-01` },
    { attribute: 'estimatedclosedate', operator: 'lt', value: `${y + 1}-01-01` },
  ];
};
/** One aggregate of opportunities as the API answers it. */
const aggregate = async (attribute: string, kind: 'sum' | 'count', conditions: Condition[]): Promise<number> => {
  const [r] = await api.fetchRecords({ entity: { name: 'opportunity', attributes: [{ attribute, aggregate: kind, alias: 'v' }], filter: { type: 'and', conditions } }, page: 1, pageSize: 1 });
  return Number(r?.v ?? 0);
};
const figures = async (conditions: Condition[]) => ({
  open: await aggregate('estimatedvalue', 'sum', [{ attribute: 'outcome', operator: 'eq', value: 1 }, ...conditions]),
  won: await aggregate('id', 'count', [{ attribute: 'outcome', operator: 'eq', value: 2 }, ...conditions]),
  all: await aggregate('id', 'count', conditions),
});
/** The percent text of the gauge (en), as Intl writes it. */
const percentText = (won: number, all: number): string => {
  const pct = (won / all) * 100;
  return new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: pct < 10 && pct > 0 ? 1 : 0 }).format(pct / 100);
};

const part = (page: Page, label: string) => page.locator('section.dash-object', { has: page.getByRole('heading', { name: label, exact: true }) });
const numberValue = async (page: Page, label: string) => Number(await part(page, label).locator('.dash-number').getAttribute('data-value'));
const gaugeValues = async (page: Page, label: string) => {
  const g = part(page, label).locator('.dash-gauge');
  return { first: Number(await g.getAttribute('data-first')), second: Number(await g.getAttribute('data-second')), text: await g.locator('svg').getAttribute('aria-valuetext') };
};
/** The chart's data table (read by screen readers): category and the number drawn. */
const chartRows = async (page: Page, label: string) =>
  part(page, label)
    .locator('table.sr-only tbody tr')
    .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')?.textContent ?? '', Number((r.querySelector('td')?.textContent ?? '').replace(/[^\d.-]/g, ''))] as [string, number]));

beforeAll(async () => {
  buildUi();
  server = await startServer();
  browser = await launchBrowser();
  api = await demoApi(server, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('dashboards (issue 13 section 4)', { timeout: 120_000 }, () => {
  it('the Sales dashboard, opened from the menu, shows the figures the API aggregates', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.locator('#side-nav').getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/dashboard\/sales$/);
    await page.getByRole('heading', { name: 'Sales', level: 1 }).waitFor();
    // The label, and both filters: Period on "This year" (its initialValue), Owner empty.
    await page.getByRole('heading', { name: 'Sales overview', level: 2 }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Period' }).inputValue()).toBe('this-year');
    expect(await page.getByRole('combobox', { name: 'Owner', exact: true }).inputValue()).toBe('');

    const expected = await figures(thisYear());
    expect(expected.all).toBeGreaterThan(0);
    await poll(() => numberValue(page, 'Open pipeline')).toBeCloseTo(expected.open, 2);
    expect(expected.open).toBeGreaterThan(0);
    // The number is written as money.
    expect(await part(page, 'Open pipeline').locator('.dash-number').textContent()).toMatch(/€|EUR/);
    // Spec 000 section 9: the gauge shows the percent of the first value (won) over the second (all).
    await poll(() => gaugeValues(page, 'Won vs all')).toEqual({ first: expected.won, second: expected.all, text: percentText(expected.won, expected.all) });
    await poll(() => part(page, 'Won vs all').locator('.dash-gauge-of').textContent()).toBe(`${expected.won} of ${expected.all}`);

    // The chart: the sum of estimated value by stage, as the query engine groups it.
    const byStage = await api.fetchRecords({
      entity: { name: 'opportunity', attributes: [{ attribute: 'stage', groupBy: true, alias: 'g' }, { attribute: 'estimatedvalue', aggregate: 'sum', alias: 'v' }], filter: { type: 'and', conditions: thisYear() } },
      page: 1,
      pageSize: 100,
    });
    const stageLabel: Record<number, string> = { 1: 'Qualify', 2: 'Develop', 3: 'Propose', 4: 'Close' };
    await part(page, 'Pipeline by stage').locator('.chart-plot canvas').first().waitFor();
    const rows = await chartRows(page, 'Pipeline by stage');
    expect(rows.map(([c]) => c)).toEqual(byStage.map((r) => (r.g === null ? '(empty)' : stageLabel[Number(r.g)])));
    rows.forEach(([, v], i) => expect(v).toBeCloseTo(Number(byStage[i].v ?? 0), 1));

    // The grid: unpaid (overdue) invoices by due date, the first ten, and their count.
    const unpaid = await api.fetchAnswer({ entity: { name: 'invoice', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'paymentstatus', operator: 'eq', value: 4 }] }, orders: [{ attribute: 'duedate' }] }, page: 1, pageSize: 10, count: true });
    const grid = part(page, 'Unpaid invoices');
    if (unpaid.records.length === 0) await grid.getByText('No records to show').waitFor();
    else {
      await poll(() => grid.locator('tbody tr td:first-child').allTextContents()).toEqual(unpaid.records.map((r) => String(r.name)));
      expect(await grid.locator('thead th').allTextContents()).toEqual(['Name', 'Total Amount', 'Due Date']);
      expect(await grid.locator('.dash-grid-foot').textContent()).toContain(`${unpaid.records.length} of ${unpaid.count}`);
    }
    await shot(page, 'sales-desktop');
    await context.close();
  });

  it('changing a filter changes the figures (the Period on All, then one owner)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/Sales/dashboard/sales`);
    const year = await figures(thisYear());
    await poll(() => numberValue(page, 'Open pipeline')).toBeCloseTo(year.open, 2);

    await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'All' });
    const all = await figures([]);
    expect(all.all).toBeGreaterThan(year.all);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([all.won, all.all]);
    await poll(() => numberValue(page, 'Open pipeline')).toBeCloseTo(all.open, 2);

    // Owner: Mine is the user's own records ({{userid}}), Other user… picks one by search.
    await page.getByRole('combobox', { name: 'Owner', exact: true }).selectOption({ label: 'Mine' });
    const mine = await figures([{ attribute: 'ownerid', operator: 'eq', value: api.userId }]);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([mine.won, mine.all]);
    const nina = await api.byName('systemuser', 'Nina North');
    await page.getByRole('combobox', { name: 'Owner', exact: true }).selectOption({ label: 'Other user…' });
    await page.getByRole('combobox', { name: 'Owner: Other user…' }).fill('Nina');
    await page.getByRole('option', { name: /Nina North/ }).click();
    const hers = await figures([{ attribute: 'ownerid', operator: 'eq', value: String(nina.id) }]);
    expect(hers.all).toBeLessThan(all.all);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([hers.won, hers.all]);
    await poll(() => numberValue(page, 'Open pipeline')).toBeCloseTo(hers.open, 2);
    // A custom range starts as the option chosen before, then narrows by its own days (both included).
    await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'This year' });
    const herYear = await figures([{ attribute: 'ownerid', operator: 'eq', value: String(nina.id) }, ...thisYear()]);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([herYear.won, herYear.all]);
    await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'Custom range' });
    const y = new Date().getFullYear();
    expect(await page.getByLabel('Period From').inputValue()).toBe(`${y}-01-01`);
    expect(await page.getByLabel('Period To').inputValue()).toBe(`${y}-12-31`);
    await page.getByLabel('Period From').fill(`${y}-06-01`);
    const fromJune = await figures([{ attribute: 'ownerid', operator: 'eq', value: String(nina.id) }, { attribute: 'estimatedclosedate', operator: 'ge', value: `${y}-06-01` }, thisYear()[1]]);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([fromJune.won, fromJune.all]);
    await poll(() => numberValue(page, 'Open pipeline')).toBeCloseTo(fromJune.open, 2);
    // The invoice grid is of another entity: the opportunity filters do not apply to it.
    const overdue = await api.count('invoice', { conditions: [{ attribute: 'paymentstatus', operator: 'eq', value: 4 }] });
    if (overdue > 0) expect(await part(page, 'Unpaid invoices').locator('.dash-grid-foot').textContent()).toContain(`of ${overdue}`);
    // The selections last for the browser session.
    await page.reload();
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([fromJune.won, fromJune.all]);
    expect(await page.getByLabel('Period From').inputValue()).toBe(`${y}-06-01`);
    await shot(page, 'sales-filtered');
    await context.close();
  });

  it("a salesperson's dashboard shows the figures of the records she may read (the API's permissions apply)", async () => {
    const nina = await demoApi(server, 'nina@demo.test');
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, 'nina@demo.test', PASSWORD);
    await page.goto(`${server.url}/Sales/dashboard/sales`);
    const count = async (conditions: Condition[]) => Number((await nina.fetchRecords({ entity: { name: 'opportunity', attributes: [{ attribute: 'id', aggregate: 'count', alias: 'v' }], filter: { type: 'and', conditions } }, page: 1, pageSize: 1 }))[0]?.v ?? 0);
    const mine = { won: await count([{ attribute: 'outcome', operator: 'eq', value: 2 }, ...thisYear()]), all: await count(thisYear()) };
    expect(mine.all).toBeLessThan((await figures(thisYear())).all);
    await poll(() => gaugeValues(page, 'Won vs all').then((g) => [g.first, g.second])).toEqual([mine.won, mine.all]);
    await context.close();
  });

  it("an unsupported filter type shows 'Unsupported'; a failing query alerts its message, and the other parts still show", async () => {
    await api.create('inu_view', {
      name: 'checks',
      kind: 'dashboard',
      label: 'Checks',
      body: JSON.stringify({
        label: 'Checks',
        objects: [
          { kind: 'filter', name: 'byname', label: 'By name', objectname: 'opportunity', propertyName: 'name' },
          { kind: 'filter', name: 'byvalue', label: 'By value', objectname: 'opportunity', propertyName: 'estimatedvalue' },
          { kind: 'simplechart', name: 'count', label: 'Opportunities', type: 'number', query: { name: 'opportunity', attributes: [{ attribute: 'id', aggregate: 'count', alias: 'n' }] } },
          { kind: 'simplechart', name: 'broken', label: 'Broken', type: 'number', query: { name: 'opportunity', attributes: [{ attribute: 'nosuchfield', aggregate: 'sum' }] } },
        ],
      }),
    });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/Sales/dashboard/checks`);
    const dialog = page.locator('dialog.modal[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Field not found:opportunity.nosuchfield');
    await shot(page, 'checks-alert');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await poll(() => page.locator('.dash-filter .dash-unsupported').allTextContents()).toEqual(['Unsupported', 'Unsupported']);
    await poll(() => numberValue(page, 'Opportunities')).toBe(await api.count('opportunity'));
    await part(page, 'Broken').getByText('This part could not be loaded.').waitFor();
    await shot(page, 'checks-failure');
    await context.close();
  });

  it('works at 360 px (stacked in reading order), in dark mode and in Slovak (screenshots)', async () => {
    const { context, page } = await newPage(browser, 360, 780);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/Sales/dashboard/sales`);
    await part(page, 'Pipeline by stage').locator('.chart-plot canvas').first().waitFor();
    await page.locator('.dash-gauge').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // One column, in reading order: the title, the filters, the number, the gauge, the grid, the chart.
    const tops = await page.locator('.dash-object').evaluateAll((els) => els.map((e) => [e.querySelector('h2')?.textContent ?? e.querySelector('.qf-label')?.textContent ?? '', Math.round(e.getBoundingClientRect().top)] as [string, number]));
    const order = [...tops].sort((a, b) => a[1] - b[1]).map(([n]) => n);
    expect(order).toEqual(['Sales overview', 'Period', 'Owner', 'Open pipeline', 'Won vs all', 'Pipeline by stage', 'Unpaid invoices']);
    await shot(page, 'sales-360');
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.reload();
    await page.locator('.dash-gauge').waitFor();
    await page.locator('.dash-chart .chart-plot canvas').first().waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'sales-360-dark-sk');
    // The labels are the metadata's translations (dashboard.Sales.sales.{object}).
    await page.getByRole('heading', { name: 'Príležitosti podľa fázy', level: 2 }).waitFor();
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.locator('.dash-chart .chart-plot canvas').first().waitFor();
    await shot(page, 'sales-dark-sk');
    await context.close();
  });
});
