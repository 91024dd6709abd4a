import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LINK_VALIDITY_MS } from '@tessera/core/internal';
import { Api, ShiftedClock, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 17 "Export": the download streams in the browser itself, which cannot send the session
 * header on a link. POST /api/export/link checks the export as POST /api/export does and answers
 * a one-time GET /api/export/file?ticket=; the ticket stands for the session (checked again when
 * used), works once and for one minute.
 */

const ORG = 'links';
const ADMIN = { email: 'admin@links.test', password: 'admin-password-1' };
type Link = { url: string; fileName: string; expires: string };
type Job = { id: string; state: 'running' | 'ready' | 'failed' };

describe('export download links (issue 17 Export)', () => {
  let h: Harness;
  let api: Api;
  const clock = new ShiftedClock();

  beforeAll(async () => {
    h = await startHarness({ clock });
    await h.createOrg(ORG, ADMIN, ['demo']);
    api = new Api(h.url);
    await api.login(ORG, ADMIN.email, ADMIN.password);
    const batch = Array.from({ length: 30 }, (_, i) => ({ operation: 'create', name: 'account', object: { name: `Link account ${String(i).padStart(2, '0')}` } }));
    expect((await api.post('executemultiple', { records: batch, atomic: true })).status).toBe(200);
  });
  afterAll(async () => h?.close());

  const query = { entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Link account%' }] }, orders: [{ attribute: 'name' }] } };
  /** A plain GET as a browser's download sends it: no session header. */
  const download = (link: Link) => fetch(`${h.url}${link.url}`);
  const linkFor = async (body: unknown, as: Api = api): Promise<Link> => {
    const r = await as.post('export/link', body);
    expect(r.status, await r.clone().text()).toBe(200);
    return (await r.json()) as Link;
  };

  it('a link downloads the same file as the streamed call, as an attachment, without the session header; once only', async () => {
    const link = await linkFor({ query, format: 'csv' });
    expect(link.fileName).toBe('Accounts.csv');
    expect(link.url).toMatch(/^\/api\/export\/file\?ticket=[\w-]+$/);
    expect(Date.parse(link.expires) - Date.now()).toBeLessThanOrEqual(EXPORT_LINK_VALIDITY_MS + 1000);
    const file = await download(link);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Accounts.csv"/);
    expect(file.headers.get('cache-control')).toBe('no-store');
    const streamed = await (await api.post('export', { query, format: 'csv' })).text();
    expect(await file.text()).toBe(streamed);
    const again = await download(link);
    expect(again.status).toBe(404);
    expect(await again.text()).toMatch(/^ERR_NOT_FOUND: /);
  });

  it('Selected: the ids narrow the file; the options and the file name travel with the link', async () => {
    const { records } = await api.fetchRecords({ ...query, page: 1, pageSize: 2 });
    const link = await linkFor({ query, format: 'csv', ids: records.map((r) => String(r.id)), options: { fileName: 'Chosen', csvHeader: true } });
    expect(link.fileName).toBe('Chosen.csv');
    const text = await (await download(link)).text();
    const lines = text.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines).toEqual(['sep=;', 'name', 'Link account 00', 'Link account 01']);
  });

  it('an export the server refuses is refused when the link is asked for (no link, no failed download)', async () => {
    const bad = await api.post('export/link', { query: { entity: { name: 'account', attributes: [{ attribute: 'shoe' }] } } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^ERR_INPUT: /);
    const unknown = await api.post('export/link', { query: { entity: { name: 'nothing' } } });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    const malformed = await api.post('export/link', { job: 5 });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toMatch(/^ERR_INPUT: Invalid export link body: /);
    const noSession = await new Api(h.url).post('export/link', { query, format: 'csv' });
    expect(noSession.status).toBe(401);
  });

  it('a user who runs the most exports at once gets 429 for a link too (the dialog says so rather than the browser failing a download)', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ operation: 'create', name: 'contact', object: { lastname: `Busy ${i}` } }));
    for (let i = 0; i < many.length; i += 1000) expect((await api.post('executemultiple', { records: many.slice(i, i + 1000), atomic: true })).status).toBe(200);
    const slow = { query: { entity: { name: 'contact', attributes: [{ attribute: 'lastname' }], filter: { conditions: [{ attribute: 'lastname', operator: 'like', value: 'Busy %' }] } } }, format: 'pdf' };
    const jobs = await Promise.all([0, 1].map(async () => (await (await api.post('export/start', slow)).json()) as Job));
    const refused = await api.post('export/link', { query, format: 'csv' });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/^ERR_TOO_MANY_REQUESTS: /);
    for (const j of jobs)
      for (let i = 0; i < 400; i++) {
        if (((await (await api.get(`export/job?id=${j.id}`)).json()) as Job).state !== 'running') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    expect((await api.post('export/link', { query, format: 'csv' })).status).toBe(200);
  });

  it('an unknown, missing or expired ticket is not found; a ticket whose session ended is 401', async () => {
    expect((await fetch(`${h.url}/api/export/file?ticket=nope`)).status).toBe(404);
    const missing = await fetch(`${h.url}/api/export/file`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toMatch(/^ERR_INPUT: Invalid export file query: /);

    const late = await linkFor({ query });
    clock.offsetMs = EXPORT_LINK_VALIDITY_MS + 1000;
    try {
      expect((await download(late)).status).toBe(404);
    } finally {
      clock.offsetMs = 0;
    }

    const other = new Api(h.url);
    await other.login(ORG, ADMIN.email, ADMIN.password);
    const orphan = await linkFor({ query }, other);
    expect((await other.form('logout', {})).status).toBe(200);
    expect((await download(orphan)).status).toBe(401);
  });

  it("a ready job's link downloads its file; an unknown job or another organization's job gets no link", async () => {
    const started = (await (await api.post('export/start', { query, format: 'pdf' })).json()) as Job;
    let job = started;
    for (let i = 0; i < 200 && job.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await (await api.get(`export/job?id=${started.id}`)).json()) as Job;
    }
    expect(job.state).toBe('ready');
    const link = await linkFor({ job: started.id });
    expect(link.fileName).toBe('Accounts.pdf');
    const file = await download(link);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    expect((await api.post('export/link', { job: 'nope' })).status).toBe(404);
    await h.createOrg('strangers', { email: 'admin@strangers.test', password: ADMIN.password });
    const stranger = new Api(h.url);
    await stranger.login('strangers', 'admin@strangers.test', ADMIN.password);
    expect((await stranger.post('export/link', { job: started.id })).status).toBe(404);
  });
});
