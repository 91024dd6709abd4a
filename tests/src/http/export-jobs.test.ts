import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 22 item 2: exports run as background jobs with progress and a download when ready, and a
 * user runs a bounded number of exports at once. The streamed POST /api/export keeps working.
 */

const ORG = 'jobs';
const ADMIN = { email: 'admin@jobs.test', password: 'admin-password-1' };
type Job = { id: string; state: 'running' | 'ready' | 'failed'; rows: number; total: number | null; fileName: string };

describe('export jobs (issue 22 item 2)', () => {
  let h: Harness;
  let api: Api;

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    api = new Api(h.url);
    await api.login(ORG, ADMIN.email, ADMIN.password);
    const batch = Array.from({ length: 300 }, (_, i) => ({ operation: 'create', name: 'account', object: { name: `Job account ${String(i).padStart(3, '0')}` } }));
    expect((await api.post('executemultiple', { records: batch, atomic: true })).status).toBe(200);
  });
  afterAll(async () => h?.close());

  const query = { entity: { name: 'account', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Job account%' }] }, orders: [{ attribute: 'name' }] } };

  const until = async (id: string): Promise<Job> => {
    for (let i = 0; i < 200; i++) {
      const job = (await (await api.get(`export/job?id=${id}`)).json()) as Job;
      if (job.state !== 'running') return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the job did not end');
  };

  it('start answers a job with the total; its progress ends ready with every row, and the PDF is downloaded', async () => {
    const r = await api.post('export/start', { query, format: 'pdf' });
    expect(r.status).toBe(200);
    const started = (await r.json()) as Job;
    expect(started).toMatchObject({ state: 'running', total: 300, fileName: 'Accounts.pdf' });
    const done = await until(started.id);
    expect(done).toMatchObject({ state: 'ready', rows: 300, total: 300 });
    const file = await api.get(`export/download?id=${started.id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const doc = await getDocument({ data: new Uint8Array(await file.arrayBuffer()) }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Job account 000');
  });

  it("another user's job, or one that does not exist, is not found; a CSV job downloads the same file as the streamed call", async () => {
    expect((await api.get('export/job?id=nope')).status).toBe(404);
    const started = (await (await api.post('export/start', { query, format: 'csv' })).json()) as Job;
    await until(started.id);
    const stranger = new Api(h.url);
    await h.createOrg('other', { email: 'admin@other.test', password: ADMIN.password });
    await stranger.login('other', 'admin@other.test', ADMIN.password);
    expect((await stranger.get(`export/job?id=${started.id}`)).status).toBe(404);
    expect((await stranger.get(`export/download?id=${started.id}`)).status).toBe(404);
    const job = await (await api.get(`export/download?id=${started.id}`)).text();
    const streamed = await (await api.post('export', { query, format: 'csv' })).text();
    expect(job).toBe(streamed);
  });

  it('a user runs at most 2 exports at once: a third asked alongside answers 429 with Retry-After', async () => {
    const answers = await Promise.all([0, 1, 2].map(() => api.post('export/start', { query, format: 'pdf' })));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0].headers.get('retry-after')).toBeTruthy();
    expect(await refused[0].text()).toMatch(/^ERR_TOO_MANY_REQUESTS: /);
    for (const r of answers.filter((x) => x.status === 200)) await until(((await r.json()) as Job).id);
    // turns are given back when the jobs end
    expect((await api.post('export/start', { query, format: 'csv' })).status).toBe(200);
  });
});

describe('the per-user export limit is configurable (TESSERA_EXPORTS_PER_USER, docs/operations.md)', () => {
  it('with TESSERA_EXPORTS_PER_USER=1 a second export asked alongside answers 429', async () => {
    const h = await startHarness({ env: { TESSERA_EXPORTS_PER_USER: '1' } });
    try {
      await h.createOrg(ORG, ADMIN, ['demo']);
      const api = new Api(h.url);
      await api.login(ORG, ADMIN.email, ADMIN.password);
      const query = { entity: { name: 'account', attributes: [{ attribute: 'name' }] } };
      const answers = await Promise.all([0, 1].map(() => api.post('export/start', { query, format: 'pdf' })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
      expect(await answers.find((r) => r.status === 429)!.text()).toBe('ERR_TOO_MANY_REQUESTS: at most 1 exports of one user at once');
      const { id } = (await answers.find((r) => r.status === 200)!.json()) as Job;
      while (((await (await api.get(`export/job?id=${id}`)).json()) as Job).state === 'running') await new Promise((r) => setTimeout(r, 50));
    } finally {
      await h.close();
    }
  });
});
