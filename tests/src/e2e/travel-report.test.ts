import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type DemoRecord, type Server } from './harness.js';
import { startFakeNominatim, type FakeNominatim } from '../fakes/fake-nominatim.js';
import { expectedLeg, startFakeDirections, type FakeDirections } from '../fakes/fake-directions.js';

/**
 * Issue 19 "Travel-expense report" in chromium: a technician opens their demo report (three legs,
 * meals), adds a stop, finds its address (loopback Nominatim), the route is measured (loopback
 * Google Directions through /api/distance), the totals and the meal allowance change, a meal is
 * toggled, Save stores legs_json, diet_json and the totals, and a reload shows them.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const TOM = 'tom@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'travel');

let server: Server;
let browser: Browser;
let tom: DemoApi;
let nominatim: FakeNominatim;
let directions: FakeDirections;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const text = (page: Page, selector: string) => page.locator(selector).first().innerText();
const amount = (s: string): number => Number(s.replace(/[^\d,.-]/g, '').replace(',', '.'));

/** Tom's newest travel report, read through the API. */
const tomsReport = async (): Promise<DemoRecord> => {
  const [r] = await tom.fetchRecords({
    entity: { name: 'route_route', allattrs: true, filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: tom.userId }] }, orders: [{ attribute: 'report_date', descending: true }] },
    page: 1,
    pageSize: 1,
  });
  if (!r) throw new Error('Tom has no travel report');
  return r;
};

beforeAll(async () => {
  buildUi();
  nominatim = await startFakeNominatim();
  directions = await startFakeDirections();
  server = await startServer({ env: { TESSERA_GEOCODER_URL: nominatim.url, TESSERA_DIRECTIONS_KEY: 'e2e-key', TESSERA_DIRECTIONS_URL: directions.url } });
  browser = await launchBrowser();
  tom = await demoApi(server, TOM);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await nominatim?.close();
  await directions?.close();
});

