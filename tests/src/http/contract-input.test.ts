import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, API_CALLS, STATE_INACTIVE } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const ORG = 'wire';
const ADMIN = { email: 'admin@wire.test', password: 'wire-password-1' };

/** A call's path with its {parameters} filled in. */
const pathOf = (path: string): string => path.replace('{org}', ORG).replace('{key}', 'some-survey-key').replace(/^\/api\//, '');

describe('issue 12 point 4: every call decodes its input with the route table\'s codec', () => {
  let h: Harness;
  let admin: Api;

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => h?.close());

  it('every JSON call answers a malformed body with 400 ERR_INPUT (text/plain) naming what failed, never 500', async () => {
    const jsonCalls = API_CALLS.filter((c) => c.input === 'json');
    expect(jsonCalls.length).toBeGreaterThanOrEqual(8);
    for (const c of jsonCalls) {
      const r = await admin.post(pathOf(c.path), [42]);
      expect([c.path, r.status], await r.clone().text()).toEqual([c.path, 400]);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await r.text()).toMatch(new RegExp(`^ERR_INPUT: Invalid ${c.what}: `));
    }
  });

  it('the 400 names the path of the value that failed', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['fetch', { entity: { name: 3 } }, 'ERR_INPUT: Invalid fetch request: entity.name: expected string, got 3'],
      // keyset paging (issue 24): one value per order, then the id
      ['fetch', { entity: { name: 'account', orders: [{ attribute: 'name' }] }, after: ['Acme'] }, 'ERR_INPUT: after: 2 values expected (one per order, then the id)'],
      ['update', { operation: 'create', name: 'account', object: [] }, 'ERR_INPUT: Invalid update: object: expected object, got []'],
      ['executemultiple', { records: [{ operation: 'create', name: 7, object: {} }] }, 'records.0.name: expected string, got 7'],
      ['import/commit', { uploadId: 5 }, 'ERR_INPUT: Invalid import commit: uploadId: expected string, got 5'],
      ['export', { query: { entity: {} } }, 'ERR_INPUT: Invalid export body: query.entity.name: expected string, got undefined'],
      ['export/link', { job: 5 }, 'ERR_INPUT: Invalid export link body: query: expected { entity: EntityQuery }, got undefined; query: expected Partial<{ page: number, pageSize: number, count: boolean, orders: Array<Order>, after: Array<unknown> }>, got undefined; job: expected string, got 5'],
      ['distance', { url: 5 }, 'ERR_INPUT: Invalid distance body: url: expected string, got 5'],
      ['geocode', { lat: 91, lon: 17 }, 'lat: expected latitude (-90 to 90), got 91'],
      ['surveytarget', { id: 'x' }, 'ERR_INPUT: Invalid survey save to target: id: expected Guid, got "x"'],
      ['surveytarget', { id: '00000000-0000-4000-8000-000000000001', answers: [] }, 'answers: expected object, got []'],
      ['whatsnext', { page: 0 }, 'ERR_INPUT: Invalid whatsnext request: page: expected page number (1 to 100000), got 0'],
      ['whatsnext', { owner: 'me' }, 'ERR_INPUT: Invalid whatsnext request: owner: expected Guid, got "me"'],
      ['document', { entity: 'invoice', id: 'x', template: 'y' }, 'ERR_INPUT: Invalid document request: id: expected Guid, got "x"'],
      ['metadata/plan', { create: [{ logicalName: 5 }] }, 'ERR_INPUT: Invalid metadata change: create.0.0.logicalName: expected string, got 5'],
      ['metadata/apply', { remove: ['account'] }, 'ERR_INPUT: Invalid metadata apply: version: expected number, got undefined'],
      ['drive/list', { entity: 'account', id: 'x', panel: 'files', path: [5] }, 'ERR_INPUT: Invalid drive list: path.0: expected name, got 5'],
      ['drive/rename', { entity: 'account', id: 'x', panel: 'files', name: 'a' }, 'ERR_INPUT: Invalid drive rename: newName: expected name, got undefined'],
      ['cloudcalendar', { start: 1 }, 'ERR_INPUT: Invalid cloud calendar: start: expected string, got 1'],
    ];
    for (const [path, body, text] of cases) {
      const r = await admin.post(path, body);
      expect([path, r.status]).toEqual([path, 400]);
      expect(await r.text()).toContain(text);
    }
  });

  it('a query that does not decode answers 400 naming the parameter (import upload mode)', async () => {
    const r = await fetch(`${h.url}/api/import/upload?entity=account&mode=bogus`, { method: 'POST', headers: { 'x-accessptoken': admin.token }, body: 'name\nA\n' });
    expect([r.status, await r.text()]).toEqual([400, 'ERR_INPUT: Invalid import upload query: mode: expected mode, got "bogus"']);
  });

  it('the blob calls (issue 18): an upload naming no entity or field is 400, a download without a valid sas 403, never 500', async () => {
    const up = await fetch(`${h.url}/api/blob?fileName=a.png`, { method: 'POST', headers: { 'x-accessptoken': admin.token, 'content-type': 'application/octet-stream' }, body: 'x' });
    expect([up.status, await up.text()]).toEqual([400, 'ERR_INPUT: No Object:']);
    const down = await fetch(`${h.url}/api/blob/${ORG}/0123456789abcdef0123456789abcdef.png?sv=1&su=%ZZ&so=[]`);
    expect([down.status, await down.text()]).toEqual([403, 'ERR_PERMISSION: the file link is not valid']);
  });

  it('extra keys of a body are dropped, not refused (existing clients keep working)', async () => {
    const r = await admin.post('update', { operation: 'create', name: 'account', object: { name: 'Extra keys' }, clientVersion: 3 });
    expect(r.status, await r.clone().text()).toBe(200);
  });

  it('the sign-in forms never answer a shape error: a missing field is the one sign-in failure', async () => {
    const r = await new Api(h.url).form('login', { organization: ORG });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ reason: 'ERR_LOGIN' });
  });

  it('a call without a session answers 401 before its body is looked at', async () => {
    const r = await new Api(h.url).post('fetch', [42]);
    expect(r.status).toBe(401);
  });

  it('answers match the route table\'s answer codecs (the client decodes with them)', async () => {
    const page = await admin.post('fetch', { entity: { name: 'account' }, count: true });
    expect(API.fetch.answer.is(await page.json())).toBe(true);
    const sessions = await admin.get('cache_debug');
    expect(API.sessionList.answer.is(await sessions.json())).toBe(true);
    const token = await admin.get('ssetoken');
    expect(API.streamToken.answer.is(await token.json())).toBe(true);
    const ctx = await admin.get('getusercontext');
    expect(API.userContext.answer.is(await ctx.json())).toBe(true);
    // Issue 18: the sign-in provider settings (administrators), secrets hidden.
    const providers = await admin.get('admin/providers');
    expect(API.providerSettings.answer.is(await providers.json())).toBe(true);
  });
});

