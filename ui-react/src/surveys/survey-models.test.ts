import { describe, expect, it } from 'vitest';
import { builtInPacks, SURVEY_TEMPLATE, type Entity, type EntityRecord, type FieldValue } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { surveyDesignModel } from './survey-design-model.js';
import { surveyResponseModel } from './survey-response-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const entityOf = (n: string) => entities.find((e) => e.logicalName === n);
const NOW = new Date('2026-11-25T01:00:00Z');

const designer = (record: EntityRecord = {}) => {
  const written: EntityRecord = { ...record };
  const model = surveyDesignModel({ entityOf, setValue: (f: string, v: FieldValue) => void (written[f] = v), newKey: () => 'k3y-for-test', now: () => NOW });
  model.load(written);
  return { model, written, meta: () => JSON.parse(String(written.meta)) as { properties: Array<Record<string, unknown>>; review?: boolean } };
};

describe('survey designer model (issue 20): the template fields it writes save with the record', () => {
  it("choosing the target offers its properties and starts with the entity's required ones; a new survey keeps answers for review", () => {
    const { model, written, meta } = designer();
    model.setTarget('lead');
    expect(written.object_name).toBe('lead');
    expect(meta().properties.map((p) => p.name)).toEqual(['name', 'status']);
    expect(meta().review).toBe(true);
    expect(model.available.value.map((p) => p.logicalName)).toContain('companyname');
    expect(model.available.value.map((p) => p.logicalName)).not.toContain('ownerid');
  });

  it('adding, Required/Wide choices and ordering by drag or keyboard are written to meta in order', () => {
    const { model, meta, written } = designer();
    model.setTarget('lead');
    model.add('companyname');
    model.setRequired('companyname', 'Required');
    model.setWidth('companyname', 'Wide');
    model.move(2, 0);
    expect(meta().properties.map((p) => [p.name, p.required, p.width])).toEqual([
      ['companyname', 'Required', 'Wide'],
      ['name', 'Required', 'Normal'],
      ['status', 'Required', 'Normal'],
    ]);
    expect(JSON.parse(String(written.panel))).toMatchObject({ type: 'Fields', fields: ['companyname', 'name', 'status'] });
    model.remove('name');
    expect(meta().properties.map((p) => p.name)).toEqual(['companyname', 'status']);
  });

  it('publish gives a key and an expiry 30 days out; the link is /ansu/{orgname}/{key}; an existing key is kept', () => {
    const { model, written } = designer({ object_name: 'lead', meta: JSON.stringify({ properties: ['name'] }) });
    model.publish(written);
    expect(written.key).toBe('k3y-for-test');
    expect(written.expireson).toBe('2026-12-25T01:00:00.000Z');
    expect(model.link(written, 'acme', 'https://x.test')).toBe('https://x.test/ansu/acme/k3y-for-test');
    const kept = designer({ object_name: 'lead', key: 'already-there', expireson: '2026-10-01T00:00:00Z' });
    expect(kept.model.expired(kept.written)).toBe(true);
    kept.model.publish(kept.written);
    expect(kept.written.key).toBe('already-there');
    expect(kept.model.expired(kept.written)).toBe(false);
  });

  it('a stored survey reads back as designed (old templates without review write the target at once)', () => {
    const { model } = designer({ object_name: 'lead', meta: JSON.stringify({ properties: [{ name: 'emailaddress1', required: 'Required', width: 'Wide' }] }) });
    expect(model.design.value).toEqual({ fields: [{ name: 'emailaddress1', required: 'Required', width: 'Wide' }], review: false });
  });
});

describe('survey response model (issue 20): the answers as the form shows them, save to target', () => {
  const setUp = async () => {
    const api = new StoreClient(entities, fullCaller(ME, [SURVEY_TEMPLATE, 'inu_survey_record', 'lead']));
    const meta = { properties: [{ name: 'companyname', required: 'Normal', width: 'Wide' }, { name: 'name', required: 'Required', width: 'Normal' }] };
    const template = await api.update('create', SURVEY_TEMPLATE, { name: 'Lead form', object_name: 'lead', meta: JSON.stringify(meta) });
    const calls: Array<[string, EntityRecord | undefined]> = [];
    const model = surveyResponseModel({
      api: { fetch: (r) => api.fetch(r), saveSurveyToTarget: async (id, answers) => (calls.push([id, answers]), '00000000-0000-4000-8000-0000000000aa') },
      entityOf,
    });
    const record: EntityRecord = { id: '00000000-0000-4000-8000-000000000001', templateid: { id: template, name: SURVEY_TEMPLATE }, body: JSON.stringify({ companyname: 'Co' }), status: 3 };
    await model.load(record);
    return { model, calls, record };
  };

  it("shows the survey's fields in its order with its Required and Wide, over the stored answers", async () => {
    const { model } = await setUp();
    expect(model.state.value).toBe('ready');
    expect(model.entity.value?.logicalName).toBe('lead');
    expect(model.fields.value).toEqual([
      { name: 'companyname', required: false, gridColumn: '1 / -1' },
      { name: 'name', required: true },
    ]);
    expect(model.answers.value).toEqual({ companyname: 'Co' });
    expect(model.dirty.value).toBe(false);
  });

  it('edited answers make the form dirty and go with the record as its body', async () => {
    const { model } = await setUp();
    model.setAnswer('name', 'Jane');
    expect(model.dirty.value).toBe(true);
    expect(JSON.parse(String(model.patch()?.body))).toEqual({ companyname: 'Co', name: 'Jane' });
    model.saved();
    expect(model.patch()).toBeUndefined();
  });

  it('save to target first marks the required answers left empty (nothing sent), then sends the answers', async () => {
    const { model, calls, record } = await setUp();
    expect(await model.saveToTarget(String(record.id))).toBeNull();
    expect([...model.missing.value]).toEqual(['name']);
    expect(calls).toEqual([]);
    model.setAnswer('name', 'Jane');
    expect(model.missing.value.size).toBe(0);
    expect(await model.saveToTarget(String(record.id))).toBe('00000000-0000-4000-8000-0000000000aa');
    expect(calls).toEqual([[record.id, { companyname: 'Co', name: 'Jane' }]]);
    expect(model.savedTarget.value).toBe('00000000-0000-4000-8000-0000000000aa');
  });
});
