/**
 * Issue 17 "Import": a 100k-row CSV parsed in the browser's import worker (chromium on this
 * machine, goal under 3 s), and the same file imported end to end through the screen (the page's
 * atomic /api/executemultiple batches). Run alone: `node --import tsx tests/bench/import-screen-bench.ts`.
 * Lines: `bench <name>: <value> <unit> (goal <goal>) ok|short`; `#` lines are context.
 */
import { buildUi, DEMO_ORG, DEMO_PASSWORD, demoApi, launchBrowser, newPage, signIn, startServer } from '../src/e2e/harness.js';

const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);

const line = (name: string, value: number, unit: string, goal: number): void => {
  const ok = value <= goal;
  console.log(`bench ${name}: ${value.toFixed(value < 10 ? 2 : 0)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);
};

const csv = (): string => {
  const out = ['name;firstname;lastname;emailaddress1;jobtitle;birthdate;mobilephone;address1_city;address1_zip;tags'];
  for (let i = 0; i < ROWS; i++) {
    const d = String((i % 28) + 1).padStart(2, '0');
    out.push(`Bench ${i};First ${i};Last ${i};bench${i}@example.test;"Job ""${i % 50}""; senior";${d}.0${(i % 9) + 1}.19${50 + (i % 50)};+421 900 ${String(i).padStart(6, '0')};City ${i % 300};${String(i % 99999).padStart(5, '0')};${(i % 3) + 1}|${((i + 1) % 3) + 1}`);
  }
  return out.join('\r\n') + '\r\n';
};

buildUi();
const server = await startServer();
const browser = await launchBrowser();
try {
  const admin = await demoApi(server, 'admin@demo.test');
  const { page } = await newPage(browser);
  page.setDefaultTimeout(30 * 60_000);
  await signIn(page, server.url, DEMO_ORG, 'admin@demo.test', DEMO_PASSWORD);
  await page.goto(`${server.url}/!/import`);
  await page.getByLabel('Import Object').selectOption('contact');
  await page.getByLabel('Create New').check();
  const text = csv();
  console.log(`# ${ROWS} rows, ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB, 10 columns, Create New`);
  // Main-thread tasks longer than 50 ms from the moment the page has the file (the input's change
  // event; playwright's own hand-over of 12 MB to the input is not the page's work) to the preview.
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: Array<[number, number]>; changeAt: number };
    w.longTasks = [];
    w.changeAt = Infinity;
    document.addEventListener('change', () => (w.changeAt = performance.now()), true);
    new PerformanceObserver((l) => l.getEntries().forEach((e) => w.longTasks.push([e.startTime, e.duration]))).observe({ type: 'longtask', buffered: false });
  });
  await page.locator('.import-panel input[type=file]').setInputFiles({ name: 'bench.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  await page.locator(`.import-count-rows dd:text-is("${ROWS}")`).waitFor();
  const shownAt = await page.evaluate(() => performance.now());
  const parseMs = Number(await page.locator('.import-preview').getAttribute('data-parse-ms'));
  const { changeAt, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { longTasks: Array<[number, number]>; changeAt: number };
    return { changeAt: w.changeAt, longTasks: w.longTasks };
  });
  const during = longTasks.filter(([start]) => start >= changeAt).map(([, d]) => d);
  line('import-screen-worker-parse-100k', parseMs, 'ms', 3000);
  console.log(`# from the file chosen (change event) to the preview drawn: ${Math.round(shownAt - changeAt)} ms; main-thread tasks over 50 ms meanwhile: ${during.length} (longest ${Math.round(Math.max(0, ...during))} ms)`);

  const counts = await page.locator('.import-counts').innerText();
  const fatal = await page.locator('.import-preview .import-error').allTextContents();
  const firstProblems = await page.locator('.import-grid tbody tr').first().locator('.import-problems').innerText();
  if (firstProblems) console.log(`# first row's problems: ${firstProblems}`);
  console.log(`# preview: ${counts.replace(/\s+/g, ' ')}${fatal.length ? `; ${fatal.join(' ')}` : ''}`);
  const t0 = Date.now();
  await page.getByRole('toolbar', { name: 'Import' }).getByRole('button', { name: 'Import', exact: true }).click({ timeout: 10_000 });
  await page.locator('dialog[aria-describedby="app-dialog-message"]').getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('.import-outcome').waitFor();
  const seconds = (Date.now() - t0) / 1000;
  const outcome = await page.locator('.import-outcome-head').textContent();
  if (outcome !== `Imported: ${ROWS} records`) throw new Error(`unexpected result: ${outcome}`);
  await admin.byName('contact', `Bench ${ROWS - 1}`); // the last row is there (counts are capped at 50,000)
  // Goal: the CLI's own import of 100k rows takes about 6 s (docs/api.md); through the page, as
  // 100 atomic HTTP batches of 1000 rows, within ten times that.
  line('import-screen-end-to-end-100k', seconds, 's', 60);
  console.log(`# ${outcome}; ${Math.round(ROWS / seconds)} rows/s through the screen`);
} finally {
  await browser.close();
  await server.stop();
}
