import { describe, expect, it } from 'vitest';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { completeSurvey, SURVEY_ANSWERED, SURVEY_PROCESSED, SURVEY_RECORD, SURVEY_TEMPLATE } from './complete-survey.js';
import { saveSurveyToTarget } from './save-survey-to-target.js';

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const NOW = new Date('2026-11-24T10:00:00Z');
const STAFF = '0f8fad5b-d9cb-469f-a165-70867728950e';
const full = packMask({ create: 3, read: 3, update: 3, delete: 3 });
const staff = (perms: Record<string, number>): Caller => ({ userId: STAFF, teams: [], permissions: { permissions: perms, apps: [], owners: [], needsTeams: false } });

const setUp = async () => {
  let n = 0;
  const clock = { now: () => NOW };
  const ids = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, ids);
  const sys = systemCaller();
  const meta = { properties: [{ name: 'name', required: 'Required', width: 'Wide' }, { name: 'companyname', required: 'Normal', width: 'Normal' }, 'status'], review: true };
  must(await store.create(sys, SURVEY_TEMPLATE, { name: 'Lead form', key: 'reviewed-lead-form', object_name: 'lead', meta: JSON.stringify(meta) }));
  const records = async (entity: string): Promise<EntityRecord[]> => must(await store.retrieveMultiple(sys, { entity: { name: entity, allattrs: true } })).records as EntityRecord[];
  return { store, deps: { store, clock, entities }, saveDeps: { store, entities, ids }, records };
};

describe('issue 20: answers under review, then save to target (spec 001 "Survey record")', () => {
  it('a survey under review keeps the answers in its survey record (status Answered) and writes no target yet', async () => {
    const { deps, records } = await setUp();
    expect(await completeSurvey(deps, 'reviewed-lead-form', { name: 'Jane Review', companyname: 'Co', status: 1 })).toEqual({ _tag: 'Right', right: 'SurveyCompleted' });
    expect(await records('lead')).toEqual([]);
    const [answer] = await records(SURVEY_RECORD);
    expect(answer).toMatchObject({ status: SURVEY_ANSWERED, targetid: null });
    expect(JSON.parse(String(answer?.body))).toEqual({ name: 'Jane Review', companyname: 'Co', status: 1 });
  });

  it('answers under review are checked like any write: a value too long or of the wrong type is ERR_INPUT, nothing is kept', async () => {
    const { deps, records } = await setUp();
    const long = await completeSurvey(deps, 'reviewed-lead-form', { name: 'x'.repeat(201), status: 1 });
    expect(isLeft(long) && long.left).toMatchObject({ code: 'ERR_INPUT' });
    const typed = await completeSurvey(deps, 'reviewed-lead-form', { name: 'Typed', status: 'not a number' });
    expect(isLeft(typed) && typed.left).toMatchObject({ code: 'ERR_INPUT' });
    expect(await records(SURVEY_RECORD)).toEqual([]);
  });

  it('save to target creates the target record, links targetid and sets the status to Processed', async () => {
    const { deps, saveDeps, records } = await setUp();
    must(await completeSurvey(deps, 'reviewed-lead-form', { name: 'Jane Review', status: 1 }));
    const [answer] = await records(SURVEY_RECORD);
    const target = must(await saveSurveyToTarget(saveDeps, staff({ lead: full, [SURVEY_RECORD]: full, [SURVEY_TEMPLATE]: full }), { id: String(answer?.id) }));
    const [lead] = await records('lead');
    expect(lead).toMatchObject({ id: target, name: 'Jane Review', status: 1, ownerid: { id: STAFF } });
    expect((await records(SURVEY_RECORD))[0]).toMatchObject({ status: SURVEY_PROCESSED, targetid: target });
  });

  it('save to target with edited answers updates the linked target (no second record) and keeps the edited answers', async () => {
    const { deps, saveDeps, records } = await setUp();
    must(await completeSurvey(deps, 'reviewed-lead-form', { name: 'Jane Review', status: 1 }));
    const id = String((await records(SURVEY_RECORD))[0]?.id);
    const caller = staff({ lead: full, [SURVEY_RECORD]: full, [SURVEY_TEMPLATE]: full });
    const first = must(await saveSurveyToTarget(saveDeps, caller, { id }));
    const second = must(await saveSurveyToTarget(saveDeps, caller, { id, answers: { name: 'Jane Edited', companyname: 'Edited Co', status: 1 } }));
    expect(second).toBe(first);
    expect(await records('lead')).toEqual([expect.objectContaining({ id: first, name: 'Jane Edited', companyname: 'Edited Co' })]);
    expect(JSON.parse(String((await records(SURVEY_RECORD))[0]?.body))).toMatchObject({ name: 'Jane Edited' });
  });

  it("save to target checks the answers like the public page: a required field left empty, a field the survey does not ask", async () => {
    const { deps, saveDeps, records } = await setUp();
    must(await completeSurvey(deps, 'reviewed-lead-form', { name: 'Jane Review', status: 1 }));
    const id = String((await records(SURVEY_RECORD))[0]?.id);
    const caller = staff({ lead: full, [SURVEY_RECORD]: full, [SURVEY_TEMPLATE]: full });
    const empty = await saveSurveyToTarget(saveDeps, caller, { id, answers: { companyname: 'Co' } });
    expect(isLeft(empty) && empty.left.message).toMatch(/^Please provide a value for\n- /);
    const stray = await saveSurveyToTarget(saveDeps, caller, { id, answers: { name: 'x', ownerid: null } });
    expect(isLeft(stray) && stray.left.message).toBe('Field not found:lead.ownerid');
    expect(await records('lead')).toEqual([]);
  });

  it('the caller needs the permissions of both writes: without create on the target nothing is written (one atomic batch)', async () => {
    const { deps, saveDeps, records } = await setUp();
    must(await completeSurvey(deps, 'reviewed-lead-form', { name: 'Jane Review', status: 1 }));
    const id = String((await records(SURVEY_RECORD))[0]?.id);
    const denied = await saveSurveyToTarget(saveDeps, staff({ lead: packMask({ create: 0, read: 3, update: 3, delete: 0 }), [SURVEY_RECORD]: full, [SURVEY_TEMPLATE]: full }), { id });
    expect(isLeft(denied) && denied.left.code).toBe('ERR_PERMISSION');
    const noRecordUpdate = await saveSurveyToTarget(saveDeps, staff({ lead: full, [SURVEY_RECORD]: packMask({ create: 0, read: 3, update: 0, delete: 0 }), [SURVEY_TEMPLATE]: full }), { id });
    expect(isLeft(noRecordUpdate) && noRecordUpdate.left.code).toBe('ERR_PERMISSION');
    expect(await records('lead')).toEqual([]);
    expect((await records(SURVEY_RECORD))[0]).toMatchObject({ status: SURVEY_ANSWERED });
  });

  it('a personal survey answered for review is not answered twice: SurveyCompleted', async () => {
    const { store, deps, records } = await setUp();
    const template = String((await records(SURVEY_TEMPLATE))[0]?.id);
    const personal = must(await store.create(systemCaller(), SURVEY_RECORD, { name: 'For Jane', templateid: { id: template, name: SURVEY_TEMPLATE }, status: 1 }));
    must(await completeSurvey(deps, personal, { name: 'Jane', status: 1 }));
    const again = await completeSurvey(deps, personal, { name: 'Jane', status: 1 });
    expect(isLeft(again) && again.left).toEqual({ _tag: 'SurveyRefusal', outcome: 'SurveyCompleted' });
  });
});
