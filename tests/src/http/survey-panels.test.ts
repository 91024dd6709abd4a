import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_LIMITS } from '@tessera/core/internal';
import { Api, startHarness, type Harness } from './http-harness.js';

const ORG = 'surveypanels';
const OTHER = 'surveyother';
const ADMIN = { email: 'admin@surveypanels.test', password: 'survey-panels-pw-1' };
const OTHER_ADMIN = { email: 'admin@surveyother.test', password: 'survey-other-pw-1' };
const PW = 'sally-password-1';
const KEY = 'reviewed-lead-form-2026';

/**
 * Issue 20: answers kept for review, checked like any write, limited per link and per address,
 * and 'save to target' (POST /api/surveytarget) with the caller's permissions.
 */
describe('survey panels over HTTP (issue 20)', () => {
  let h: Harness;
  let admin: Api;
  let otherAdmin: Api;
  let sally: Api;

  const submit = (body: unknown, ip = '192.0.2.1') =>
    fetch(`${h.url}/api/survey/${ORG}/${KEY}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
  const answers = async () => (await admin.fetchRecords({ entity: { name: 'inu_survey_record', allattrs: true, orders: [{ attribute: 'createdon' }] } })).records;
  const leadsNamed = async (name: string) => (await admin.fetchRecords({ entity: { name: 'lead', allattrs: true, filter: { conditions: [{ attribute: 'name', operator: 'eq', value: name }] } } })).records;

  beforeAll(async () => {
    process.env.TESSERA_TRUST_PROXY = '1';
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    await h.createOrg(OTHER, OTHER_ADMIN, ['demo']);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, ADMIN.password);
    otherAdmin = new Api(h.url);
    await otherAdmin.login(OTHER, OTHER_ADMIN.email, OTHER_ADMIN.password);
    const meta = { properties: [{ name: 'name', required: 'Required', width: 'Wide' }, { name: 'companyname', required: 'Normal', width: 'Normal' }, { name: 'status', required: 'Required', width: 'Normal' }], review: true };
    await admin.create('inu_survey_template', { name: 'Reviewed lead form', key: KEY, title: 'Tell us', object_name: 'lead', meta: JSON.stringify(meta) });
    // A salesperson: full rights on leads, none on survey records.
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === 'Salesperson')!.id as string;
    const id = await admin.create('systemuser', { name: 'Sally', emailaddress: 'sally@surveypanels.test' });
    await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await admin.form('changepassword', { userId: id, newPassword: PW + 'x' });
    sally = new Api(h.url);
    const r = await sally.form('mustchangepassword', { organization: ORG, username: 'sally@surveypanels.test', password: PW + 'x', newPassword: PW });
    sally.token = r.headers.get('x-accessptoken')!;
  });
  afterAll(async () => {
    delete process.env.TESSERA_TRUST_PROXY;
    await h?.close();
  });

  it('a survey under review keeps the answers (status Answered) and writes no lead; the page still says SurveyCompleted', async () => {
    const r = await submit({ name: 'Review Lead', companyname: 'Review Co', status: 1 });
    expect([r.status, await r.text()]).toEqual([200, 'SurveyCompleted']);
    expect(await leadsNamed('Review Lead')).toEqual([]);
    const [answer] = await answers();
    expect(answer).toMatchObject({ status: 3, targetid: null });
    expect(JSON.parse(String(answer!.body))).toEqual({ name: 'Review Lead', companyname: 'Review Co', status: 1 });
  });

  it('a submission is checked like any write of the target: too long, wrong type, unknown option, stray field, required left empty are 400, nothing kept', async () => {
    const before = (await answers()).length;
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'x'.repeat(201), status: 1 }, /^ERR_INPUT: /],
      [{ name: 'Typed', status: 'one' }, /^ERR_INPUT: /],
      [{ name: 'Typed', status: 1, companyname: { id: 'x' } }, /^ERR_INPUT: /],
      [{ name: 'Sneaky', status: 1, ownerid: null }, /^ERR_INPUT: Field not found:lead\.ownerid/],
      [{ companyname: 'No name', status: 1 }, /^ERR_INPUT: Please provide a value for\n- /],
    ];
    for (const [i, [body, text]] of cases.entries()) {
      const r = await submit(body, `192.0.2.${50 + i}`);
      expect([r.status, await r.text()], JSON.stringify(body)).toEqual([400, expect.stringMatching(text)]);
    }
    expect((await answers()).length).toBe(before);
  });

  it('save to target: 400 for a malformed id, no survey rights (Sally) or another organization refused, nothing written', async () => {
    const [answer] = await answers();
    const malformed = await admin.post('surveytarget', { id: 'not-a-guid' });
    expect(malformed.status).toBe(400);
    const denied = await sally.post('surveytarget', { id: answer!.id });
    expect([403, 404]).toContain(denied.status);
    expect(await denied.text()).toMatch(/^ERR_(PERMISSION|NOT_FOUND)/);
    const elsewhere = await otherAdmin.post('surveytarget', { id: answer!.id });
    expect(elsewhere.status).toBe(404);
    expect(await leadsNamed('Review Lead')).toEqual([]);
  });

  it('save to target creates the lead, links targetid and sets Processed; again with edited answers it updates the same lead', async () => {
    const [answer] = await answers();
    const r = await admin.post('surveytarget', { id: answer!.id });
    expect(r.status).toBe(200);
    const target = await r.text();
    const [lead] = await leadsNamed('Review Lead');
    expect(lead).toMatchObject({ id: target, companyname: 'Review Co' });
    expect((await answers())[0]).toMatchObject({ id: answer!.id, status: 2, targetid: target });
    const again = await admin.post('surveytarget', { id: answer!.id, answers: { name: 'Review Lead', companyname: 'Edited Co', status: 1 } });
    expect([again.status, await again.text()]).toEqual([200, target]);
    expect(await leadsNamed('Review Lead')).toEqual([expect.objectContaining({ id: target, companyname: 'Edited Co' })]);
    const bad = await admin.post('surveytarget', { id: answer!.id, answers: { name: 'Review Lead', status: 1, ownerid: null } });
    expect([bad.status, await bad.text()]).toEqual([400, 'ERR_INPUT: Field not found:lead.ownerid']);
  });

  it('submissions are limited per address and per link (429 with Retry-After), counted before anything is kept', async () => {
    const before = (await answers()).length;
    const perAddress = DEFAULT_PUBLIC_LIMITS.surveyAddress.limit;
    const fromOne = await Promise.all(Array.from({ length: perAddress + 2 }, (_, i) => submit({ name: `Flood ${i}`, status: 1 }, '198.51.100.7')));
    expect(fromOne.filter((r) => r.status === 429).length).toBe(2);
    const refused = fromOne.find((r) => r.status === 429)!;
    expect(await refused.text()).toBe('ERR_TOO_MANY_REQUESTS: too many answers to this form; try again later');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The link's limit (30 a minute, the earlier answers counted too) across many addresses.
    const many = await Promise.all(Array.from({ length: DEFAULT_PUBLIC_LIMITS.surveyLink.limit }, (_, i) => submit({ name: `Many ${i}`, status: 1 }, `198.51.100.${100 + i}`)));
    expect(many.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(many.some((r) => r.status === 429)).toBe(true);
    const kept = (await answers()).length - before;
    expect(kept).toBe([...fromOne, ...many].filter((r) => r.status === 200).length);
  });
});
