import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, ShiftedClock, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 18: files of File and Image fields over HTTP. POST /api/blob streams the body to the
 * organization's BlobStore (the data folder here), sniffs its type, checks the field and the
 * permission; GET /api/blob/{org}/{name}?{sas} checks the signature, its expiry and that its user
 * may read a record that references the blob. Hostile cases answer a clear 4xx, never a 500.
 */
const ORG = 'blobs';
const PW = 'shared-password-1';
const ADMIN = { email: 'admin@blobs.test', password: PW };
const LIMIT = 1024 * 1024;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(200, 1)]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0)]);

type Uploaded = { name: string; size: number; contentType: string; fileName: string };

const upload = (api: Api, entity: string, field: string, fileName: string, body: Buffer | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${api.base}/api/blob?entity=${encodeURIComponent(entity)}&field=${encodeURIComponent(field)}&fileName=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-accessptoken': api.token, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

const sasOf = async (api: Api): Promise<{ sas: string; orgName: string }> => {
  const r = await api.get('getusercontext');
  expect(r.status).toBe(200);
  return (await r.json()) as { sas: string; orgName: string };
};

const download = (base: string, org: string, name: string, sas: string): Promise<Response> => fetch(`${base}/api/blob/${org}/${name}?${sas}`);

describe('issue 18: file and image fields on the blob store, over HTTP', () => {
  const clock = new ShiftedClock();
  let h: Harness;
  let admin: Api;
  let other: Api;
  const users: Record<string, Api> = {};
  const teams: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness({ clock, env: { TESSERA_BLOB_MAX_BYTES: String(LIMIT) } });
    await h.createOrg(ORG, ADMIN, ['demo']);
    await h.createOrg('rival', { email: 'admin@rival.test', password: PW }, ['demo']);
    admin = new Api(h.url);
    expect((await admin.login(ORG, ADMIN.email, PW)).status).toBe(200);
    other = new Api(h.url);
    expect((await other.login('rival', 'admin@rival.test', PW)).status).toBe(200);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const technician = roles.records.find((r) => r.name === 'Technician')!.id as string;
    teams.north = await admin.create('team', { name: 'North' });
    teams.south = await admin.create('team', { name: 'South' });
    for (const [name, team] of [['tina', teams.north], ['tess', teams.south]] as const) {
      const email = `${name}@blobs.test`;
      const id = await admin.create('systemuser', { name, emailaddress: email });
      await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: technician, name: 'inu_role' } });
      await admin.create('teammembership', { systemuserid: { id, name: 'systemuser' }, teamid: { id: team, name: 'team' } });
      await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
      const api = new Api(h.url);
      const r = await api.form('mustchangepassword', { organization: ORG, username: email, password: PW + 'x', newPassword: PW });
      expect(r.status).toBe(200);
      api.token = r.headers.get('x-accessptoken')!;
      users[name] = api;
    }
  });
  afterAll(async () => h?.close());

  it('the user context carries a sas of its own user: signed, with an expiry', async () => {
    const a = await sasOf(admin);
    const t = await sasOf(users.tina);
    expect(a.sas).toMatch(/^sv=1&su=[^&]+&so=blobs&se=\d+&sig=[A-Za-z0-9_-]+$/);
    expect(t.sas).not.toBe(a.sas);
  });

  it('an image is stored under a random name with the sniffed extension (not the name\'s), and its uploader may download it before any record has it', async () => {
    const r = await upload(admin, 'account', 'logo', 'C:\\photos\\logo.jpg', PNG);
    expect(r.status).toBe(200);
    const u = (await r.json()) as Uploaded;
    expect(u).toEqual({ name: expect.stringMatching(/^[0-9a-f]{32}\.png$/), size: PNG.length, contentType: 'image/png', fileName: 'logo.jpg' });
    const { sas } = await sasOf(admin);
    const d = await download(h.url, ORG, u.name, sas);
    expect(d.status).toBe(200);
    expect(d.headers.get('content-type')).toBe('image/png');
    expect(d.headers.get('cache-control')).toMatch(/private/);
    expect(d.headers.get('content-disposition')).toBe(`inline; filename="logo.jpg"; filename*=UTF-8''logo.jpg`);
    expect(Buffer.from(await d.arrayBuffer()).equals(PNG)).toBe(true);
    // Another user may not, while no record references it.
    expect((await download(h.url, ORG, u.name, (await sasOf(users.tina)).sas)).status).toBe(403);
  });

  it('download permission follows READ of a record that references the blob: the registry is written with the record, and cleared with it', async () => {
    const u = (await (await upload(admin, 'account', 'logo', 'north.png', PNG)).json()) as Uploaded;
    const account = await admin.create('account', { name: 'North customer', teamid: { id: teams.north, name: 'team' }, logo: u.name });
    const tina = (await sasOf(users.tina)).sas;
    const tess = (await sasOf(users.tess)).sas;
    expect((await download(h.url, ORG, u.name, tina)).status).toBe(200);
    const denied = await download(h.url, ORG, u.name, tess);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toMatch(/^ERR_PERMISSION: /);
    const page = await admin.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: account }] } } });
    const cleared = await admin.post('update', { operation: 'update', name: 'account', object: { id: account, versionnumber: page.records[0].versionnumber, logo: null } });
    expect(cleared.status).toBe(200);
    expect((await download(h.url, ORG, u.name, tina)).status).toBe(403);
  });

  it('the reference commits and rolls back with its record: a failed atomic batch leaves no reference behind', async () => {
    const u = (await (await upload(admin, 'account', 'logo', 'batch.png', PNG)).json()) as Uploaded;
    const r = await admin.post('executemultiple', {
      atomic: true,
      records: [
        { operation: 'create', name: 'account', object: { name: 'Batch', teamid: { id: teams.north, name: 'team' }, logo: u.name } },
        { operation: 'create', name: 'nosuchentity', object: { name: 'x' } },
      ],
    });
    expect(r.status).toBe(200);
    const registry = await admin.fetchRecords({ entity: { name: 'inu_blob', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: u.name }] } } });
    expect(registry.records.map((x) => x.objectname ?? null)).toEqual([null]);
    expect((await download(h.url, ORG, u.name, (await sasOf(users.tina)).sas)).status).toBe(403);
    // &download=1 asks for an attachment (the uploader may still read it).
    const d = await download(h.url, ORG, u.name, `${(await sasOf(admin)).sas}&download=1`);
    expect(d.headers.get('content-disposition')).toMatch(/^attachment; filename="batch.png"/);
  });

  it('a record cannot reference a blob that was not uploaded to this organization (no dangling or foreign references)', async () => {
    const made = await admin.post('update', { operation: 'create', name: 'account', object: { name: 'Made up', logo: '0123456789abcdef0123456789abcdef.png' } });
    expect(made.status).toBe(400);
    expect(await made.text()).toMatch(/^ERR_INPUT: .*no file of that name was uploaded/);
    const theirs = (await (await upload(other, 'account', 'logo', 'r.png', PNG)).json()) as Uploaded;
    const foreign = await admin.post('update', { operation: 'create', name: 'account', object: { name: 'Foreign', logo: theirs.name } });
    expect(foreign.status).toBe(400);
    // Nor can a user write the registry to grant themselves a read.
    const forged = await admin.post('update', { operation: 'create', name: 'inu_blob', object: { name: theirs.name, objectname: 'account', objectid: '00000000-0000-0000-0000-000000000001', field: 'logo' } });
    expect(forged.status).toBe(403);
  });

  it('another tenant: a sas of another organization reaches nothing here, and the path cannot switch organizations', async () => {
    const u = (await (await upload(admin, 'account', 'logo', 'mine.png', PNG)).json()) as Uploaded;
    const rival = (await sasOf(other)).sas;
    expect((await download(h.url, ORG, u.name, rival)).status).toBe(403);
    expect((await download(h.url, 'rival', u.name, rival)).status).toBe(403);
    const mine = (await sasOf(admin)).sas;
    expect((await download(h.url, 'rival', u.name, mine)).status).toBe(403);
  });

  it('an expired or tampered sas is 403, never a file', async () => {
    const u = (await (await upload(admin, 'account', 'logo', 'x.png', PNG)).json()) as Uploaded;
    const { sas } = await sasOf(admin);
    const tampered = sas.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const t = await download(h.url, ORG, u.name, tampered);
    expect(t.status).toBe(403);
    expect(await t.text()).toBe('ERR_PERMISSION: the file link is not valid');
    expect((await download(h.url, ORG, u.name, '')).status).toBe(403);
    expect((await download(h.url, ORG, u.name, sas.replace(/se=\d+/, 'se=99999999999'))).status).toBe(403);
    clock.offsetMs = 13 * 3600 * 1000;
    try {
      const e = await download(h.url, ORG, u.name, sas);
      expect(e.status).toBe(403);
      expect(await e.text()).toMatch(/expired/);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('path traversal in the name is refused, never a file of the data folder', async () => {
    const { sas } = await sasOf(admin);
    for (const bad of ['..%2F..%2Fcatalog.sqlite', '..%2Forgs%2Fblobs.sqlite', '.sas-secret', '%2E%2E', 'x.png']) {
      const r = await download(h.url, ORG, bad, sas);
      expect([403, 404], bad).toContain(r.status);
    }
  });

  it('the size limit: 413 by Content-Length before reading, and while streaming a body without one; nothing is kept', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(LIMIT + 10)]);
    const r = await upload(admin, 'account', 'logo', 'big.png', big);
    expect(r.status).toBe(413);
    expect(await r.text()).toBe('ERR_TOO_LARGE: the file is over the limit of 1 MB');
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(PNG));
        for (let i = 0; i < 20; i += 1) c.enqueue(new Uint8Array(100 * 1024));
        c.close();
      },
    });
    const s = await upload(admin, 'account', 'logo', 'big.png', chunked);
    expect(s.status).toBe(413);
  });

  it('the type is sniffed from the bytes: a PDF in an Image field, unknown binary, a JSON body: 415 with ERR_CONTENT_TYPE', async () => {
    const pdf = await upload(admin, 'account', 'logo', 'logo.png', PDF);
    expect(pdf.status).toBe(415);
    expect(await pdf.text()).toMatch(/^ERR_CONTENT_TYPE: account\.logo takes images only/);
    const exe = await upload(admin, 'product', 'datasheet', 'sheet.pdf', EXE);
    expect(exe.status).toBe(415);
    const ok = await upload(admin, 'product', 'datasheet', 'sheet.pdf', PDF);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Uploaded).name).toMatch(/\.pdf$/);
    const json = await upload(admin, 'product', 'datasheet', 'a.json', Buffer.from('{"a":1}'), { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
  });

  it('permission and input: no create or update permission is 403; an unknown entity, a field that is not a file, no file name: 400', async () => {
    const denied = await upload(users.tina, 'account', 'logo', 'a.png', PNG);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toMatch(/^ERR_PERMISSION: /);
    expect((await upload(admin, 'nosuch', 'logo', 'a.png', PNG)).status).toBe(400);
    expect((await upload(admin, 'account', 'name', 'a.png', PNG)).status).toBe(400);
    expect((await upload(admin, 'account', 'logo', '', PNG)).status).toBe(400);
    const anonymous = new Api(h.url);
    expect((await upload(anonymous, 'account', 'logo', 'a.png', PNG)).status).toBe(401);
  });
});
