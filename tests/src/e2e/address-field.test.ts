import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type Server } from './harness.js';
import { startFakeNominatim, type FakeNominatim } from '../fakes/fake-nominatim.js';

/**
 * Issue 14 "address editors", the rest: the address-with-map field (spec 001: "An address-with-map
 * field exists as well", zoom 9, "reminder typing delay 1000 ms") on the demo's Addresses form, and
 * My Location in the address dialog filling the address parts from the geocoder's reverse, in
 * chromium against a fresh demo organization whose geocoder is a loopback stand-in of Nominatim.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'address-field');

let server: Server;
let browser: Browser;
let admin: DemoApi;
let fake: FakeNominatim;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const searches = () => fake.requests.filter((r) => r.path === '/search');

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

describe('the address-with-map field in a real browser (issue 14)', { timeout: 120_000 }, () => {
  it("typing an address: after the 1000 ms pause the pin and the coordinate fields are set ('Address not found' for an unknown one); Save stores them", async () => {
    const id = await admin.create('route_address', { name: 'E2E office', address: 'Somewhere' });
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/route_address/${id}`);
    const field = page.locator('.address-field');
    const input = page.locator('#f-address');
    await field.locator('.map-canvas').waitFor();
    expect(await field.locator('.map-pin').count()).toBe(0);

    // An address nobody knows: 'Address not found' under the map, no coordinates.
    await input.fill('Atlantis 9');
    await field.getByText('Address not found').waitFor();
    expect(await page.locator('#f-latitude').inputValue()).toBe('');

    // A known one, typed key by key: one lookup, a pause of 1000 ms after the last key.
    await input.fill('');
    const before = searches().length;
    await input.pressSequentially('Hlavná 12, Trnava', { delay: 40 });
    const typedAt = Date.now();
    await poll(() => page.locator('#f-latitude').inputValue()).toBe('48.377428');
    expect(await page.locator('#f-longitude').inputValue()).toBe('17.587229');
    const asked = searches().slice(before);
    expect(asked.map((r) => r.query.get('q'))).toEqual(['Hlavná 12, Trnava']);
    expect(asked[0]!.at - typedAt).toBeGreaterThanOrEqual(900);
    await field.locator('.map-pin').waitFor();
    expect(await field.locator('.map-canvas').getAttribute('data-lat')).toBe('48.377428');
    await expect(field.getByText('Address not found').count()).resolves.toBe(0);
    await page.waitForTimeout(300); // the map's pan
    await shot(page, 'address-field');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => {
      const r = await admin.byName('route_address', id, 'id');
      return [r.address, r.latitude, r.longitude];
    }).toEqual(['Hlavná 12, Trnava', 48.377428, 17.587229]);

    // Enter asks at once (no pause).
    await input.fill('Hlavná, Piešťany');
    const enterAt = Date.now();
    await input.press('Enter');
    await poll(() => page.locator('#f-latitude').inputValue()).toBe('48.6202');
    expect(searches().at(-1)!.at - enterAt).toBeLessThan(900);
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak', async () => {
    const [office] = await admin.fetchRecords({ entity: { name: 'route_address', attributes: [{ attribute: 'id' }], filter: { conditions: [{ attribute: 'latitude', operator: 'not-null' }] } }, page: 1, pageSize: 1 });
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/route_address/${String(office!.id)}`);
    await page.locator('.address-field .map-pin').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.locator('#f-address').fill('Atlantis 9');
    await page.locator('.address-field').getByText('Adresa sa nenašla').waitFor();
    await shot(page, 'address-field-360-dark-sk');
    await context.close();
  });
});

describe("'My Location' in the address dialog (issue 14)", { timeout: 120_000 }, () => {
  it("fills the coordinates from the browser's position and street, city, ZIP and country from the geocoder's reverse", async () => {
    const id = await admin.create('account', { name: 'Located Ltd', address1_street: 'Old street 1', address1_city: 'Elsewhere' });
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['geolocation'], { origin: server.url });
    await context.setGeolocation({ latitude: 48.3774, longitude: 17.5872 });
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/account/${id}`);
    await page.getByRole('tab', { name: 'Address' }).click();
    await page.getByRole('button', { name: 'Edit address' }).click();
    const dialog = page.locator('dialog#address');
    await dialog.waitFor();
    const mine = dialog.getByRole('button', { name: 'My Location' });
    await mine.click();
    await poll(() => dialog.getByLabel('Street').inputValue()).toBe('Hlavná 12');
    expect(await dialog.getByLabel('City').inputValue()).toBe('Trnava');
    expect(await dialog.getByLabel('ZIP').inputValue()).toBe('917 01');
    expect(await dialog.getByLabel('Country').inputValue()).toBe('Slovensko');
    expect(await dialog.getByLabel('Latitude').inputValue()).toBe('48.3774');
    expect(await dialog.getByLabel('Longitude').inputValue()).toBe('17.5872');
    const reverse = fake.requests.filter((r) => r.path === '/reverse').at(-1);
    expect([reverse?.query.get('lat'), reverse?.query.get('lon')]).toEqual(['48.3774', '17.5872']);
    expect(await mine.getAttribute('data-flash')).toBe('flash-ok');
    await dialog.screenshot({ path: join(SHOTS, 'address-dialog-my-location.png') });
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => {
      const r = await admin.byName('account', id, 'id');
      return [r.address1_street, r.address1_city, r.address1_zip, r.address1_country, r.address1_latitude, r.address1_longitude];
    }).toEqual(['Hlavná 12', 'Trnava', '917 01', 'Slovensko', 48.3774, 17.5872]);
    await context.close();
  });
});
