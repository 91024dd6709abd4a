import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startHarness, type Harness } from './http-harness.js';

describe('smoke', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('acme', { email: 'admin@acme.test', password: 'correct horse' }, ['demo']);
  });
  afterAll(async () => h?.close());

  it('signs in and fetches', async () => {
    const api = new Api(h.url);
    const r = await api.login('acme', 'admin@acme.test', 'correct horse');
    expect(r.status, await r.clone().text()).toBe(200);
    const ctx = await api.get('getusercontext');
    const body = await ctx.text();
    expect(ctx.status, body).toBe(200);
    const id = await api.create('account', { name: 'Acme Ltd' });
    const page = await api.fetchRecords({ entity: { name: 'account', allattrs: true }, count: true });
    expect(page.records.map((x) => x.id)).toContain(id);
  });
});
