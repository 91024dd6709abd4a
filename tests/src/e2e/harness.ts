import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The end-to-end harness: a production build of the web client, a real `tessera serve` on a free
 * port over a fresh demo data folder, and Debian's chromium driven by playwright-core.
 */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const ARTIFACTS = join(ROOT, 'artifacts', 'e2e');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CLI = ['--import', 'tsx', join(ROOT, 'cli/src/main.ts')];

const newestMtime = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }, 0);

/** Builds ui-react/dist when it is missing or older than the sources (of the UI or the core it bundles). */
export const buildUi = (): void => {
  const index = join(ROOT, 'ui-react/dist/index.html');
  const sources = Math.max(newestMtime(join(ROOT, 'ui-react/src')), newestMtime(join(ROOT, 'core/src')), statSync(join(ROOT, 'ui-react/index.html')).mtimeMs, statSync(join(ROOT, 'ui-react/vite.config.ts')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs > sources) return;
  const r = spawnSync('npm', ['run', 'build', '--workspace', '@tessera/ui-react'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error(`ui build failed:\n${r.stdout}\n${r.stderr}`);
};

export const freePort = (): Promise<number> =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? ok(a.port) : fail(new Error('no port'))));
    });
  });

/** Runs a CLI command to completion. */
export const cli = (args: string[], env: Record<string, string> = {}): string => {
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`tessera ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

export type Server = { url: string; port: number; data: string; stop: () => Promise<void>; log: () => string };

/** A fresh data folder with the demo organization, served on a free port; `env`: extra settings of the server (e.g. TESSERA_GEOCODER_URL at a loopback fake). */
export const startServer = async (options: { env?: Record<string, string> } = {}): Promise<Server> => {
  const data = mkdtempSync(join(tmpdir(), 'tessera-e2e-'));
  cli(['demo', '--data', data]);
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [...CLI, 'serve', '--port', String(port), '--data', data], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', TESSERA_PUBLIC_URL: `http://127.0.0.1:${port}`, TESSERA_PUZZLE_BITS: process.env.TESSERA_PUZZLE_BITS ?? '16', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tessera serve exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/login`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`tessera serve did not answer in 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    data,
    log: () => out,
    stop: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
};

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

export const newPage = async (browser: Browser, width = 1280, height = 860): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'en-US', timezoneId: 'Europe/Bratislava' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
};

/** Saves a screenshot of a main screen as a test artifact (artifacts/ is git-ignored). */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
};

/** The newest magic link mailed to an address, read from the data folder's outbox. */
export const magicLinkFor = (data: string, email: string): string | undefined => {
  const dir = join(data, 'outbox');
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  for (const f of files.reverse()) {
    const text = readFileSync(f, 'utf8');
    if (!text.toLowerCase().includes(`to: ${email.toLowerCase()}`)) continue;
    const m = /(https?:\/\/\S+\/magic\?\S+)/.exec(text);
    if (m) return m[1];
  }
  return undefined;
};

/** Signs in through the login page and waits for the app shell. */
export const signIn = async (page: Page, url: string, org: string, email: string, password: string): Promise<void> => {
  await page.goto(`${url}/login?org=${encodeURIComponent(org)}`);
  await page.getByLabel('Organization').fill(org);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('.topbar').waitFor();
};

/** The demo organization's name and its users' password (core/src/services/demo-records.ts). */
export const DEMO_ORG = 'demo';
export const DEMO_PASSWORD = 'tessera-demo';

export type DemoRecord = Record<string, unknown>;

/**
 * The API as a second, scriptable client signed in as one demo user: tests use it to find, write and
 * count records, never to check the UI's own work. One helper for every e2e file.
 */
export const demoApi = async (server: Pick<Server, 'url'>, email: string, options: { org?: string; password?: string; agent?: string } = {}) => {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': options.agent ?? 'tessera-e2e' },
    body: new URLSearchParams({ organization: options.org ?? DEMO_ORG, username: email, password: options.password ?? DEMO_PASSWORD }).toString(),
  });
  const token = res.headers.get('x-accessptoken');
  if (!res.ok || !token) throw new Error(`sign-in of ${email} failed: ${res.status}`);
  const { userId } = (await res.json()) as { userId: string };
  const headers = { 'content-type': 'application/json', 'x-accessptoken': token };
  /** A JSON call of the API; the answer's status and text (never throws on a 4xx). */
  const post = async (path: string, body: unknown): Promise<{ ok: boolean; status: number; text: string }> => {
    const r = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { ok: r.ok, status: r.status, text: await r.text() };
  };
  const fetchAnswer = async (body: unknown): Promise<{ records: DemoRecord[]; count?: number }> => {
    const r = await post('/api/fetch', body);
    if (!r.ok) throw new Error(`fetch: ${r.status} ${r.text}`);
    return JSON.parse(r.text) as { records: DemoRecord[]; count?: number };
  };
  const fetchRecords = async (body: unknown): Promise<DemoRecord[]> => (await fetchAnswer(body)).records;
  /** The number of records of an entity (optionally filtered) as the server counts them for this user. */
  const count = async (entity: string, filter?: unknown): Promise<number> =>
    (await fetchAnswer({ entity: { name: entity, attributes: [{ attribute: 'id' }], ...(filter ? { filter } : {}) }, page: 1, pageSize: 1, count: true })).count ?? 0;
  /** One write through /api/update; the answer's text without quotes (an id, or the error). */
  const write = async (operation: 'create' | 'update' | 'delete', name: string, object: DemoRecord): Promise<{ ok: boolean; status: number; text: string }> => {
    const r = await post('/api/update', { operation, name, object });
    return { ...r, text: r.text.trim().replace(/^"|"$/g, '') };
  };
  /** Creates a record and answers its id (throws when refused). */
  const create = async (name: string, object: DemoRecord): Promise<string> => {
    const r = await write('create', name, object);
    if (!r.ok) throw new Error(`create ${name}: ${r.status} ${r.text}`);
    return r.text;
  };
  /** The first record of an entity whose field equals a value, with all its attributes. */
  const byName = async (entity: string, value: string, field = 'name'): Promise<DemoRecord> => {
    const [r] = await fetchRecords({ entity: { name: entity, allattrs: true, filter: { conditions: [{ attribute: field, operator: 'eq', value }] } }, page: 1, pageSize: 1 });
    if (!r) throw new Error(`no ${entity} with ${field} ${value}`);
    return r;
  };
  return { token, userId, headers, post, fetchRecords, fetchAnswer, count, write, create, byName };
};
export type DemoApi = Awaited<ReturnType<typeof demoApi>>;
