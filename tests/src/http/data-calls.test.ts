import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startHarness, type Harness } from './http-harness.js';

const ORG = 'data';
const ADMIN = { email: 'admin@data.test', password: 'admin-password-1' };

type Page = { records: Array<Record<string, unknown>>; count: number | null; page: number; pageSize: number; moreRecords: boolean };

describe('the data calls over HTTP (API.md)', () => {
  let h: Harness;
  let api: Api;

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    api = new Api(h.url);
    await api.login(ORG, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => h?.close());

  it('getusercontext carries every field of the specification and no secret field', async () => {
    const r = await api.get('getusercontext');
    expect(r.status).toBe(200);
    const ctx = (await r.json()) as Record<string, any>;
    for (const k of ['user', 'orgName', 'appId', 'apps', 'metaDict', 'gui', 'permDict', 'languages', 'owners', 'currencyDict', 'sas', 'buildDate'])
      expect(ctx, k).toHaveProperty(k);
    expect(ctx.user).toMatchObject({ name: 'Admin', emailaddress: ADMIN.email });
    expect(ctx.orgName).toBe(ORG);
    expect(ctx.apps).toContain('Customize');
    expect(ctx.permDict.account).toBe(13107);
    expect(ctx.metaDict.account.logicalName).toBe('account');
    expect(ctx.languages).toEqual(['en', 'de', 'sk']);
    expect(Object.values(ctx.currencyDict).map((c: any) => c.code)).toContain('EUR');
    expect(Number.isNaN(Date.parse(ctx.buildDate))).toBe(false);
    const home = ctx.gui.find((v: any) => v.kind === 'home' && v.appid?.label === 'Customize');
    expect(home.parsedBody).toEqual(JSON.parse(home.body));
    const text = JSON.stringify(ctx);
    expect(text).not.toContain('passwordhash');
    expect(text).not.toContain('scrypt$');
  });

  it('fetch returns a page with count; create, update and delete answer the id as text', async () => {
    const id = await api.create('account', { name: 'Fetch Me' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const page = (await api.fetchRecords({ entity: { name: 'account', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Fetch Me' }] } }, count: true })) as Page;
    expect(page.count).toBe(1);
    expect(page.records[0].id).toBe(id);
    const v = page.records[0].versionnumber;
    const up = await api.post('update', { operation: 'update', name: 'account', object: { id, versionnumber: v, name: 'Fetched' } });
    expect([up.status, await up.text()]).toEqual([200, id]);
    const stale = await api.post('update', { operation: 'update', name: 'account', object: { id, versionnumber: v, name: 'Stale' } });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await stale.text()).toMatch(/^ERR_8001: /);
    const del = await api.post('update', { operation: 'delete', name: 'account', object: { id } });
    expect([del.status, await del.text()]).toEqual([200, id]);
    const gone = await api.post('update', { operation: 'update', name: 'account', object: { id, name: 'Ghost' } });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/^ERR_NOT_FOUND: /);
  });

  it('bodies that do not decode or name unknown entities and fields answer 400 ERR_INPUT as text', async () => {
    const cases: unknown[] = [
      { entity: { name: 'nosuchentity' } },
      { entity: { name: 'account', attributes: [{ attribute: 'nosuchfield' }] } },
      { entity: { name: 'account', filter: { conditions: [{ attribute: 'name', operator: 'bogus', value: 1 }] } } },
      { entity: { name: 'systemuser', attributes: [{ attribute: 'passwordhash' }] } },
      { nothing: true },
    ];
    for (const body of cases) {
      const r = await api.post('fetch', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(await r.text()).toMatch(/^ERR_INPUT: /);
    }
    const bad = await fetch(`${h.url}/api/fetch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-accessptoken': api.token }, body: '{"entity":' });
    expect([bad.status, await bad.text()]).toEqual([400, 'ERR_INPUT: the body is not valid JSON']);
    const op = await api.post('update', { operation: 'explode', name: 'account', object: {} });
    expect(op.status).toBe(400);
  });

  it('password hashes are never sent, not even with allattrs', async () => {
    const page = await api.fetchRecords({ entity: { name: 'systemuser', allattrs: true } });
    expect(page.records.length).toBeGreaterThan(0);
    for (const r of page.records) expect(r).not.toHaveProperty('passwordhash');
  });

  it('a body over the limit answers 413 ERR_TOO_LARGE', async () => {
    const r = await api.post('fetch', { entity: { name: 'account' }, padding: 'x'.repeat(6 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(await r.text()).toMatch(/^ERR_TOO_LARGE: /);
  });

  it('executemultiple answers one result per item in order; an item may carry an error', async () => {
    const r = await api.post('executemultiple', [
      { operation: 'create', name: 'account', object: { name: 'Batch 1' } },
      { operation: 'create', name: 'nosuchentity', object: { name: 'x' } },
      { operation: 'create', name: 'account', object: { name: 'Batch 3' } },
    ]);
    expect(r.status).toBe(200);
    const out = (await r.json()) as Array<{ id?: string; error?: string }>;
    expect(out).toHaveLength(3);
    expect(out[0].id).toBeTruthy();
    expect(out[1].error).toMatch(/^ERR_INPUT: /);
    expect(out[2].id).toBeTruthy();
  });

  it('atomic executemultiple is all or nothing: one error rolls every item back', async () => {
    const r = await api.post('executemultiple', {
      atomic: true,
      records: [
        { operation: 'create', name: 'account', object: { name: 'Atomic 1' } },
        { operation: 'create', name: 'account', object: { name: 'Atomic 2', revenue: 'not a number' } },
      ],
    });
    expect(r.status).toBe(200);
    const out = (await r.json()) as Array<{ id?: string; error?: string }>;
    expect(out.every((x) => typeof x.error === 'string')).toBe(true);
    const page = await api.fetchRecords({ entity: { name: 'account', filter: { conditions: [{ attribute: 'name', operator: 'like', value: 'Atomic%' }] } }, count: true });
    expect(page.count).toBe(0);
  });

  it('apperror keeps the report and answers OK, with or without a session', async () => {
    const r = await api.post('apperror', { message: 'boom', user: 'x', appId: 'Sales', orgName: ORG });
    expect([r.status, await r.text()]).toEqual([200, 'OK']);
    const anon = await fetch(`${h.url}/api/apperror`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ context: 'c', error: 'e', url: '/x' }) });
    expect(anon.status).toBe(200);
  });

  it('cache_debug lists the sessions (name, orgname, username, created, modified, read, ip, agent) and cache_debug_delete ends one; administrators only', async () => {
    const other = new Api(h.url);
    await other.login(ORG, ADMIN.email, ADMIN.password);
    const list = (await (await api.get('cache_debug')).json()) as Array<Record<string, string>>;
    expect(list.length).toBeGreaterThanOrEqual(2);
    for (const k of ['name', 'orgname', 'username', 'created', 'modified', 'read', 'ip', 'agent']) expect(list[0], k).toHaveProperty(k);
    expect(JSON.stringify(list)).not.toContain(api.token);
    const before = new Set(list.map((s) => s.name));
    const mine = await other.get('cache_debug');
    const names = ((await mine.json()) as Array<{ name: string }>).map((s) => s.name);
    expect(names.length).toBe(before.size);
    // Ending each session other than this one signs the other client out.
    const own = list.find((s) => s.read === list.reduce((m, x) => (x.read > m ? x.read : m), ''));
    for (const s of list) if (s !== own) await api.get(`cache_debug_delete?name=${encodeURIComponent(s.name)}`);
    const still = (await api.get('cache_debug')).status === 200 ? api : other;
    const gone = still === api ? other : api;
    expect((await gone.get('getusercontext')).status).toBe(401);
    expect((await still.get('cache_debug_delete?name=nope')).status).toBe(404);

    const staff = new Api(h.url);
    const id = await still.create('systemuser', { name: 'Staff', emailaddress: 'staff@data.test' });
    await still.form('changepassword', { userId: id, newPassword: 'staff-password' });
    const forced = await staff.form('mustchangepassword', { organization: ORG, username: 'staff@data.test', password: 'staff-password', newPassword: 'staff-password-2' });
    staff.token = forced.headers.get('x-accessptoken')!;
    const refused = await staff.get('cache_debug');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/^ERR_PERMISSION: /);
  });

  it('answers carry helmet headers and no x-powered-by; unknown calls answer 404 as text', async () => {
    const r = await fetch(`${h.url}/api/nosuchcall`);
    expect(r.status).toBe(404);
    expect(r.headers.get('x-powered-by')).toBeNull();
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}$/);
    expect(await r.text()).toMatch(/^ERR_NOT_FOUND: /);
  });
});

describe('the import and export calls are mounted under /api behind the session guard', () => {
  it('the import template answers a CSV to a signed-in user and 401 without a session', async () => {
    const h = await startHarness();
    try {
      await h.createOrg(ORG, ADMIN, ['demo']);
      const api = new Api(h.url);
      await api.login(ORG, ADMIN.email, ADMIN.password);
      const r = await api.get('import/template?entity=account');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
      const anon = await fetch(`${h.url}/api/import/template?entity=account`);
      expect([anon.status, anon.statusText]).toEqual([401, 'NOT AUTHORIZED']);
    } finally {
      await h.close();
    }
  });
});
