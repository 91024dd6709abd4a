import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';
import { startFakeNominatim, type FakeNominatim } from '../fakes/fake-nominatim.js';

/**
 * Issue 14 "Map (view mode 1) and address editors" in chromium against a fresh demo organization,
 * with no network (the tiles fail; the pins show on the plain background) and the server's geocoder
 * pointed at a loopback stand-in of Nominatim: the demo's Warranty Ending view of equipment shows
 * its records with coordinates as pins, a pin opens its record (mouse, and keyboard: Tab and Enter),
 * and the address dialog fills the coordinates from the geocoder.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'map');

let server: Server;
let browser: Browser;
let admin: DemoApi;
let fake: FakeNominatim;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

/** The Warranty Ending view (its own mode is the map), with no quick filter selected. */
const openWarrantyMap = async (page: Page) => {
  await page.goto(`${server.url}/!/list/equipment?view=warranty`);
  await page.evaluate(() => sessionStorage.setItem('tessera.quickFilters.equipment', JSON.stringify({ search: null, condition: null, warranty: null, account: null })));
  await page.reload();
  await page.locator('.map-canvas').waitFor({ timeout: 30_000 });
};
const pins = (page: Page) => page.locator('.map-canvas .map-pin');

beforeAll(async () => {
  buildUi();
  fake = await startFakeNominatim();
  server = await startServer({ env: { TESSERA_GEOCODER_URL: fake.url } });
  browser = await launchBrowser();
  admin = await demoApi(server, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
});

describe('the address editor in a real browser (issue 14 "address editors")', { timeout: 120_000 }, () => {
  it('the address dialog fills the coordinates from the loopback geocoder; the button flashes; OK and Save write them', async () => {
    const id = await admin.create('account', { name: 'Geocoded Ltd', address1_street: '', address1_city: '' });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/account/${id}`);
    await page.getByRole('tab', { name: 'Address' }).click();
    await page.getByRole('button', { name: 'Edit address' }).click();
    const dialog = page.locator('dialog#address');
    await dialog.waitFor();
    const lookup = dialog.getByRole('button', { name: 'Lookup location' });
    // Without street and city the lookup says so and asks nobody.
    const asked = fake.requests.length;
    await lookup.click();
    await dialog.getByText('Please provide street and city first').waitFor();
    expect(await lookup.getAttribute('data-flash')).toBe('flash-failed');
    expect(fake.requests.length).toBe(asked);
    // An address nobody knows.
    await dialog.getByLabel('Street').fill('Nowhere 1');
    await dialog.getByLabel('City').fill('Atlantis');
    await lookup.click();
    await dialog.getByText('Address not found').waitFor();
    // A known one: the coordinates of the fake's best match for the city asked for.
    await dialog.getByLabel('Street').fill('Hlavná 12');
    await dialog.getByLabel('City').fill('Trnava');
    await lookup.click();
    await poll(() => dialog.getByLabel('Latitude').inputValue()).toBe('48.377428');
    expect(await dialog.getByLabel('Longitude').inputValue()).toBe('17.587229');
    expect(await lookup.getAttribute('data-flash')).toBe('flash-ok');
    await poll(() => lookup.getAttribute('data-flash')).toBeNull(); // green for 500 ms only
    await shot(page, 'address-dialog');
    // Lookup address: the ZIP and country from the coordinates.
    await dialog.getByRole('button', { name: 'Lookup address' }).click();
    await poll(() => dialog.getByLabel('ZIP').inputValue()).toBe('917 01');
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => {
      const r = await admin.byName('account', id, 'id');
      return [r.address1_street, r.address1_city, r.address1_zip, r.address1_latitude, r.address1_longitude];
    }).toEqual(['Hlavná 12', 'Trnava', '917 01', 48.377428, 17.587229]);
    await context.close();
  });
});

describe('map view mode in a real browser (issue 14 "Map")', { timeout: 120_000 }, () => {
  it("the Warranty Ending view shows the demo's equipment with coordinates as pins, each named by its record", async () => {
    const expected = await admin.count('equipment', {
      conditions: [
        { attribute: 'warrantyend', operator: 'not-null' },
        { attribute: 'address1_latitude', operator: 'not-null' },
        { attribute: 'address1_longitude', operator: 'not-null' },
      ],
    });
    expect(expected).toBeGreaterThan(5);
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openWarrantyMap(page);
    await poll(() => pins(page).count()).toBe(expected);
    const [first] = await admin.fetchRecords({ entity: { name: 'equipment', attributes: [{ attribute: 'id' }, { attribute: 'name' }], filter: { conditions: [{ attribute: 'warrantyend', operator: 'not-null' }] } }, page: 1, pageSize: 1 });
    await expect(pins(page).and(page.locator(`[data-record-id="${String(first!.id)}"]`)).getAttribute('aria-label')).resolves.toBe(String(first!.name));
    await page.waitForTimeout(500); // the fit's zoom animation
    await shot(page, 'warranty-map');
    // Without tiles the pins sit on the plain background, inside the map's frame.
    const frame = await page.locator('.map-canvas').boundingBox();
    const pin = await pins(page).first().boundingBox();
    expect(frame && pin && pin.x >= frame.x && pin.y >= frame.y && pin.x <= frame.x + frame.width && pin.y <= frame.y + frame.height).toBe(true);
    await shot(page, 'warranty-map');
    await context.close();
  });

  it('a pin opens its record: a click, or the keyboard (each pin is in the Tab order, a button named by its record) and Enter', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await openWarrantyMap(page);
    await pins(page).first().waitFor();
    await page.waitForTimeout(500); // the fit's zoom animation
    const ids = await pins(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-record-id')));
    // Click the middle of a pin's head: the form of a record of the map opens, with its name.
    const box = await pins(page).first().locator('.map-pin-head').boundingBox();
    await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await poll(() => page.url()).toMatch(/\/edit\/equipment\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    expect(ids).toContain(id);
    const opened = await admin.byName('equipment', id, 'id');
    await page.getByText(String(opened.name)).first().waitFor();
    await page.goBack();
    await pins(page).first().waitFor();
    const other = await pins(page).nth(1).getAttribute('data-record-id');
    expect(await pins(page).nth(1).getAttribute('tabindex')).toBe('0');
    expect(await pins(page).nth(1).getAttribute('role')).toBe('button');
    await pins(page).nth(1).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.url()).toContain(`/equipment/${other}`);
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await openWarrantyMap(page);
    await pins(page).first().waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expect(page.locator('.map-canvas').getAttribute('aria-label')).resolves.toBe('Záznamy na mape');
    await shot(page, 'warranty-map-360-dark-sk');
    const [account] = await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'id' }], filter: { conditions: [{ attribute: 'address1_latitude', operator: 'not-null' }] } }, page: 1, pageSize: 1 });
    await page.goto(`${server.url}/!/edit/account/${String(account!.id)}`);
    await page.getByRole('tab', { name: 'Adresa' }).click();
    await page.locator('.address-with-map .map-pin').waitFor();
    await shot(page, 'address-field-360-dark-sk');
    await page.getByRole('button', { name: 'Upraviť adresu' }).click();
    await page.locator('dialog#address .map-pin').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.locator('dialog#address').screenshot({ path: join(SHOTS, 'address-dialog-360-dark-sk.png') });
    await context.close();
  });
});
