import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const PW = 'shared-password-1';
const NEW_LEAD = 1;

type Item = { id: string; objectName: string; name: string | null; info: string | null };
type Answer = { records: Item[]; count: number; categories: string[]; createEntity: string | null; notes: string[] };

/** POST /api/whatsnext with the filters; the answer must match the route table's codec. */
const whatsNext = async (api: Api, filters: Record<string, unknown> = {}): Promise<Answer> => {
  const r = await api.post('whatsnext', filters);
  const text = await r.text();
  expect(r.status, text).toBe(200);
  const body = JSON.parse(text) as unknown;
  expect(API.whatsNext.answer.is(body)).toBe(true);
  return body as Answer;
};
const names = (a: Answer) => a.records.map((x) => x.name).sort();

describe("POST /api/whatsnext (issue 17): a user's follow-ups, and only records they may read", () => {
  let h: Harness;
  const admins: Record<string, Api> = {};
  const users: Record<string, Api> = {};
  const ids: Record<string, string> = {};

  /** A user of org `org` with one role, signed in. */
  const addUser = async (org: string, admin: Api, name: string, role: string): Promise<void> => {
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === role)!.id as string;
    const email = `${name}@${org}.test`;
    const id = await admin.create('systemuser', { name, emailaddress: email });
    ids[name] = id;
    await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
    const api = new Api(h.url);
    const r = await api.form('mustchangepassword', { organization: org, username: email, password: PW + 'x', newPassword: PW });
    expect(r.status).toBe(200);
    api.token = r.headers.get('x-accessptoken')!;
    users[name] = api;
  };

  beforeAll(async () => {
    h = await startHarness();
    for (const org of ['wn-a', 'wn-b']) {
      const adminId = await h.createOrg(org, { email: `admin@${org}.test`, password: PW }, ['demo']);
      ids[`admin-${org}`] = adminId;
      admins[org] = new Api(h.url);
      await admins[org].login(org, `admin@${org}.test`, PW);
    }
    await addUser('wn-a', admins['wn-a'], 'sally', 'Salesperson');
    await addUser('wn-a', admins['wn-a'], 'sam', 'Salesperson');
    await addUser('wn-a', admins['wn-a'], 'tom', 'Technician');
    ids.adminLead = await admins['wn-a'].create('lead', { name: 'Admin lead', status: NEW_LEAD });
    ids.sallyLead = await users.sally.create('lead', { name: 'Sally lead', status: NEW_LEAD });
    ids.samLead = await users.sam.create('lead', { name: 'Sam lead', status: NEW_LEAD });
    await admins['wn-b'].create('lead', { name: 'Other organization lead', status: NEW_LEAD });
  }, 120_000);
  afterAll(async () => h?.close());

  it("the demo pack's rules list new leads at once, with the rule's info text; the default owner is the caller", async () => {
    const mine = await whatsNext(admins['wn-a']);
    expect(names(mine)).toEqual(['Admin lead']);
    expect(mine.records[0]).toMatchObject({ id: ids.adminLead, objectName: 'lead', info: 'A new lead nobody has called yet: call them and log the call as an activity.' });
    expect([mine.categories, mine.createEntity, mine.notes]).toEqual([['lead'], 'lead', []]);
    expect(names(await whatsNext(users.sally))).toEqual(['Sally lead']);
  });

  it('another organization\'s records are never listed, whatever the owner filter says', async () => {
    expect(names(await whatsNext(admins['wn-a'], { owner: null }))).toEqual(['Admin lead', 'Sally lead', 'Sam lead']);
    expect(names(await whatsNext(admins['wn-b'], { owner: null }))).toEqual(['Other organization lead']);
    expect(names(await whatsNext(admins['wn-b'], { owner: ids['admin-wn-a'] }))).toEqual([]);
  });

  it("a salesperson sees only the leads they may read: every owner is their own leads, a colleague's list is empty", async () => {
    expect(names(await whatsNext(users.sally, { owner: null }))).toEqual(['Sally lead']);
    expect(names(await whatsNext(users.sally, { owner: ids.sam }))).toEqual([]);
  });

  it('a user who may not read leads gets no rows, no notes, and no New command', async () => {
    const tom = await whatsNext(users.tom, { owner: null, scheduled: 'next-week' });
    expect(tom.records.filter((x) => x.objectName === 'lead')).toEqual([]);
    expect(tom.notes).toEqual([]);
    expect(tom.createEntity).toBe(null);
  });

  it("a colleague's activity on a lead takes it off the list (only its date is used)", async () => {
    await admins['wn-a'].create('activity', { name: 'Called Sally\'s lead', objectid: ids.sallyLead, objectname: 'lead' });
    expect(names(await whatsNext(users.sally))).toEqual([]);
    expect(names(await whatsNext(users.sally, { scheduled: 'next-week' }))).toEqual(['Sally lead']);
  });

  it('category keeps one entity type; a page past the end is empty', async () => {
    const leads = await whatsNext(admins['wn-a'], { owner: null, category: 'lead' });
    expect(leads.count).toBeGreaterThan(0);
    expect(await whatsNext(admins['wn-a'], { owner: null, category: 'invoice' })).toMatchObject({ records: [], count: 0 });
    expect((await whatsNext(admins['wn-a'], { owner: null, page: 99 })).records).toEqual([]);
  });

  it('malformed or hostile filters are 400 ERR_INPUT, never 500; without a session 401', async () => {
    const cases: Array<[unknown, string]> = [
      [{ scheduled: 'someday' }, 'ERR_INPUT: Invalid whatsnext request: scheduled: expected WhatsNextScheduled, got "someday"'],
      [{ page: 1.5 }, 'ERR_INPUT: Invalid whatsnext request: page: expected page number (1 to 100000), got 1.5'],
      [{ page: 1e12 }, 'ERR_INPUT: Invalid whatsnext request: page: expected page number (1 to 100000)'],
      [{ category: 'x'.repeat(5000) }, 'ERR_INPUT: Invalid whatsnext request: category: '],
      [{ timeZone: 'Mars/Olympus' }, 'ERR_INPUT: Invalid time zone: Mars/Olympus'],
      [{ owner: "' or 1=1 --" }, 'ERR_INPUT: Invalid whatsnext request: owner: expected Guid'],
      ['text', 'ERR_INPUT: the body is not valid JSON'],
      [[42], 'ERR_INPUT: Invalid whatsnext request: '],
    ];
    for (const [body, text] of cases) {
      const r = await admins['wn-a'].post('whatsnext', body);
      expect([r.status, await r.text()]).toEqual([400, expect.stringContaining(text)]);
    }
    expect((await new Api(h.url).post('whatsnext', {})).status).toBe(401);
  });
});
