import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type Entity } from '@tessera/core/internal';
import { Api, openStream, startHarness, type Harness } from './http-harness.js';

const PW = 'meta-password-1';

type Plan = { version: number; dialect: string; steps: Array<{ description: string; dataLoss: boolean }>; ddl: string; destructive: Array<{ step: string; table: string; column?: string; rows: number; description: string }> };

/** The entity as the editor starts from it: the user context's metadata. */
const entityOf = async (api: Api, name: string): Promise<Entity> => {
  const r = await api.get('getusercontext');
  const ctx = (await r.json()) as { metaDict: Record<string, Entity> };
  return ctx.metaDict[name];
};

const withProperty = (e: Entity, p: Entity['properties'][number]): Entity => ({ ...e, properties: [...e.properties, p] });
const withoutProperty = (e: Entity, name: string): Entity => ({ ...e, properties: e.properties.filter((p) => p.logicalName !== name) });

const plan = async (api: Api, change: unknown): Promise<Plan> => {
  const r = await api.post('metadata/plan', change);
  const text = await r.text();
  expect(r.status, text).toBe(200);
  const body = JSON.parse(text) as unknown;
  expect(API.metadataPlan.answer.is(body)).toBe(true);
  return body as Plan;
};

describe('the metadata editor over HTTP (issue 15: /api/metadata/plan and /api/metadata/apply)', () => {
  let h: Harness;
  const admin: Record<string, Api> = {};
  let sally: Api;

  beforeAll(async () => {
    h = await startHarness();
    for (const org of ['meta-a', 'meta-b']) {
      await h.createOrg(org, { email: `admin@${org}.test`, password: PW }, ['demo']);
      admin[org] = new Api(h.url);
      await admin[org].login(org, `admin@${org}.test`, PW);
    }
    // A salesperson of meta-a: no update on inu_metadata.
    const a = admin['meta-a'];
    const roles = await a.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === 'Salesperson')!.id as string;
    const id = await a.create('systemuser', { name: 'Sally', emailaddress: 'sally@meta-a.test' });
    await a.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await a.form('changepassword', { userId: id, newPassword: `${PW}x` });
    sally = new Api(h.url);
    const r = await sally.form('mustchangepassword', { organization: 'meta-a', username: 'sally@meta-a.test', password: `${PW}x`, newPassword: PW });
    expect(r.status).toBe(200);
    sally.token = r.headers.get('x-accessptoken')!;
  }, 120_000);
  afterAll(async () => h?.close());

  it('the plan of an added property is the DDL `tessera schema diff` prints, and changes nothing', async () => {
    const a = admin['meta-a'];
    const account = await entityOf(a, 'account');
    const p = await plan(a, { update: [withProperty(account, { logicalName: 'loyalty', displayName: 'Loyalty', type: 'String', max: 50 })] });
    expect(p.dialect).toBe('sqlite');
    expect(p.steps).toEqual([{ description: 'add column account.loyalty', dataLoss: false }]);
    expect(p.ddl).toContain(`-- metadata editor: meta-a (applied version ${p.version})`);
    expect(p.ddl).toContain('-- 1 step, 0 can lose data (sqlite)');
    expect(p.ddl).toContain('-- step 1: add column account.loyalty');
    expect(p.ddl).toMatch(/ALTER TABLE "account" ADD COLUMN "loyalty"/);
    expect(p.destructive).toEqual([]);
    // Nothing applied: the field is unknown to the store.
    expect((await a.post('fetch', { entity: { name: 'account', attributes: [{ attribute: 'loyalty' }] } })).status).toBe(400);
  });

  it('apply runs the plan in one recorded version; open clients hear of it (inu_metadata on the stream) and the field is there', async () => {
    const a = admin['meta-a'];
    const token = ((await (await sally.get('ssetoken')).json()) as { token: string }).token;
    const stream = await openStream(h.url, token);
    try {
      const account = await entityOf(a, 'account');
      const change = { update: [withProperty(account, { logicalName: 'loyalty', displayName: 'Loyalty', type: 'String', max: 50 })] };
      const p = await plan(a, change);
      const r = await a.post('metadata/apply', { ...change, version: p.version });
      const body = (await r.json()) as { version: number; steps: number };
      expect(r.status).toBe(200);
      expect(API.metadataApply.answer.is(body)).toBe(true);
      expect(body).toEqual({ version: p.version + 1, steps: 1 });
      // A user without the metadata entity still hears of it: every client reloads its metadata.
      await stream.until((events) => events.some((e) => e.entity === 'inu_metadata' && e.id === String(body.version)));
    } finally {
      await stream.stop();
    }
    expect((await entityOf(sally, 'account')).properties.some((p) => p.logicalName === 'loyalty')).toBe(true);
    const id = await a.create('account', { name: 'Loyal Ltd', loyalty: 'gold' });
    const page = await a.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'loyalty' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } });
    expect(page.records[0].loyalty).toBe('gold');
  });

  it('a destructive change names the column and its rows, and is applied only when each such step is confirmed', async () => {
    const a = admin['meta-a'];
    const account = await entityOf(a, 'account');
    const change = { update: [withoutProperty(account, 'loyalty')] };
    const p = await plan(a, change);
    expect(p.destructive).toEqual([
      { step: 'drop column account.loyalty', kind: 'dropColumn', table: 'account', column: 'loyalty', rows: 1, description: 'column account.loyalty has values in 1 row' },
    ]);
    expect(p.ddl).toContain('-- DATA LOSS: column account.loyalty has values in 1 row');
    const refused = await a.post('metadata/apply', { ...change, version: p.version });
    expect([refused.status, await refused.text()]).toEqual([
      409,
      'ERR_DATA_LOSS: The change can lose data: column account.loyalty has values in 1 row. Confirm each of these steps to apply it',
    ]);
    // Nothing was applied: the same plan again, from the same version.
    expect((await plan(a, change)).version).toBe(p.version);
    const wrong = await a.post('metadata/apply', { ...change, version: p.version, confirm: ['drop column account.name'] });
    expect(wrong.status).toBe(409);
    const ok = await a.post('metadata/apply', { ...change, version: p.version, confirm: ['drop column account.loyalty'] });
    expect([ok.status, await ok.json()]).toEqual([200, { version: p.version + 1, steps: 1 }]);
    expect((await entityOf(a, 'account')).properties.some((x) => x.logicalName === 'loyalty')).toBe(false);
  });

  it('a plan reviewed against an older version is not applied (409 ERR_8001)', async () => {
    const a = admin['meta-a'];
    const account = await entityOf(a, 'account');
    const change = { update: [{ ...account, displayName: 'Customer Account' }] };
    const p = await plan(a, change);
    const r = await a.post('metadata/apply', { ...change, version: p.version - 1 });
    expect(r.status).toBe(409);
    expect(await r.text()).toMatch(/^ERR_8001: The metadata was changed meanwhile/);
  });

  it('bad input gets the validation message and applies nothing: duplicates, reserved names, a lookup to a missing entity, string lengths', async () => {
    const a = admin['meta-a'];
    const account = await entityOf(a, 'account');
    const before = (await plan(a, {})).version;
    const cases: Array<[unknown, string]> = [
      [{ update: [withProperty(account, { logicalName: 'accountnumber', displayName: 'Again', type: 'String' })] }, 'Field account.accountnumber is defined twice'],
      [{ create: [{ ...account }] }, 'Entity account exists already'],
      [{ create: [{ logicalName: 'tessera_x', displayName: 'X', displayNamePlural: 'Xs', properties: [] }] }, 'are reserved'],
      [{ update: [withProperty(account, { logicalName: 'createdon', displayName: 'Created', type: 'String' })] }, 'System field account.createdon is DateTime and cannot be declared as String'],
      [{ update: [withProperty(account, { logicalName: 'partner', displayName: 'Partner', type: 'Lookup', targets: ['nope'] })] }, 'account.partner: target No Object:nope'],
      [{ update: [withProperty(account, { logicalName: 'code', displayName: 'Code', type: 'String', max: 0 })] }, 'max must be a whole number from 1, got 0'],
      [{ update: [withProperty(account, { logicalName: '1code', displayName: 'Code', type: 'String' })] }, 'is not a valid name'],
      [{ remove: ['systemuser'] }, 'The metadata removes what every organization needs'],
      [{ remove: ['nothing_here'] }, 'No Object:nothing_here'],
    ];
    for (const [change, message] of cases) {
      const r = await a.post('metadata/plan', change);
      const text = await r.text();
      expect([r.status, text.startsWith('ERR_INPUT: ')], text).toEqual([400, true]);
      expect(text).toContain(message);
      const applied = await a.post('metadata/apply', { ...(change as object), version: before });
      expect(applied.status).toBe(400);
    }
    expect((await plan(a, {})).version).toBe(before);
  });

  it('a user without update on inu_metadata gets 403 for both calls', async () => {
    const account = await entityOf(sally, 'account');
    const change = { update: [withProperty(account, { logicalName: 'sneaky', displayName: 'Sneaky', type: 'String' })] };
    for (const [path, body] of [['metadata/plan', change], ['metadata/apply', { ...change, version: 1 }]] as const) {
      const r = await sally.post(path, body);
      expect([r.status, (await r.text()).split(':')[0]]).toEqual([403, 'ERR_PERMISSION']);
    }
  });

  it("another organization's change reaches only its own tables: each session edits its own organization", async () => {
    const b = admin['meta-b'];
    const account = await entityOf(b, 'account');
    const change = { update: [withProperty(account, { logicalName: 'b_only', displayName: 'B only', type: 'Integer' })] };
    const p = await plan(b, change);
    expect((await b.post('metadata/apply', { ...change, version: p.version })).status).toBe(200);
    expect((await entityOf(b, 'account')).properties.some((x) => x.logicalName === 'b_only')).toBe(true);
    expect((await entityOf(admin['meta-a'], 'account')).properties.some((x) => x.logicalName === 'b_only')).toBe(false);
    // meta-a's versions are its own: its next plan starts from its own version, not meta-b's.
    expect((await plan(admin['meta-a'], {})).ddl).toContain('meta-a');
  });

  it('a body that does not decode is 400 with the path, never 500; a new entity with a lookup is created with its table', async () => {
    const a = admin['meta-a'];
    const bad = await a.post('metadata/plan', { create: [{ logicalName: 5 }] });
    expect([bad.status, (await bad.text()).startsWith('ERR_INPUT: Invalid metadata change: create')]).toEqual([400, true]);
    const many = await a.post('metadata/plan', { remove: Array.from({ length: 1001 }, (_, i) => `e${i}`) });
    expect(many.status).toBe(400);
    const project: Entity = {
      logicalName: 'project',
      displayName: 'Project',
      displayNamePlural: 'Projects',
      properties: [{ logicalName: 'accountid', displayName: 'Account', type: 'Lookup', targets: ['account'] }],
    };
    const p = await plan(a, { create: [project] });
    expect(p.steps.map((s) => s.description)).toContain('create table project (13 columns)');
    expect((await a.post('metadata/apply', { create: [project], version: p.version })).status).toBe(200);
    const id = await a.create('project', { name: 'Rollout' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
