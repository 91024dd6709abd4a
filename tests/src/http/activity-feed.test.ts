import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedRequest } from '@tessera/core/internal';
import { Api, openStream, startHarness, type Harness } from './http-harness.js';

const ORG = 'feed';
const PW = 'shared-password-1';
const ADMIN = { email: 'admin@feed.test', password: PW };

/**
 * Issue 18: only people who may read a record see its feed. The demo roles read every activity
 * (organization level), and a technician reads only the accounts of their team: so the read of an
 * activity must follow its regarding record, in /api/fetch (the feed query, and the activity asked
 * for directly by id), in counts, in What's Next, and on the realtime stream.
 */
describe("issue 18: an activity's read follows its regarding record (HTTP)", () => {
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
    const technician = roles.records.find((r) => r.name === 'Technician')!.id as string;
    ids.north = await admin.create('team', { name: 'North' });
    ids.south = await admin.create('team', { name: 'South' });
    for (const [name, team] of [['tom', ids.north], ['tina', ids.north], ['tess', ids.south]] as const) {
      const email = `${name}@feed.test`;
      const id = await admin.create('systemuser', { name, emailaddress: email });
      ids[name] = id;
      await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: technician, name: 'inu_role' } });
      await admin.create('teammembership', { systemuserid: { id, name: 'systemuser' }, teamid: { id: team, name: 'team' } });
      await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
      const api = new Api(h.url);
      const r = await api.form('mustchangepassword', { organization: ORG, username: email, password: PW + 'x', newPassword: PW });
      expect(r.status).toBe(200);
      api.token = r.headers.get('x-accessptoken')!;
      users[name] = api;
    }
    ids.northAccount = await admin.create('account', { name: 'North customer', teamid: { id: ids.north, name: 'team' } });
    ids.southAccount = await admin.create('account', { name: 'South customer', teamid: { id: ids.south, name: 'team' } });
    ids.comment = await users.tom.create('activity', { type: 1, body: 'Boiler serviced, invoice next week', objectname: 'account', objectid: ids.northAccount });
  });
  afterAll(async () => h?.close());

  const feedOf = (api: Api, account: string) => api.fetchRecords({ ...feedRequest('account', account), count: true });

  it('a colleague who reads the record sees the comment in its feed', async () => {
    const tina = await feedOf(users.tina, ids.northAccount);
    expect(tina.records.map((r) => r.body)).toEqual(['Boiler serviced, invoice next week']);
    expect(tina.count).toBe(1);
    expect((await feedOf(admin, ids.northAccount)).count).toBe(1);
  });

  it('another user without read on the record gets nothing: not the feed, not the activity by id, not in counts or aggregates', async () => {
    const feed = await feedOf(users.tess, ids.northAccount);
    expect(feed).toMatchObject({ records: [], count: 0 });
    const byId = await users.tess.fetchRecords({ entity: { name: 'activity', allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: ids.comment }] } }, count: true });
    expect(byId).toMatchObject({ records: [], count: 0 });
    const all = await users.tess.fetchRecords({ entity: { name: 'activity', attributes: [{ attribute: 'id', aggregate: 'count', alias: 'n' }] } });
    expect(all.records[0].n).toBe(0);
    // An update of it is refused as for a record that is not there.
    const upd = await users.tess.post('update', { operation: 'update', name: 'activity', object: { id: ids.comment, body: 'hijacked' } });
    expect(upd.status).toBeGreaterThanOrEqual(400);
    expect(upd.status).toBeLessThan(500);
  });

  it('a comment on a record the author may not read is refused as a reference to a missing record (no planted comments)', async () => {
    const planted = await users.tess.post('update', { operation: 'create', name: 'activity', object: { type: 1, body: 'planted', objectname: 'account', objectid: ids.northAccount } });
    expect(planted.status).toBe(400);
    expect(await planted.text()).toContain(`account ${ids.northAccount} not found`);
    // Moving one's own comment onto such a record is refused the same way.
    const own = await users.tess.create('activity', { type: 1, body: 'mine', objectname: 'account', objectid: ids.southAccount });
    const moved = await users.tess.post('update', { operation: 'update', name: 'activity', object: { id: own, objectid: ids.northAccount } });
    expect(moved.status).toBe(400);
    expect((await feedOf(admin, ids.northAccount)).records.map((r) => r.body)).not.toContain('planted');
  });

  it('the stream sends the comment to readers of the record only', async () => {
    const token = async (api: Api) => ((await (await api.get('ssetoken')).json()) as { token: string }).token;
    const tina = await openStream(h.url, await token(users.tina));
    const tess = await openStream(h.url, await token(users.tess));
    const north = await users.tom.create('activity', { type: 1, body: 'Parts ordered', objectname: 'account', objectid: ids.northAccount });
    const south = await admin.create('activity', { type: 1, body: 'South visit', objectname: 'account', objectid: ids.southAccount });
    const of = (events: readonly { entity: string; id: string }[]) => events.filter((e) => e.entity === 'activity').map((e) => e.id);
    // Changes leave in order: once Tess has `south`, `north` (made before it) would have come already.
    await Promise.all([tina.until((e) => of(e).includes(north)), tess.until((e) => of(e).includes(south))]);
    await Promise.all([tina.stop(), tess.stop()]);
    expect(of(tess.events)).toEqual([south]);
    expect(of(tina.events)).toContain(north);
    expect(of(tina.events)).not.toContain(south);
  });

  it("a reminder due shows in its owner's What's Next as the record it regards", async () => {
    await users.tom.create('activity', { type: 1, body: 'Call about the invoice\nthey asked twice', objectname: 'account', objectid: ids.northAccount, scheduledstart: new Date(Date.now() - 60_000).toISOString() });
    const r = await users.tom.post('whatsnext', { scheduled: 'today', timeZone: 'Europe/Bratislava' });
    expect(r.status).toBe(200);
    const list = (await r.json()) as { records: Array<Record<string, unknown>> };
    expect(list.records.find((x) => x.rule === 'reminder')).toMatchObject({ objectName: 'account', id: ids.northAccount, name: 'North customer', info: 'Call about the invoice' });
  });
});
