import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, openStream, startHarness, type Harness } from './http-harness.js';

const ORG = 'perm';
const PW = 'shared-password-1';
const ADMIN = { email: 'admin@perm.test', password: PW };

const streamToken = async (api: Api): Promise<string> => {
  const r = await api.get('ssetoken');
  expect(r.status).toBe(200);
  return ((await r.json()) as { token: string }).token;
};

describe('permission levels through roles, and the stream', () => {
  let h: Harness;
  let admin: Api;
  const users: Record<string, Api> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, PW);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const role = (n: string) => roles.records.find((r) => r.name === n)!.id as string;
    const north = await admin.create('team', { name: 'North' });
    const south = await admin.create('team', { name: 'South' });
    // Salesperson: account create 1, read 3, update 1, delete 1. Technician: workorder create, read, update and delete at team level (2), account read 2.
    const people = [
      ['sally', 'Salesperson', north],
      ['sam', 'Salesperson', south],
      ['tina', 'Technician', north],
      ['tom', 'Technician', north],
      ['tess', 'Technician', south],
    ] as const;
    for (const [name, r, team] of people) {
      const email = `${name}@perm.test`;
      const id = await admin.create('systemuser', { name, emailaddress: email });
      ids[name] = id;
      await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: role(r), name: 'inu_role' } });
      await admin.create('teammembership', { systemuserid: { id, name: 'systemuser' }, teamid: { id: team, name: 'team' } });
      await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
      const api = new Api(h.url);
      const r2 = await api.form('mustchangepassword', { organization: ORG, username: email, password: PW + 'x', newPassword: PW });
      expect(r2.status).toBe(200);
      api.token = r2.headers.get('x-accessptoken')!;
      users[name] = api;
    }
    ids.north = north;
    ids.south = south;
  });
  afterAll(async () => h?.close());

  it('owner level: a salesperson updates and deletes only the accounts they own, but reads every account (organization level)', async () => {
    const mine = await users.sally.create('account', { name: 'Sally Account' });
    const theirs = await users.sam.create('account', { name: 'Sam Account' });
    const seen = await users.sally.fetchRecords({ entity: { name: 'account', filter: { conditions: [{ attribute: 'id', operator: 'in', value: [mine, theirs] }] } }, count: true });
    expect(seen.count).toBe(2);
    const page = await users.sally.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: theirs }] } } });
    const denied = await users.sally.post('update', { operation: 'update', name: 'account', object: { id: theirs, versionnumber: page.records[0].versionnumber, name: 'Hijacked' } });
    expect(denied.status).toBe(403);
    expect(await denied.text()).toMatch(/^ERR_PERMISSION: /);
    const del = await users.sally.post('update', { operation: 'delete', name: 'account', object: { id: theirs } });
    expect(del.status).toBe(403);
    const own = await users.sally.fetchRecords({ entity: { name: 'account', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: mine }] } } });
    const ok = await users.sally.post('update', { operation: 'update', name: 'account', object: { id: mine, versionnumber: own.records[0].versionnumber, name: 'Sally Renamed' } });
    expect(ok.status).toBe(200);
  });

  it('team level: a technician reads the accounts of their team only, and updates the work orders of their team only', async () => {
    const northAccount = await admin.create('account', { name: 'North customer', teamid: { id: ids.north, name: 'team' } });
    const southAccount = await admin.create('account', { name: 'South customer', teamid: { id: ids.south, name: 'team' } });
    const seen = await users.tom.fetchRecords({ entity: { name: 'account', filter: { conditions: [{ attribute: 'id', operator: 'in', value: [northAccount, southAccount] }] } }, count: true });
    expect(seen.records.map((r) => r.id)).toEqual([northAccount]);
    expect(seen.count).toBe(1);

    const cust = { id: northAccount, name: 'account' };
    const northOrder = await users.tina.create('workorder', { name: 'North job', customerid: cust, workordertype: 1, status: 1, teamid: { id: ids.north, name: 'team' } });
    // Tess links her own team's customer: a reference to an account she may not read is refused (issue 22 item 6).
    const southOrder = await users.tess.create('workorder', { name: 'South job', customerid: { id: southAccount, name: 'account' }, workordertype: 1, status: 1, teamid: { id: ids.south, name: 'team' } });
    const q = { entity: { name: 'workorder', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'in', value: [northOrder, southOrder] }] } }, orders: [{ attribute: 'name' }] };
    const orders = await users.tom.fetchRecords(q);
    const version = (id: string) => orders.records.find((r) => r.id === id)!.versionnumber;
    const up = await users.tom.post('update', { operation: 'update', name: 'workorder', object: { id: northOrder, versionnumber: version(northOrder), name: 'North job (Tom)' } });
    expect(up.status, await up.clone().text()).toBe(200);
    const other = await users.tom.post('update', { operation: 'update', name: 'workorder', object: { id: southOrder, versionnumber: version(southOrder), name: 'Stolen' } });
    expect(other.status).toBe(403);
  });

  it('organization level: the administrator reads everything; a user without create on an entity is refused', async () => {
    const all = await admin.fetchRecords({ entity: { name: 'workorder' }, count: true });
    expect(all.count).toBeGreaterThanOrEqual(2);
    const r = await users.tom.post('update', { operation: 'create', name: 'invoice', object: { name: 'No right' } });
    expect(r.status).toBe(403);
  });

  it('the stream carries changes of records the user may read, and not the others', async () => {
    const tomToken = await streamToken(users.tom);
    const tessToken = await streamToken(users.tess);
    const since = new Date(Date.now() - 1000).toISOString();
    const tom = await openStream(h.url, tomToken);
    const tess = await openStream(h.url, tessToken);
    // A stream sends changes in the order they were made: once Tom has `north`, `south` (made
    // before it) would have come already; once Tess has `lastSouth`, so would `north`.
    const south = await admin.create('account', { name: 'S stream', teamid: { id: ids.south, name: 'team' } });
    const north = await admin.create('account', { name: 'N stream', teamid: { id: ids.north, name: 'team' } });
    const lastSouth = await admin.create('account', { name: 'S stream 2', teamid: { id: ids.south, name: 'team' } });
    const ids_ = (events: readonly { entity: string; id: string }[]) => events.filter((e) => e.entity === 'account').map((e) => e.id);
    await Promise.all([tom.until((e) => ids_(e).includes(north)), tess.until((e) => ids_(e).includes(lastSouth))]);
    await Promise.all([tom.stop(), tess.stop()]);
    expect(ids_(tom.events)).toContain(north);
    expect(ids_(tom.events)).not.toContain(south);
    expect(ids_(tess.events)).toEqual([south, lastSouth]);
    expect(tom.events.find((e) => e.id === north)).toMatchObject({ entity: 'account', operation: 'create' });
    // With since, the kept changes after that time are replayed first (in order: north is Tom's last visible one).
    const replay = await openStream(h.url, tomToken, since);
    await replay.until((e) => ids_(e).includes(north));
    await replay.stop();
    expect(ids_(replay.events)).not.toContain(south);
  });

  it('the user context shows each user their apps, permissions and the metadata objects of their apps; private objects only to their owner', async () => {
    const adminCtx = (await (await admin.get('getusercontext')).json()) as Record<string, any>;
    await admin.create('inu_view', { name: 'admin-only', kind: 'view', objectname: 'account', isprivate: true, body: adminCtx.gui.find((v: any) => v.kind === 'view' && v.objectname === 'account').body });
    const ctx = (await (await users.sally.get('getusercontext')).json()) as Record<string, any>;
    expect(ctx.apps).toEqual(['Sales']);
    expect(ctx.permDict.account).toBe(4401);
    expect(ctx.permDict.workorder).toBeUndefined();
    expect(ctx.owners).toEqual([{ objectName: 'account', operation: 'update', fieldName: 'primarycontactid' }]);
    const labels = new Set(ctx.gui.map((v: any) => v.appid?.label).filter(Boolean));
    expect([...labels]).toEqual(['Sales']);
    expect(ctx.gui.some((v: any) => v.name === 'admin-only')).toBe(false);
    const again = (await (await admin.get('getusercontext')).json()) as Record<string, any>;
    expect(again.gui.some((v: any) => v.name === 'admin-only')).toBe(true);
    const tech = (await (await users.tom.get('getusercontext?appId=Service')).json()) as Record<string, any>;
    expect([tech.appId, tech.apps]).toEqual(['Service', ['Service']]);
    expect(tech.teams).toEqual([ids.north]);
  });

  it('a stream token that is unknown or expired answers 401', async () => {
    const r = await fetch(`${h.url}/api/stream?token=ml_nope`);
    expect([r.status, r.statusText]).toEqual([401, 'NOT AUTHORIZED']);
    const session = await fetch(`${h.url}/api/stream?token=${encodeURIComponent(users.tom.token)}`);
    expect(session.status).toBe(401);
  });
});
