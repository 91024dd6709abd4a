import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedLanes, demoPack, laneCardsRequest, laneCountRequest, type Entity, type EntityRecord, type FetchRequest } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 13 section 3 (kanban) over HTTP, as an attacker would try it: the board's own queries (the
 * lane counts, a lane's cards) and its move (an update with the lane value and the version) through
 * /api/fetch and /api/update. Another organization's records are never counted; a salesperson
 * counts and reads only the leads they may read; a technician without lead access counts nothing, not a
 * board of someone else's leads; a stale version is ERR_8001 (409); a move of a record the user may
 * not update is refused; a malformed lane query is a 400 with ERR_INPUT, never a 500.
 */
const PW = 'shared-password-1';
const lead = demoPack().entities.find((e) => e.logicalName === 'lead') as Entity;
/** The Lead Board's fetch as the list builds it: open leads, its columns, by name. */
const board: FetchRequest = {
  entity: {
    name: 'lead',
    attributes: ['id', 'name', 'versionnumber', 'ownerid', 'companyname', 'rating', 'estimatedvalue'].map((attribute) => ({ attribute })),
    filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] },
    orders: [{ attribute: 'name' }],
  },
  page: 1,
  pageSize: 50,
  count: true,
};
// The lead entity as the server holds it has its system fields; the board's requests name only declared ones and id/versionnumber.
const withKey: Entity = { ...lead, properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }, ...lead.properties, { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' }] };

describe('kanban over HTTP (issue 13 section 3): lane counts, lane pages and moves keep every permission', () => {
  let h: Harness;
  const admins: Record<string, Api> = {};
  const users: Record<string, Api> = {};
  const ids: Record<string, string> = {};

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

  const counts = async (api: Api, request: FetchRequest = board): Promise<Record<string, number>> => {
    const r = await api.post('fetch', laneCountRequest(request, withKey, 'status'));
    const text = await r.text();
    expect(r.status, text).toBe(200);
    const lanes = countedLanes(lead.properties.find((p) => p.logicalName === 'status')!, (JSON.parse(text) as { records: EntityRecord[] }).records);
    return Object.fromEntries(lanes.map((l) => [l.label, l.count]));
  };
  const strip = (idText: string) => idText.trim().replace(/^"|"$/g, '');

  beforeAll(async () => {
    h = await startHarness();
    for (const org of ['kb-a', 'kb-b']) {
      await h.createOrg(org, { email: `admin@${org}.test`, password: PW }, ['demo']);
      admins[org] = new Api(h.url);
      await admins[org].login(org, `admin@${org}.test`, PW);
    }
    await addUser('kb-a', admins['kb-a'], 'sally', 'Salesperson');
    await addUser('kb-a', admins['kb-a'], 'sam', 'Salesperson');
    await addUser('kb-a', admins['kb-a'], 'tom', 'Technician');
    ids.admin1 = strip(await admins['kb-a'].create('lead', { name: 'Admin new', status: 1 }));
    ids.admin2 = strip(await admins['kb-a'].create('lead', { name: 'Admin qualified', status: 3 }));
    ids.sally1 = strip(await users.sally.create('lead', { name: 'Sally new', status: 1 }));
    ids.sally2 = strip(await users.sally.create('lead', { name: 'Sally contacted', status: 2 }));
    ids.sam1 = strip(await users.sam.create('lead', { name: 'Sam new', status: 1 }));
    for (let i = 0; i < 5; i++) await admins['kb-b'].create('lead', { name: `Other organization lead ${i}`, status: 1 });
  }, 120_000);
  afterAll(async () => h?.close());

  it('the lane counts are of the organization of the session only, each lane its own', async () => {
    expect(await counts(admins['kb-a'])).toEqual({ New: 3, Contacted: 1, Qualified: 1, Disqualified: 0 });
    expect(await counts(admins['kb-b'])).toEqual({ New: 5, Contacted: 0, Qualified: 0, Disqualified: 0 });
  });

  it("a salesperson's board counts and lists only the leads they may read; a technician without lead access counts nothing", async () => {
    expect(await counts(users.sally)).toEqual({ New: 1, Contacted: 1, Qualified: 0, Disqualified: 0 });
    const page = await users.sally.fetchRecords(laneCardsRequest(board, withKey, 'status', 1, { page: 1, pageSize: 25 }, ['ownerid', 'teamid']));
    expect(page.records.map((r) => r.name)).toEqual(['Sally new']);
    // No read level on leads: the read scope is empty, so the board is one of nothing.
    expect(await counts(users.tom)).toEqual({ New: 0, Contacted: 0, Qualified: 0, Disqualified: 0 });
  });

  it('a move with a stale version is ERR_8001 (409) and changes nothing; with the current version it saves', async () => {
    const [rec] = (await admins['kb-a'].fetchRecords({ entity: { name: 'lead', attributes: [{ attribute: 'id' }, { attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: ids.admin1 }] } } })).records;
    const other = await admins['kb-a'].post('update', { operation: 'update', name: 'lead', object: { id: ids.admin1, versionnumber: rec.versionnumber, companyname: 'Changed first' } });
    expect(other.status).toBe(200);
    const stale = await admins['kb-a'].post('update', { operation: 'update', name: 'lead', object: { id: ids.admin1, versionnumber: rec.versionnumber, status: 2 } });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toMatch(/^ERR_8001/);
    expect((await counts(admins['kb-a'])).New).toBe(3);
    const [fresh] = (await admins['kb-a'].fetchRecords({ entity: { name: 'lead', attributes: [{ attribute: 'versionnumber' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: ids.admin1 }] } } })).records;
    const moved = await admins['kb-a'].post('update', { operation: 'update', name: 'lead', object: { id: ids.admin1, versionnumber: fresh.versionnumber, status: 2 } });
    expect(moved.status).toBe(200);
    expect(await counts(admins['kb-a'])).toMatchObject({ New: 2, Contacted: 2 });
  });

  it("a move of a colleague's lead (no update permission) or of another organization's lead is refused and changes nothing", async () => {
    const sallyMovesSam = await users.sally.post('update', { operation: 'update', name: 'lead', object: { id: ids.sam1, status: 3 } });
    expect([403, 404]).toContain(sallyMovesSam.status);
    const crossTenant = await admins['kb-b'].post('update', { operation: 'update', name: 'lead', object: { id: ids.admin2, status: 1 } });
    expect([403, 404]).toContain(crossTenant.status);
    expect(await counts(users.sam)).toEqual({ New: 1, Contacted: 0, Qualified: 0, Disqualified: 0 });
    expect((await counts(admins['kb-a'])).Qualified).toBe(1);
  });

  it('a malformed or hostile lane query is a 400 with ERR_INPUT, never a 500', async () => {
    const hostile: unknown[] = [
      // a lane field that does not exist, or a secret one
      laneCountRequest(board, { ...withKey, properties: [...withKey.properties, { logicalName: 'nosuchfield', displayName: 'X', type: 'Integer' }] }, 'nosuchfield'),
      { entity: { name: 'lead', attributes: [{ attribute: 'status', groupBy: 'fortnight' }, { attribute: 'id', aggregate: 'count' }] } },
      { entity: { name: 'lead', attributes: [{ attribute: 'status', groupBy: true }, { attribute: 'id', aggregate: 'median' }] } },
      { entity: { name: 'lead', attributes: [{ attribute: 'status', groupBy: true }, { attribute: 'name' }] } },
      { entity: { name: 'lead', attributes: [{ attribute: 'status', groupBy: true }, { attribute: 'id', aggregate: 'count', alias: 'status' }] } },
      { entity: { name: 'lead', attributes: [{ attribute: 'status', groupBy: true }, { attribute: 'id', aggregate: 'count' }], orders: [{ attribute: 'name' }] } },
      { entity: { name: 'systemuser', attributes: [{ attribute: 'passwordhash', groupBy: true }, { attribute: 'id', aggregate: 'count' }] } },
    ];
    // A huge page is capped (5000), not an error.
    const huge = await admins['kb-a'].post('fetch', { ...laneCountRequest(board, withKey, 'status'), pageSize: 1e12 });
    expect([huge.status, ((await huge.json()) as { pageSize: number }).pageSize]).toEqual([200, 5000]);
    for (const body of hostile) {
      const r = await admins['kb-a'].post('fetch', body);
      const text = await r.text();
      expect(r.status, `${JSON.stringify(body)} -> ${text}`).toBe(400);
      expect(text).toMatch(/^ERR_INPUT/);
    }
  });
});
