import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Issue 16 "What's Next rules' script" (spec 002 section 3 "What's Next rule": "custom script
 * name"; docs/whats-next.md "Scripts"): a rule's script runs on the server in the real QuickJS
 * sandbox, keeps or drops the rule's records and proposes virtual records; a failing script
 * leaves its rule's rows.
 */

const PW = 'shared-password-1';
const CONTACTED = 2;
const QUALIFIED = 3;

type Item = { id: string; objectName: string; name: string | null; info: string | null; rule: string; init?: Record<string, unknown> };
type Answer = { records: Item[]; count: number; notes: string[] };

const whatsNext = async (api: Api): Promise<Answer> => {
  const r = await api.post('whatsnext', { owner: null });
  const text = await r.text();
  expect(r.status, text).toBe(200);
  const body = JSON.parse(text) as unknown;
  expect(API.whatsNext.answer.is(body)).toBe(true);
  return body as Answer;
};

const REFINER = `
const kept = context.records.filter((r) => r.name !== 'Drop me').map((r) => r.id);
const found = await fetch({ entity: { name: 'lead', attributes: [{ attribute: 'name' }], filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Keep me' }] } } });
let refused = '';
try { await update({ operation: 'create', name: 'lead', object: { name: 'Sneaky' } }); } catch (e) { refused = e.message; }
return [...kept, { name: 'Call back ' + found.records[0].name, init: { name: 'Second call', status: ${CONTACTED} }, info: refused }];
`;

describe("issue 16: What's Next rules' scripts in the QuickJS sandbox", () => {
  let h: Harness;
  const admin = new Api('');
  const rules: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg('wns', { email: 'admin@wns.test', password: PW }, ['demo']);
    Object.assign(admin, new Api(h.url));
    await admin.login('wns', 'admin@wns.test', PW);
    await admin.create('inu_view', { name: 'lead.refine', kind: 'script', body: JSON.stringify({ source: REFINER }) });
    await admin.create('inu_view', { name: 'lead.thrower', kind: 'script', body: JSON.stringify({ source: "throw new Error('boom');" }) });
    rules.refine = await admin.create('inu_nextrule', { name: 'Scripted contacted', objectname: 'lead', statusfield: 'status', statusvalues: String(CONTACTED), nullrelatedmaxage: 0, script: 'lead.refine', description: 'Refined' });
    rules.thrower = await admin.create('inu_nextrule', { name: 'Scripted qualified', objectname: 'lead', statusfield: 'status', statusvalues: String(QUALIFIED), nullrelatedmaxage: 0, script: 'lead.thrower' });
    await admin.create('lead', { name: 'Keep me', status: CONTACTED });
    await admin.create('lead', { name: 'Drop me', status: CONTACTED });
    await admin.create('lead', { name: 'Qualified one', status: QUALIFIED });
    await admin.create('lead', { name: 'Qualified two', status: QUALIFIED });
  }, 120_000);
  afterAll(async () => h?.close());

  it('a script keeps the ids it returns, drops the others, and proposes a virtual record (id "0", init); it may fetch as the user but not write', async () => {
    const answer = await whatsNext(admin);
    const mine = answer.records.filter((r) => r.rule === rules.refine);
    expect(mine.map((r) => [r.id === '0' ? '0' : 'id', r.name])).toEqual([
      ['id', 'Keep me'],
      ['0', 'Call back Keep me'],
    ]);
    const virtual = mine[1];
    expect(virtual).toMatchObject({ objectName: 'lead', init: { name: 'Second call', status: CONTACTED } });
    expect(virtual.info).toBe("ERR_PERMISSION: a What's Next script may only read (fetch)");
    expect(answer.records.some((r) => r.name === 'Drop me')).toBe(false);
    expect(answer.records.some((r) => r.name === 'Sneaky')).toBe(false);
    const sneaky = await admin.fetchRecords({ entity: { name: 'lead', filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Sneaky' }] } } });
    expect(sneaky.records).toEqual([]);
  });

  it("a throwing script leaves its rule's rows, and the answer's notes name the rule and the script", async () => {
    const answer = await whatsNext(admin);
    const mine = answer.records.filter((r) => r.rule === rules.thrower).map((r) => r.name).sort();
    expect(mine).toEqual(['Qualified one', 'Qualified two']);
    expect(answer.notes.some((n) => /^Rule Scripted qualified: Script lead\.thrower( line 1)?: .*boom/.test(n)), answer.notes.join('\n')).toBe(true);
  });
});