describe('the travel-expense report in a real browser (issue 19)', { timeout: 150_000 }, () => {
  it('add a stop: its address found, the route measured, totals and allowance change; toggle a meal; Save; reload shows it saved', async () => {
    const report = await tomsReport();
    const legsBefore = JSON.parse(String(report.legs_json)) as Array<{ latitude: number; longitude: number }>;
    expect(legsBefore).toHaveLength(3);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, TOM, PASSWORD);
    await page.goto(`${server.url}/!/edit/route_route/${String(report.id)}`);
    const journey = page.locator('.travel-journey');
    const rows = journey.locator('.travel-leg');
    await poll(() => rows.count()).toBe(3);
    const diet = page.locator('.travel-diet');
    await diet.locator('tbody tr').first().waitFor();
    const distanceBefore = amount(await text(page, '.travel-journey [data-total="distance"]'));
    const allowanceBefore = amount(await text(page, '.travel-diet tfoot [data-total="allowance"]'));
    expect(distanceBefore).toBe(Number(report.total_distance));
    await shot(page, 'travel-report-desktop');

    // Toggle a meal: lunch provided (or no longer provided) on the first day changes its claim.
    const firstDay = diet.locator('tbody tr').first();
    const lunch = firstDay.getByLabel('Lunch');
    const lunchBefore = await lunch.isChecked();
    const claimBefore = amount(await firstDay.locator('[data-claim]').innerText());
    await lunch.click();
    await poll(async () => amount(await firstDay.locator('[data-claim]').innerText())).not.toBe(claimBefore);
    const allowanceToggled = amount(await text(page, '.travel-diet tfoot [data-total="allowance"]'));
    expect(allowanceToggled).not.toBe(allowanceBefore);

    // Add a stop after leg 2 (the customer's city): 3 h after its start, ending 18:00.
    await journey.getByRole('button', { name: 'Add a stop after leg 2' }).click();
    await poll(() => rows.count()).toBe(4);
    const stop = rows.nth(2);
    await stop.getByLabel('Address', { exact: true }).fill('Hlavná 12, Trnava');
    const asked = directions.requests.length;
    await stop.getByRole('button', { name: 'Find the address' }).click();
    // The stop has coordinates now, so the route of 4 stops is measured (3 legs).
    await poll(() => directions.requests.length).toBeGreaterThan(asked);
    const query = directions.requests.at(-1)!.query;
    expect(query.get('waypoints')).toBe(`${legsBefore[1].latitude},${legsBefore[1].longitude}|48.3774279,17.5872286`);
    const home = { lat: legsBefore[0].latitude, lng: legsBefore[0].longitude };
    const there = { lat: legsBefore[1].latitude, lng: legsBefore[1].longitude };
    const trnava = { lat: 48.3774279, lng: 17.5872286 };
    const km = (m: number) => Math.round(m / 10) / 100;
    const expected = Math.round((km(expectedLeg(home, there).metres) + km(expectedLeg(there, trnava).metres) + km(expectedLeg(trnava, home).metres)) * 100) / 100;
    await poll(async () => amount(await text(page, '.travel-journey [data-total="distance"]'))).toBe(expected);
    // The measured legs end earlier (each end is the previous start plus the travel time): fewer hours, another allowance.
    await poll(async () => amount(await text(page, '.travel-diet tfoot [data-total="allowance"]'))).not.toBe(allowanceToggled);
    const allowanceShown = amount(await text(page, '.travel-diet tfoot [data-total="allowance"]'));
    // The form's Totals panel follows at once.
    await poll(() => page.locator('#f-total_distance').inputValue().then(amount)).toBe(expected);

    await shot(page, 'travel-report-changed');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (JSON.parse(String((await tomsReport()).legs_json)) as unknown[]).length).toBe(4);
    const saved = await tomsReport();
    expect(Number(saved.total_distance)).toBe(expected);
    expect(String(saved.name_locations)).toContain('Hlavná 12, Trnava');
    const days = JSON.parse(String(saved.diet_json)) as Array<{ meals: number; claim: number }>;
    expect((days[0].meals & 2) !== 0).toBe(!lunchBefore);
    expect(Math.round(days.reduce((s, d) => s + d.claim, 0) * 100) / 100).toBe(allowanceShown);
    expect(String(saved.enddate)).toBe((JSON.parse(String(saved.legs_json)) as Array<{ enddate: string }>).at(-1)!.enddate);

    await page.reload();
    await poll(() => page.locator('.travel-journey .travel-leg').count()).toBe(4);
    await expect(page.locator('.travel-diet tbody tr').first().getByLabel('Lunch').isChecked()).resolves.toBe(!lunchBefore);
    expect(amount(await text(page, '.travel-journey [data-total="distance"]'))).toBe(expected);
    await context.close();
  });

  it('a route that cannot be measured keeps its distances and says so; an unknown address flashes the button red', async () => {
    const report = await tomsReport();
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, TOM, PASSWORD);
    await page.goto(`${server.url}/!/edit/route_route/${String(report.id)}`);
    const rows = page.locator('.travel-journey .travel-leg');
    await page.locator('.travel-journey').waitFor();
    await poll(() => rows.count()).toBeGreaterThan(2);
    const before = await text(page, '.travel-journey [data-total="distance"]');
    directions.mode = 'denied';
    try {
      await rows.nth(1).getByLabel('Address', { exact: true }).fill('Hlavná, Piešťany');
      await rows.nth(1).getByRole('button', { name: 'Find the address' }).click();
      await page.getByText('The route could not be measured; the distances stay as they were.').waitFor();
      expect(await text(page, '.travel-journey [data-total="distance"]')).toBe(before);
      await rows.nth(1).getByLabel('Address', { exact: true }).fill('Atlantis 9');
      await rows.nth(1).getByRole('button', { name: 'Find the address' }).click();
      await rows.nth(1).locator('.travel-find.flash-failed').waitFor();
    } finally {
      directions.mode = 'normal';
    }
    await context.close();
  });

  it('works at 360 px (legs as cards), in dark mode and in Slovak', async () => {
    const report = await tomsReport();
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, TOM, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/route_route/${String(report.id)}`);
    await page
      .locator('.travel-cards .travel-card')
      .first()
      .waitFor()
      .catch(async (e: unknown) => {
        await shot(page, 'travel-report-360-failed');
        throw e;
      });
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByRole('heading', { name: 'Trasa' }).waitFor();
    await page.getByRole('heading', { name: 'Stravné' }).waitFor();
    await page.getByRole('button', { name: 'Pridať zastávku za úsek 1' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'travel-report-360-dark-sk');
    await page.locator('.travel-journey .travel-card').nth(1).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'travel-report-360-dark-sk-card.png') });
    await page.locator('.travel-diet').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'travel-report-360-dark-sk-diet.png') });
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.locator('.travel-journey .travel-leg').first().waitFor();
    await shot(page, 'travel-report-desktop-dark-sk');
    await context.close();
  });
});
