import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type FakeGraph } from '../fakes/fake-graph.js';
import { Api, startHarness, type Harness } from './http-harness.js';

const PW = 'shared-password-1';

/**
 * The CloudFiles panel's calls and the cloud calendar (issue 18; spec 001 "Cloud file browser",
 * section 6: listing needs read on the record, changes need update) against the loopback Graph.
 * The demo account form's CloudFiles panel `files` has rootFolder Accounts and folderField name.
 */
describe('drive and cloud calendar calls (issue 18)', () => {
  let g: FakeGraph;
  let h: Harness;
  let bare: Harness;
  let admin: Api;
  let other: Api;
  let technician: Api;
  let bareAdmin: Api;
  let account: string;
  let nameless: string;
  let bareAccount: string;
  const target = () => ({ entity: 'account', id: account, panel: 'files' });

  beforeAll(async () => {
    g = await startFakeGraph();
    h = await startHarness({
      env: { TESSERA_GRAPH_TOKEN_URL: g.tokenUrl, TESSERA_GRAPH_CLIENT_ID: g.clientId, TESSERA_GRAPH_CLIENT_SECRET: g.clientSecret, TESSERA_GRAPH_URL: g.graphUrl, TESSERA_GRAPH_UPLOAD_MAX_MB: '1' },
    });
    bare = await startHarness({ env: { TESSERA_GRAPH_CLIENT_ID: '', TESSERA_GRAPH_CLIENT_SECRET: '' } });
    await h.createOrg('drive-a', { email: 'admin@drive-a.test', password: PW }, ['demo']);
    await h.createOrg('drive-b', { email: 'admin@drive-b.test', password: PW }, ['demo']);
    await bare.createOrg('drive-c', { email: 'admin@drive-c.test', password: PW }, ['demo']);
    admin = new Api(h.url);
    await admin.login('drive-a', 'admin@drive-a.test', PW);
    other = new Api(h.url);
    await other.login('drive-b', 'admin@drive-b.test', PW);
    bareAdmin = new Api(bare.url);
    await bareAdmin.login('drive-c', 'admin@drive-c.test', PW);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === 'Salesperson')!.id as string;
    const tom = await admin.create('systemuser', { name: 'Tom', emailaddress: 'tom@drive-a.test' });
    await admin.create('systemuserroles', { systemuserid: { id: tom, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await admin.form('changepassword', { userId: tom, newPassword: PW + 'x' });
    technician = new Api(h.url);
    const r = await technician.form('mustchangepassword', { organization: 'drive-a', username: 'tom@drive-a.test', password: PW + 'x', newPassword: PW });
    technician.token = r.headers.get('x-accessptoken')!;
    account = await admin.create('account', { name: 'Contoso: Ltd.' });
    nameless = await admin.create('account', { name: 'Nowhere Inc' });
    bareAccount = await bareAdmin.create('account', { name: 'Contoso' });
    // The folder name: OneDrive refuses ':' so it becomes '_' (docs/cloud-files.md).
    g.seed(['Accounts', 'Contoso_ Ltd', 'offer.pdf'], '%PDF-1.4 offer');
    g.seed(['Accounts', 'Contoso_ Ltd', 'IMG_0001.jpg'], 'jpeg bytes');
    g.seed(['Accounts', 'Contoso_ Ltd', 'Contracts']);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await bare?.close();
    await g?.close();
  });

  it("lists the record's folder (rootFolder / folderField value) as the user, with thumbnails", async () => {
    const r = await admin.post('drive/list', target());
    expect(r.status, await r.clone().text()).toBe(200);
    const body = (await r.json()) as { folder: string[]; items: Array<{ name: string; folder: boolean; thumbnail: string | null }>; missing: boolean };
    expect(body.folder).toEqual(['Accounts', 'Contoso_ Ltd']);
    expect(body.missing).toBe(false);
    expect(body.items.map((i) => [i.name, i.folder])).toEqual([
      ['Contracts', true],
      ['IMG_0001.jpg', false],
      ['offer.pdf', false],
    ]);
    expect(body.items.find((i) => i.name === 'IMG_0001.jpg')?.thumbnail).toMatch(/\/thumb\//);
    const call = g.requests.filter((x) => x.path.endsWith(':/children')).at(-1)!;
    expect(call.path).toBe('/v1.0/users/admin@drive-a.test/drive/root:/Accounts/Contoso_ Ltd:/children');
  });

  it("a record whose folder does not exist yet answers missing (the panel shows 'No OneDrive folder for this record.')", async () => {
    const r = await admin.post('drive/list', { entity: 'account', id: nameless, panel: 'files' });
    expect(await r.json()).toEqual({ folder: ['Accounts', 'Nowhere Inc'], items: [], missing: true });
  });

  it('creates a folder (a taken name gets a number), renames, uploads and deletes with update permission', async () => {
    const made = await admin.post('drive/folder', { ...target(), name: 'Contracts' });
    expect([made.status, ((await made.json()) as { name: string }).name]).toEqual([200, 'Contracts 1']);
    const renamed = await admin.post('drive/rename', { ...target(), name: 'Contracts 1', newName: 'Signed' });
    expect(((await renamed.json()) as { name: string }).name).toBe('Signed');
    const up = await fetch(`${h.url}/api/drive/upload?entity=account&id=${account}&panel=files&fileName=notes.txt&path=Signed`, {
      method: 'POST',
      headers: { 'x-accessptoken': admin.token, 'content-type': 'application/octet-stream' },
      body: 'signed notes',
    });
    expect(up.status, await up.clone().text()).toBe(200);
    expect(g.find(['Accounts', 'Contoso_ Ltd', 'Signed', 'notes.txt'])?.content.toString()).toBe('signed notes');
    const gone = await admin.post('drive/delete', { ...target(), name: 'Signed' });
    expect([gone.status, await gone.text()]).toEqual([200, 'OK']);
    expect(g.find(['Accounts', 'Contoso_ Ltd', 'Signed'])).toBeUndefined();
  });

  it("a new folder in a record without a folder creates the record's folder first", async () => {
    const made = await admin.post('drive/folder', { entity: 'account', id: nameless, panel: 'files', name: 'Offers' });
    expect(made.status, await made.clone().text()).toBe(200);
    expect(g.find(['Accounts', 'Nowhere Inc', 'Offers'])?.folder).toBe(true);
  });

  it('a user who may read but not update the record (a salesperson, an account of another user) lists but cannot change: 403', async () => {
    expect((await technician.post('drive/list', target())).status).toBe(200);
    const made = await technician.post('drive/folder', { ...target(), name: 'Mine' });
    expect([made.status, await made.text()]).toEqual([403, 'ERR_PERMISSION: No update permission on account']);
    const up = await fetch(`${h.url}/api/drive/upload?entity=account&id=${account}&panel=files&fileName=x.txt`, { method: 'POST', headers: { 'x-accessptoken': technician.token }, body: 'x' });
    expect(up.status).toBe(403);
    expect((await technician.post('drive/delete', { ...target(), name: 'offer.pdf' })).status).toBe(403);
    expect(g.find(['Accounts', 'Contoso_ Ltd', 'offer.pdf'])).toBeDefined();
  });

  it('another organization cannot reach the record: 404, and no Graph call is made', async () => {
    const before = g.requests.length;
    const r = await other.post('drive/list', target());
    expect(r.status).toBe(404);
    expect((await other.post('drive/delete', { ...target(), name: 'offer.pdf' })).status).toBe(404);
    expect(g.requests.length).toBe(before);
    expect((await new Api(h.url).post('drive/list', target())).status).toBe(401);
  });

  it('a panel no form of the entity has, a path with .., bad names and malformed bodies are 400', async () => {
    const panel = await admin.post('drive/list', { ...target(), panel: 'secrets' });
    expect([panel.status, await panel.text()]).toEqual([400, 'ERR_INPUT: No CloudFiles panel secrets on a form of account']);
    expect((await admin.post('drive/list', { ...target(), path: ['..'] })).status).toBe(400);
    expect((await admin.post('drive/list', { ...target(), path: ['a/b'] })).status).toBe(400);
    expect((await admin.post('drive/folder', { ...target(), name: 'bad:name' })).status).toBe(400);
    expect((await admin.post('drive/rename', { ...target(), name: 'offer.pdf', newName: '' })).status).toBe(400);
    expect((await admin.post('drive/list', { entity: 'account' })).status).toBe(400);
    expect((await admin.post('drive/list', { ...target(), entity: 'nosuch' })).status).toBe(400);
  });

  it('an upload over the limit is 413 ERR_TOO_LARGE', async () => {
    const up = await fetch(`${h.url}/api/drive/upload?entity=account&id=${account}&panel=files&fileName=big.bin`, {
      method: 'POST',
      headers: { 'x-accessptoken': admin.token, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(1024 * 1024 + 1),
    });
    expect(up.status).toBe(413);
    expect(g.find(['Accounts', 'Contoso_ Ltd', 'big.bin'])).toBeUndefined();
  });

  it('a Graph failure is 502 with the spec text; a server without Graph is 501', async () => {
    g.calendarFailure = { status: 500, code: 'generalException', message: 'General failure' };
    const r = await admin.post('cloudcalendar', { start: '2026-11-01T00:00:00Z', end: '2026-12-01T00:00:00Z' });
    expect([r.status, await r.text()]).toEqual([502, 'ERR_UPSTREAM: Unable to find user calendars: Request [/users/admin@drive-a.test/calendars] failed: General failure']);
    g.calendarFailure = null;
    const none = await bareAdmin.post('drive/list', { entity: 'account', id: bareAccount, panel: 'files' });
    expect(none.status).toBe(501);
  });

  it("the cloud calendar answers the user's calendars and events in the window; no calendars is 404 'User has no outlook calendars'", async () => {
    g.calendars = [];
    const empty = await admin.post('cloudcalendar', { start: '2026-11-01T00:00:00Z', end: '2026-12-01T00:00:00Z' });
    expect([empty.status, await empty.text()]).toEqual([404, 'ERR_NOT_FOUND: User has no outlook calendars']);
    g.calendars = [{ id: 'c1', name: 'Calendar', events: [{ id: 'e1', subject: 'Board meeting', start: '2026-11-12T09:00:00', end: '2026-11-12T10:30:00' }, { id: 'e2', subject: 'Later', start: '2027-01-12T09:00:00', end: '2027-01-12T10:00:00' }] }];
    const r = await admin.post('cloudcalendar', { start: '2026-11-01T00:00:00Z', end: '2026-12-01T00:00:00Z' });
    expect(await r.json()).toEqual({
      calendars: [{ id: 'c1', name: 'Calendar', color: null }],
      events: [{ id: 'e1', start: '2026-11-12T09:00:00.000Z', end: '2026-11-12T10:30:00.000Z', name: 'Board meeting', calendarId: 'c1', url: 'https://outlook.office365.com/owa/?itemid=e1' }],
    });
    expect((await admin.post('cloudcalendar', { start: 'yesterday', end: '2026-12-01T00:00:00Z' })).status).toBe(400);
    expect((await admin.post('cloudcalendar', { start: '2026-01-01T00:00:00Z', end: '2026-12-01T00:00:00Z' })).status).toBe(400);
  });
});
