import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startHarness, type Harness } from './http-harness.js';

const ORG = 'surveys';
const ADMIN = { email: 'admin@surveys.test', password: 'survey-password' };

describe('public surveys: GET and POST /api/survey/{org}/{key}', () => {
  let h: Harness;
  let admin: Api;
  let templateId: string;

  beforeAll(async () => {
    h = await startHarness();
    await h.createOrg(ORG, ADMIN, ['demo']);
    admin = new Api(h.url);
    await admin.login(ORG, ADMIN.email, ADMIN.password);
    templateId = await admin.create('inu_survey_template', {
      name: 'Lead form',
      key: 'open-lead-form-2026',
      title: 'Tell us about you',
      submit_button: 'Send',
      object_name: 'lead',
      meta: JSON.stringify({ properties: [{ name: 'name', required: true }, 'companyname', 'emailaddress1', 'status'] }),
      panel: JSON.stringify({ type: 'Fields', fields: ['name', 'companyname', 'emailaddress1'] }),
    });
    await admin.create('inu_survey_template', { name: 'Old form', key: 'expired-form-2020', object_name: 'lead', meta: '{"properties":["name"]}', expireson: '2020-01-01T00:00:00Z' });
  });
  afterAll(async () => h?.close());

  it('loads the survey page without a session: title, submit_button, css_style, meta and panel', async () => {
    const r = await fetch(`${h.url}/api/survey/${ORG}/open-lead-form-2026`);
    expect(r.status).toBe(200);
    const page = (await r.json()) as Record<string, any>;
    expect(page).toMatchObject({ title: 'Tell us about you', submit_button: 'Send', object_name: 'lead' });
    expect(page.meta.properties).toHaveLength(4);
    expect(page.panel.type).toBe('Fields');
  });

  it('a submitted survey writes a record of its own entity and answers SurveyCompleted', async () => {
    const r = await fetch(`${h.url}/api/survey/${ORG}/open-lead-form-2026`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Survey Lead', companyname: 'Survey Co', status: 1 }),
    });
    expect([r.status, await r.text()]).toEqual([200, 'SurveyCompleted']);
    const leads = await admin.fetchRecords({ entity: { name: 'lead', filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Survey Lead' }] } }, count: true });
    expect(leads.count).toBe(1);
    const records = await admin.fetchRecords({ entity: { name: 'inu_survey_record', allattrs: true } });
    expect(records.records.some((x) => (x.templateid as { id: string }).id === templateId && x.targetid === leads.records[0].id)).toBe(true);
  });

  it('a key writes only its survey\'s entity and fields: other fields are refused', async () => {
    const r = await fetch(`${h.url}/api/survey/${ORG}/open-lead-form-2026`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sneaky', ownerid: { id: '00000000-0000-0000-0000-000000000001', name: 'systemuser' } }),
    });
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/^ERR_INPUT: Field not found:lead\.ownerid/);
    const missing = await fetch(`${h.url}/api/survey/${ORG}/open-lead-form-2026`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyname":"x"}' });
    expect(missing.status).toBe(400);
  });

  it('a personal survey link is answered once: then SurveyCompleted', async () => {
    const personal = await admin.create('inu_survey_record', { name: 'For Jane', templateid: { id: templateId, name: 'inu_survey_template' }, status: 1 });
    const url = `${h.url}/api/survey/${ORG}/${personal}`;
    expect((await fetch(url)).status).toBe(200);
    const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Jane Lead', status: 1 }) });
    expect(await first.text()).toBe('SurveyCompleted');
    const again = await fetch(url);
    expect([again.status, await again.text()]).toEqual([410, 'SurveyCompleted']);
  });

  it('an expired survey answers SurveyExpired; a wrong key or organization SurveyLinkInvalid', async () => {
    const expired = await fetch(`${h.url}/api/survey/${ORG}/expired-form-2020`);
    expect([expired.status, await expired.text()]).toEqual([410, 'SurveyExpired']);
    for (const path of [`${ORG}/no-such-key-123`, `${ORG}/x`, `nosuchorg/open-lead-form-2026`, `..%2F..%2Fcatalog/open-lead-form-2026`]) {
      const r = await fetch(`${h.url}/api/survey/${path}`);
      expect([r.status, await r.text()], path).toEqual([404, 'SurveyLinkInvalid']);
    }
  });
});
