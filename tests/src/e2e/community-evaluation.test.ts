import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, buildUi, demoApi, launchBrowser, newPage, signIn, startServer, type DemoApi, type DemoRecord, type Server } from './harness.js';

/**
 * Issue 19 "Community evaluation" (spec 001 section 1's route, spec 002 sections 2, 3 and 9) in
 * chromium: /!/edit/fi_community_eval/{id} shows the eight scores as uPlot bars on a 0 to 5 scale
 * beside the community's average over its evaluations; a score edited moves both at once; id 0
 * with init carrying the community lookup starts a new evaluation of that community.
 */
const ORG = 'demo';
const PASSWORD = 'tessera-demo';
const ADMIN = 'admin@demo.test';
const SHOTS = join(ROOT, 'artifacts', 'community-evaluation');
const SCORES = ['housing_eval', 'salary_eval', 'usury_eval', 'work_avail_eval', 'education_eval', 'transportation_eval', 'health_eval', 'city_eval'];

let server: Server;
let browser: Browser;
let admin: DemoApi;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 150 });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const evaluationsOf = (communityId: string): Promise<DemoRecord[]> =>
  admin.fetchRecords({ entity: { name: 'fi_community_eval', allattrs: true, filter: { conditions: [{ attribute: 'communityid', operator: 'eq', value: communityId }] } }, page: 1, pageSize: 100 });
/** The demo community evaluated twice (demo-records.ts). */
const twiceEvaluated = async (): Promise<{ community: { id: string; label: string }; evals: DemoRecord[] }> => {
  const all = await admin.fetchRecords({ entity: { name: 'fi_community_eval', attributes: [{ attribute: 'communityid' }] }, page: 1, pageSize: 500 });
  const counts = new Map<string, number>();
  for (const e of all) counts.set((e.communityid as { id: string }).id, (counts.get((e.communityid as { id: string }).id) ?? 0) + 1);
  const id = [...counts].find(([, n]) => n >= 2)![0];
  const evals = await evaluationsOf(id);
  return { community: { id, label: String((evals[0]!.communityid as { label?: string }).label ?? '') }, evals };
};
const fmt = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(Math.round(n * 100) / 100);
const average = (evals: DemoRecord[], f: string): number => evals.reduce((s, e) => s + Number(e[f] ?? 0), 0) / evals.length;

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

describe('the community evaluation chart (issue 19, spec 002 "Community evaluation")', { timeout: 120_000 }, () => {
  it("shows the eight scores on a 0 to 5 scale beside the community's average over its evaluations; an edited score moves both", async () => {
    const { evals } = await twiceEvaluated();
    const mine = evals[0]!;
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/fi_community_eval/${String(mine.id)}`);
    const panel = page.locator('section.community-chart');
    await panel.getByTestId('community-count').getByText('Evaluations in the average: 2').waitFor();
    await panel.locator('.uplot canvas').first().waitFor();
    for (const f of SCORES) {
      const row = panel.locator(`tr[data-field="${f}"]`);
      await poll(() => row.locator('td').first().textContent()).toBe(fmt(Number(mine[f] ?? 0)));
      await poll(() => row.locator('td.community-average').textContent()).toBe(fmt(average(evals, f)));
    }
    // The Y axis is the spec's scale: 0 to 5 whatever the scores.
    await shot(page, 'community-evaluation-desktop');

    const other = evals[1]!;
    const next = Number(mine.housing_eval) === 5 ? 0 : 5;
    await page.locator('#f-housing_eval').getByRole('radio', { name: String(next), exact: true }).check();
    const housing = panel.locator('tr[data-field="housing_eval"]');
    await poll(() => housing.locator('td').first().textContent()).toBe(String(next));
    await poll(() => housing.locator('td.community-average').textContent()).toBe(fmt((next + Number(other.housing_eval ?? 0)) / 2));
    await context.close();
  });

  it('id 0 with init carrying the community lookup: a new evaluation of that community, counted in the average on save', async () => {
    const { community, evals } = await twiceEvaluated();
    const init = { communityid: { id: community.id, name: 'fi_community', label: community.label } };
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.goto(`${server.url}/!/edit/fi_community_eval/0?init=${encodeURIComponent(JSON.stringify(init))}`);
    const panel = page.locator('section.community-chart');
    await panel.getByTestId('community-count').getByText(`Evaluations in the average: ${evals.length + 1}`).waitFor();
    for (const f of SCORES) await page.locator(`#f-${f}`).getByRole('radio', { name: '3', exact: true }).check();
    await poll(() => panel.locator('tr[data-field="city_eval"] td.community-average').textContent()).toBe(fmt((evals.reduce((s, e) => s + Number(e.city_eval ?? 0), 0) + 3) / (evals.length + 1)));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Record saved').first().waitFor();
    await poll(async () => (await evaluationsOf(community.id)).length).toBe(evals.length + 1);
    await context.close();
  });

  it('works at 360 px, in dark mode and in Slovak', async () => {
    const { evals } = await twiceEvaluated();
    const { context, page } = await newPage(browser, 360, 760);
    await signIn(page, server.url, ORG, ADMIN, PASSWORD);
    await page.evaluate(() => {
      localStorage.setItem('tessera.colorTheme', '1');
      localStorage.setItem('tessera.language', 'sk');
    });
    await page.goto(`${server.url}/!/edit/fi_community_eval/${String(evals[0]!.id)}`);
    const panel = page.locator('section.community-chart');
    await panel.getByText('Priemer obce').first().waitFor();
    await panel.locator('.uplot canvas').first().waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await shot(page, 'community-evaluation-360-dark-sk-top');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'community-evaluation-360-dark-sk');
    await context.close();
  });
});
