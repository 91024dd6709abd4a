import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 22 item 6, the probe as it was run: a user who reads only their team's accounts linked a
 * record to another team's account by its id, then read the account's name through the lookup's
 * label and in a group-by. Now the write is 400 (as for an id that does not exist) and the label
 * of a record the user may not read is null wherever it appears.
 */
const ORG = 'labels';
const PW = 'label-password-1';
const ADMIN = { email: 'admin@labels.test', password: PW };

describe('issue 22 item 6: labels of records the user may not read leak nothing', () => {
  let h: Harness;
  let admin: Api;
  let tom: Api;
  let northAccount = '';
  let southAccount = '';
  let north = '';

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, PW);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const technician = roles.records.find((r) => r.name === 'Technician')!.id as string;
    north = await admin.create('team', { name: 'North' });
    const south = await admin.create('team', { name: 'South' });
    northAccount = await admin.create('account', { name: 'North customer', teamid: { id: north, name: 'team' } });
    southAccount = await admin.create('account', { name: 'South secret customer', teamid: { id: south, name: 'team' } });
    // Tom, technician of the North team: accounts at team level, work orders of his team.
    const id = await admin.create('systemuser', { name: 'Tom', emailaddress: 'tom@labels.test' });
    await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: technician, name: 'inu_role' } });
    await admin.create('teammembership', { systemuserid: { id, name: 'systemuser' }, teamid: { id: north, name: 'team' } });
    await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
    tom = new Api(h.url);
    const r = await tom.form('mustchangepassword', { organization: ORG, username: 'tom@labels.test', password: PW + 'x', newPassword: PW });
    expect(r.status).toBe(200);
    tom.token = r.headers.get('x-accessptoken')!;
  }, 120_000);
  afterAll(async () => h?.close());

  it("linking a work order to another team's account is 400 ERR_INPUT, the same answer as for an account that does not exist", async () => {
    const order = (customer: string) => ({ operation: 'create', name: 'workorder', object: { name: 'Probe', customerid: { id: customer, name: 'account' }, workordertype: 1, status: 1, teamid: { id: north, name: 'team' } } });
    const theirs = await tom.post('update', order(southAccount));
    expect(theirs.status).toBe(400);
    expect(await theirs.text()).toBe(`ERR_INPUT: Invalid value for workorder.customerid: account ${southAccount} not found`);
    const missing = randomUUID();
    const none = await tom.post('update', order(missing));
    expect(none.status).toBe(400);
    expect(await none.text()).toBe(`ERR_INPUT: Invalid value for workorder.customerid: account ${missing} not found`);
    expect((await tom.post('update', order(northAccount))).status).toBe(200);
  });

  it('a link made by someone who may read it shows Tom no label: not in the record, not in a group-by', async () => {
    await admin.create('workorder', { name: 'Old link', customerid: { id: southAccount, name: 'account' }, workordertype: 1, status: 1, teamid: { id: north, name: 'team' } });
    const seen = await tom.fetchRecords({ entity: { name: 'workorder', attributes: [{ attribute: 'name' }, { attribute: 'customerid' }], filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Old link' }] } } });
    expect(seen.records[0].customerid).toEqual({ id: southAccount, name: 'account', label: null });
    const groups = await tom.fetchRecords({ entity: { name: 'workorder', attributes: [{ attribute: 'customerid', groupBy: true, alias: 'customer' }, { attribute: 'id', aggregate: 'count', alias: 'n' }] } });
    expect(JSON.stringify(groups)).not.toContain('South secret');
    expect(groups.records.find((g) => (g.customer as { id: string }).id === southAccount)?.customer).toEqual({ id: southAccount, name: 'account', label: null });
    // The administrator, who reads every account, sees the name.
    const all = await admin.fetchRecords({ entity: { name: 'workorder', attributes: [{ attribute: 'customerid' }], filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Old link' }] } } });
    expect(all.records[0].customerid).toMatchObject({ label: 'South secret customer' });
  });
});
