import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type DemoRecord, type Server } from './harness.js';

/**
 * Issue 20 "Survey designer panel" and "Survey response panel" in chromium: an administrator
 * designs a survey on the demo's leads (fields from the entity, Required and Wide, ordered by
 * drag and by keyboard, title, submit text, CSS, preview), publishes its key link and copies it;
 * a visitor opens the link in a fresh context and submits; the answers are processed into a lead
 * with 'Save to target'. The link's expiry answers SurveyExpired.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'surveys');

let server: Server;
let browser: Browser;
let admin: DemoApi;
/** What the first test designed, for the ones after it. */
const made = { templateId: '', link: '' };

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const templates = (): Promise<DemoRecord[]> => admin.fetchRecords({ entity: { name: 'inu_survey_template', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Project enquiry' }] } }, page: 1, pageSize: 5 });
const answersOf = (templateId: string): Promise<DemoRecord[]> =>
  admin.fetchRecords({ entity: { name: 'inu_survey_record', allattrs: true, filter: { conditions: [{ attribute: 'templateid', operator: 'eq', value: templateId }] } }, page: 1, pageSize: 10 });
const fieldOrder = (page: Page) => page.locator('.survey-design-field .survey-design-label').allTextContents();

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

describe('surveys inside the product (issue 20)', { timeout: 120_000 }, () => {
  it('designs a survey: fields from the target entity, Required and Wide, order by drag and by keyboard, texts, CSS, preview, published key link copied', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/inu_survey_template/0`);
    const designer = page.locator('section.survey-designer');
    // The panel's code loads on demand (React.lazy): give a loaded machine time.
    await designer.waitFor({ timeout: 30_000 });
    await page.locator('#f-name').fill('Project enquiry');
    await designer.locator('#survey-target').selectOption('lead');
    // The entity's required fields come first; lookups and server fields are not offered.
    await poll(() => fieldOrder(page)).toEqual(['Name', 'Lead Status']);
    const offered = await designer.locator('#survey-add-field option').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(['Company', 'Email']));
    expect(offered).not.toContain('Owner');
    for (const label of ['Company', 'Email']) {
      await designer.locator('#survey-add-field').selectOption({ label });
      await designer.getByRole('button', { name: 'Add', exact: true }).click();
    }
    await poll(() => fieldOrder(page)).toEqual(['Name', 'Lead Status', 'Company', 'Email']);
    await designer.getByLabel('Width: Email').selectOption('Wide');
    await designer.getByLabel('Required: Email').selectOption('Required');
    // Order by drag: Email onto Name's place.
    await designer.locator('[data-survey-field="emailaddress1"] .survey-drag').dragTo(designer.locator('[data-survey-field="name"] .survey-design-label'));
    await poll(() => fieldOrder(page)).toEqual(['Email', 'Name', 'Lead Status', 'Company']);
    // And by keyboard: Company up twice with Alt+Arrow Up (focus stays on it).
    await designer.locator('[data-survey-field="companyname"]').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await poll(() => fieldOrder(page)).toEqual(['Email', 'Company', 'Name', 'Lead Status']);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-survey-field'))).toBe('companyname');
    await designer.locator('#survey-title').fill('Tell us about your project');
    await designer.locator('#survey-submit').fill('Send enquiry');
    await designer.locator('#survey-css').fill('.public-title { color: rgb(200, 30, 30); }');
    // The preview is the public page's own form: same order, Wide across, the submit text, the CSS.
    const preview = designer.locator('.survey-preview');
    await poll(() => preview.locator('.public-title').textContent()).toBe('Tell us about your project');
    await poll(() => preview.locator('.survey-fields > .field label').allTextContents()).toEqual(['Email*', 'Company', 'Name*', 'Lead Status*']);
    expect(await preview.locator('.survey-fields > .field').first().getAttribute('class')).toContain('survey-field-wide');
    expect(await preview.getByRole('button', { name: 'Send enquiry' }).count()).toBe(1);
    expect(await preview.locator('.public-title').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(200, 30, 30)');
    // The designer's own title is not touched by the survey's CSS.
    expect(await page.locator('.form-title, h1').first().evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(200, 30, 30)');
    expect(await designer.getByLabel(/Keep answers for review/).isChecked()).toBe(true);

    await designer.getByRole('button', { name: 'Publish' }).click();
    const link = designer.locator('#survey-link');
    await link.waitFor();
    const address = await link.inputValue();
    expect(address).toMatch(new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/ansu/${ORG}/[a-z0-9]{16}$`));
    expect(await designer.locator('#survey-expires').inputValue()).not.toBe('');
    await shot(page, 'designer');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => new URL(page.url()).pathname).not.toMatch(/\/0$/);
    await designer.getByRole('button', { name: 'Copy' }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address);

    const [template] = await templates();
    expect(template).toBeDefined();
    const meta = JSON.parse(String(template!.meta)) as { properties: Array<{ name: string; required: string; width: string }>; review: boolean };
    expect(meta.review).toBe(true);
    expect(meta.properties.map((p) => [p.name, p.required, p.width])).toEqual([
      ['emailaddress1', 'Required', 'Wide'],
      ['companyname', 'Normal', 'Normal'],
      ['name', 'Required', 'Normal'],
      ['status', 'Required', 'Normal'],
    ]);
    expect(template).toMatchObject({ object_name: 'lead', title: 'Tell us about your project', submit_button: 'Send enquiry' });
    made.templateId = String(template!.id);
    made.link = address;
    await context.close();
  });

  it('a visitor opens the link in a fresh context: validation above the form, then the thank-you text with the red heart', async () => {
    expect(made.link).not.toBe('');
    const { context, page } = await newPage(browser, 390, 800);
    await page.goto(made.link);
    await page.getByRole('heading', { name: 'Tell us about your project' }).waitFor();
    expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(200, 30, 30)');
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await poll(() => page.locator('.survey-validation').textContent()).toContain('Email');
    await page.getByLabel('Email').fill('jana.cacina@example.sk');
    await page.getByLabel('Company').fill('Čačina Stavby s.r.o.');
    await page.getByLabel('Name').fill('Jana Čačina');
    await page.getByLabel('Lead Status').selectOption({ label: 'New' });
    await shot(page, 'public-filled');
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await page.getByText('Thank you for filling out the form').waitFor();
    expect(await page.locator('.outcome-done .heart').count()).toBe(1);
    await shot(page, 'public-thanks');
    await context.close();
    // Kept for review: no lead yet.
    const [answer] = await answersOf(made.templateId);
    expect(answer).toMatchObject({ status: 3, targetid: null });
    const leads = await admin.fetchRecords({ entity: { name: 'lead', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Jana Čačina' }] } }, page: 1, pageSize: 5 });
    expect(leads).toEqual([]);
  });

  it('processes the response into a record: the answers as the form shows them, edited, Save to target creates the lead and marks it Processed', async () => {
    const [answer] = await answersOf(made.templateId);
    expect(answer).toBeDefined();
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/inu_survey_record/${String(answer!.id)}`);
    const panel = page.locator('section.survey-response');
    await poll(() => panel.locator('#f-answer_name').inputValue()).toBe('Jana Čačina');
    expect(await panel.locator('#f-answer_emailaddress1').inputValue()).toBe('jana.cacina@example.sk');
    await panel.locator('#f-answer_companyname').fill('Čačina Stavby a syn');
    await shot(page, 'response');
    await panel.getByRole('button', { name: 'Save to target' }).click();
    await page.getByText('Saved to target').first().waitFor();
    await panel.getByText('Processed: the answers are in the target record.').waitFor();
    const leads = await admin.fetchRecords({ entity: { name: 'lead', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Jana Čačina' }] } }, page: 1, pageSize: 5 });
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ companyname: 'Čačina Stavby a syn', emailaddress1: 'jana.cacina@example.sk', status: 1 });
    const [processed] = await answersOf(made.templateId);
    expect(processed).toMatchObject({ status: 2, targetid: leads[0]!.id });
    // The form shows the record as the server has it now: status Processed, nothing left unsaved.
    await poll(() => page.locator('input[name="f-status"][value="2"]').isChecked()).toBe(true);
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    await panel.getByRole('link', { name: /^Open Lead/ }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/!/edit/lead/${String(leads[0]!.id)}`);
    await shot(page, 'target-lead');
    await context.close();
  });

  it('past its expiry the link answers SurveyExpired', async () => {
    const [template] = await templates();
    await admin.write('update', 'inu_survey_template', { id: String(template!.id), expireson: '2020-01-01T00:00:00Z' });
    const { context, page } = await newPage(browser);
    await page.goto(made.link);
    await page.getByText('We are sorry, the form has expired').waitFor();
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak (designer and response panel)', async () => {
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/inu_survey_template/${made.templateId}`);
    const designer = page.locator('section.survey-designer');
    await designer.getByText('Náhľad').first().waitFor();
    await poll(() => fieldOrder(page)).toHaveLength(4);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await shot(page, 'designer-360-dark-sk');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const [answer] = await answersOf(made.templateId);
    await page.goto(`${server.url}/!/edit/inu_survey_record/${String(answer!.id)}`);
    await page.locator('section.survey-response').getByRole('button', { name: 'Uložiť do cieľa' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'response-360-dark-sk');
    await context.close();
  });
});
