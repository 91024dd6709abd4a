import { describe, expect, it } from 'vitest';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { completeSurvey, openSurvey, SURVEY_PROCESSED, SURVEY_RECORD, SURVEY_TEMPLATE } from './complete-survey.js';

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const NOW = new Date('2026-11-24T10:00:00Z');

const setUp = async () => {
  let n = 0;
  const clock = { now: () => NOW };
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const sys = systemCaller();
  const template = must(
    await store.create(sys, SURVEY_TEMPLATE, {
      name: 'Lead form',
      key: 'open-lead-form',
      object_name: 'lead',
      meta: JSON.stringify({ properties: [{ name: 'name', required: true }, 'companyname'] }),
      expireson: '2026-12-01T00:00:00Z',
    }),
  );
  const deps = { store, clock, entities };
  const records = async (entity: string): Promise<EntityRecord[]> =>
    must(await store.retrieveMultiple(sys, { entity: { name: entity, allattrs: true } })).records as EntityRecord[];
  return { store, clock, deps, template, records, sys };
};

describe('spec 002 section 3: completing a survey', () => {
  it('an open survey writes a record of its entity and a Processed survey record', async () => {
    const { deps, records, template } = await setUp();
    expect(await completeSurvey(deps, 'open-lead-form', { name: 'Jane', companyname: 'Co' })).toEqual({ _tag: 'Right', right: 'SurveyCompleted' });
    const [lead] = await records('lead');
    expect(lead).toMatchObject({ name: 'Jane', companyname: 'Co' });
    expect((await records(SURVEY_RECORD))[0]).toMatchObject({ status: SURVEY_PROCESSED, targetid: lead.id, templateid: { id: template } });
  });

  it('required fields are the core rule (checkRequired): MsgRequiredFieldEmpty with the label', async () => {
    const { deps, records } = await setUp();
    const r = await completeSurvey(deps, 'open-lead-form', { companyname: 'Co' });
    expect(isLeft(r) && r.left).toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/^Please provide a value for\n- /) });
    expect(await records('lead')).toEqual([]);
  });

  it('answers go only to the fields the survey lists: others are Field not found', async () => {
    const { deps } = await setUp();
    const r = await completeSurvey(deps, 'open-lead-form', { name: 'x', ownerid: null });
    expect(isLeft(r) && r.left).toMatchObject({ code: 'ERR_INPUT', message: 'Field not found:lead.ownerid' });
  });

  it('expiry is read from the Clock: at expireson the survey is SurveyExpired', async () => {
    const { store, deps } = await setUp();
    const later = { ...deps, clock: { now: () => new Date('2026-12-01T00:00:00Z') } };
    expect(await openSurvey({ store, clock: later.clock }, 'open-lead-form')).toEqual({ _tag: 'Left', left: { _tag: 'SurveyRefusal', outcome: 'SurveyExpired' } });
    expect(await completeSurvey(later, 'open-lead-form', { name: 'Late' })).toEqual({ _tag: 'Left', left: { _tag: 'SurveyRefusal', outcome: 'SurveyExpired' } });
    expect(isRight(await openSurvey({ store, clock: deps.clock }, 'open-lead-form'))).toBe(true);
  });

  it('a personal survey (the key is a survey record id) is answered once; a new one has the default status New (1), not Processed', async () => {
    const { store, deps, template, sys } = await setUp();
    // No status given: the system pack's default (1, New) applies, and the survey is still open.
    const personal = must(await store.create(sys, SURVEY_RECORD, { name: 'For Jane', templateid: { id: template, name: SURVEY_TEMPLATE } }));
    expect(isRight(await completeSurvey(deps, personal, { name: 'Jane' }))).toBe(true);
    expect(await completeSurvey(deps, personal, { name: 'Again' })).toEqual({ _tag: 'Left', left: { _tag: 'SurveyRefusal', outcome: 'SurveyCompleted' } });
  });

  it('an unknown key or one that is not a key is SurveyLinkInvalid', async () => {
    const { deps } = await setUp();
    for (const key of ['no-such-key-123', 'x', '00000000-0000-4000-8000-000000000999'])
      expect(await openSurvey(deps, key), key).toEqual({ _tag: 'Left', left: { _tag: 'SurveyRefusal', outcome: 'SurveyLinkInvalid' } });
  });
});