describe('issue 6 on every write path: deactivating or deleting a user ends their sessions', () => {
  let h: Harness;
  let admin: Api;

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => h?.close());

  /** A user with a live session: created by the administrator, who sets a password the user then changes (that signs in). */
  const signedInUser = async (email: string): Promise<{ id: string; api: Api }> => {
    const id = await admin.create('systemuser', { name: email.split('@')[0], emailaddress: email });
    expect((await admin.form('changepassword', { userId: id, newPassword: 'first-password-1' })).status).toBe(200);
    const api = new Api(h.url);
    const r = await api.form('mustchangepassword', { organization: ORG, username: email, password: 'first-password-1', newPassword: 'second-password-1' });
    expect(r.status, await r.clone().text()).toBe(200);
    api.token = r.headers.get('x-accessptoken')!;
    expect((await api.get('getusercontext')).status).toBe(200);
    return { id, api };
  };

  it('executemultiple: a deactivation in a batch signs the user out', async () => {
    const u = await signedInUser('batch@wire.test');
    const r = await admin.post('executemultiple', [{ operation: 'update', name: 'systemuser', object: { id: u.id, statecode: STATE_INACTIVE } }]);
    expect(await r.json()).toEqual([{ id: u.id }]);
    expect((await u.api.get('getusercontext')).status).toBe(401);
  });

  it('executemultiple: deleting a user signs them out', async () => {
    const u = await signedInUser('deleted@wire.test');
    const r = await admin.post('executemultiple', { records: [{ operation: 'delete', name: 'systemuser', object: { id: u.id } }], atomic: true });
    expect(await r.json()).toEqual([{ id: u.id }]);
    expect((await u.api.get('getusercontext')).status).toBe(401);
  });

  it('import: a file that sets a user Inactive signs them out', async () => {
    const u = await signedInUser('imported@wire.test');
    const up = await fetch(`${h.url}/api/import/upload?entity=systemuser&fileName=users.csv&match=emailaddress`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-accessptoken': admin.token },
      body: `emailaddress;statecode\nimported@wire.test;${STATE_INACTIVE}\n`,
    });
    const preview = (await up.json()) as { uploadId: string; update: number; errorLines: string[] };
    expect([preview.update, preview.errorLines]).toEqual([1, []]);
    const done = (await (await admin.post('import/commit', { uploadId: preview.uploadId, match: 'emailaddress' })).json()) as { updated: number; text: string };
    expect(done.updated, done.text).toBe(1);
    expect((await u.api.get('getusercontext')).status).toBe(401);
  });
});
