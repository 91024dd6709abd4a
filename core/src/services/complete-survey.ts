import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { Guid } from '../api/guid.js';
import { fieldNotFound, inputError, noObject, type DomainError } from '../errors.js';
import type { Entity, EntityRecord, LookupValue } from '../metadata/entity.js';
import type { Clock } from '../ports/clock.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import { checkRequired, type FormFieldRequirement } from '../records/required.js';
import { storedFields } from '../store/record-rules.js';
import { SURVEY_KEY, surveyExpired } from '../surveys/survey-design.js';

export const SURVEY_TEMPLATE = 'inu_survey_template';
export const SURVEY_RECORD = 'inu_survey_record';
/** inu_survey_record.status once the answers were written to the target (spec 002 section 3: Processed; the system pack's option 2, option 1 is New). */
export const SURVEY_PROCESSED = 2;
/** inu_survey_record.status of answers waiting for review (a template with `meta.review`): staff save them to the target. */
export const SURVEY_ANSWERED = 3;

/** The outcomes the survey page shows (spec 000 section 8). */
export const SurveyOutcome = { completed: 'SurveyCompleted', expired: 'SurveyExpired', invalid: 'SurveyLinkInvalid' } as const;
/** Why a survey link does not open: invalid (no such survey), expired, or answered already (completed). */
export type SurveyRefusal = { _tag: 'SurveyRefusal'; outcome: (typeof SurveyOutcome)[keyof typeof SurveyOutcome] };

const KEY = SURVEY_KEY;

/** What the survey page shows (GET /api/survey/{org}/{key}). */
export type SurveyPage = {
  title: unknown;
  submit_button: unknown;
  css_style: unknown;
  object_name: unknown;
  meta: unknown;
  panel: unknown;
  answers: unknown;
};

export type SurveyDeps = { store: RecordStore; clock: Clock };

type OpenSurvey = { template: EntityRecord; record: EntityRecord | null };

const refusal = (outcome: SurveyRefusal['outcome']): SurveyRefusal => ({ _tag: 'SurveyRefusal', outcome });

export const surveyJson = (text: unknown): unknown => {
  if (typeof text !== 'string' || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The fields a survey asks for: `meta.properties`, as names or `{ name | logicalName, required }`. */
export const surveyFields = (meta: unknown): FormFieldRequirement[] => {
  const props = meta && typeof meta === 'object' ? (meta as { properties?: unknown }).properties : undefined;
  if (!Array.isArray(props)) return [];
  return props.flatMap((p): FormFieldRequirement[] => {
    if (typeof p === 'string') return [{ name: p }];
    if (p && typeof p === 'object') {
      const o = p as { name?: unknown; logicalName?: unknown; required?: unknown };
      const name = typeof o.logicalName === 'string' ? o.logicalName : typeof o.name === 'string' ? o.name : null;
      if (!name) return [];
      const required = o.required === true || o.required === 'Required' ? true : o.required === false || o.required === 'Normal' ? false : undefined;
      return [{ name, ...(required === undefined ? {} : { required }) }];
    }
    return [];
  });
};

const one = async (store: RecordStore, entity: string, attribute: string, value: string): Promise<EntityRecord | null> => {
  const found = await store.retrieveMultiple(systemCaller(), {
    entity: { name: entity, allattrs: true, filter: { conditions: [{ attribute, operator: 'eq', value }] } },
    pageSize: 1,
  });
  return isLeft(found) ? null : ((found.right.records[0] as EntityRecord | undefined) ?? null);
};

/**
 * The survey of a key, while it may be answered: a personal survey answered once is completed,
 * a template past its `expireson` (by the Clock) is expired.
 */
const findOpenSurvey = async (deps: SurveyDeps, key: string): Promise<Either<SurveyRefusal, OpenSurvey>> => {
  if (!KEY.test(key)) return left(refusal(SurveyOutcome.invalid));
  let survey: OpenSurvey | null = null;
  const template = await one(deps.store, SURVEY_TEMPLATE, 'key', key);
  if (template) survey = { template, record: null };
  else if (Guid.is(key)) {
    const record = await one(deps.store, SURVEY_RECORD, 'id', key);
    const templateId = record ? ((record.templateid as LookupValue | null)?.id ?? null) : null;
    const linked = templateId ? await one(deps.store, SURVEY_TEMPLATE, 'id', templateId) : null;
    if (record && linked) survey = { template: linked, record };
  }
  if (!survey) return left(refusal(SurveyOutcome.invalid));
  const status = survey.record ? Number(survey.record.status) : null;
  if (status === SURVEY_PROCESSED || status === SURVEY_ANSWERED) return left(refusal(SurveyOutcome.completed));
  if (surveyExpired(survey.template.expireson, deps.clock.now())) return left(refusal(SurveyOutcome.expired));
  return right(survey);
};

/** GET /api/survey/{org}/{key}: the page of an open survey (public, no session). */
export const openSurvey = async (deps: SurveyDeps, key: string): Promise<Either<SurveyRefusal, SurveyPage>> => {
  const found = await findOpenSurvey(deps, key);
  if (isLeft(found)) return found;
  const { template: t, record } = found.right;
  return right({
    title: t.title ?? t.name ?? '',
    submit_button: t.submit_button ?? null,
    css_style: t.css_style ?? null,
    object_name: t.object_name ?? null,
    meta: surveyJson(t.meta),
    panel: surveyJson(t.panel),
    answers: record ? surveyJson(record.body) : null,
  });
};

/**
 * The answers of a survey checked like any write of its entity: only the fields its meta lists
 * (others: 'Field not found'), the required ones given (checkRequired: the survey's `required`,
 * else the property's Required flag), and every value as the store's write rules read it
 * (types, lengths, options). Used by the public page and by 'save to target'.
 */
export const checkSurveyAnswers = (
  entities: readonly Entity[],
  template: EntityRecord,
  answers: EntityRecord,
): Either<DomainError, { entity: Entity; answers: EntityRecord }> => {
  const entityName = String(template.object_name ?? '');
  const fields = surveyFields(surveyJson(template.meta));
  const allowed = new Set(fields.map((f) => f.name));
  const stray = Object.keys(answers).filter((k) => !allowed.has(k));
  if (!entityName || stray.length > 0) return left(fieldNotFound(entityName, stray[0] ?? ''));
  const entity = entities.find((e) => e.logicalName === entityName);
  if (!entity) return left(noObject(entityName));
  const asked = entity.properties.filter((p) => allowed.has(p.logicalName));
  const complete = checkRequired(asked, answers, fields);
  if (isLeft(complete)) return left(inputError(complete.left.message));
  const stored = storedFields(entity, answers, systemCaller());
  if (isLeft(stored)) return stored;
  return right({ entity, answers });
};

/** Whether a template keeps its answers for review (`meta.review`) rather than writing the target at once. */
export const surveyUnderReview = (template: EntityRecord): boolean => {
  const meta = surveyJson(template.meta);
  return !!meta && typeof meta === 'object' && (meta as { review?: unknown }).review === true;
};

/**
 * POST /api/survey/{org}/{key}: the answers are checked like any write (checkSurveyAnswers).
 * A survey under review keeps them in its inu_survey_record (status Answered) for staff to save
 * to the target; otherwise the target record is written, then the survey record is marked
 * Processed. Written as the system: the public has no caller.
 */
export const completeSurvey = async (
  deps: SurveyDeps & { entities: readonly Entity[] },
  key: string,
  answers: EntityRecord,
): Promise<Either<SurveyRefusal | DomainError, typeof SurveyOutcome.completed>> => {
  const found = await findOpenSurvey(deps, key);
  if (isLeft(found)) return found;
  const { template, record } = found.right;
  const checked = checkSurveyAnswers(deps.entities, template, answers);
  if (isLeft(checked)) return checked;
  const entityName = checked.right.entity.logicalName;
  const sys = systemCaller();
  const body = JSON.stringify(answers);
  const review = surveyUnderReview(template);
  let target: string | null = record && typeof record.targetid === 'string' && record.targetid ? record.targetid : null;
  if (!review) {
    const written = target ? await deps.store.update(sys, entityName, { id: target, ...answers }) : await deps.store.create(sys, entityName, answers);
    if (isLeft(written)) return written;
    target = written.right;
  }
  const status = review ? SURVEY_ANSWERED : SURVEY_PROCESSED;
  const linked = target ? { targetid: target } : {};
  const saved = record
    ? await deps.store.update(sys, SURVEY_RECORD, { id: String(record.id), ...linked, body, status })
    : await deps.store.create(sys, SURVEY_RECORD, {
        name: String(template.name ?? 'survey'),
        templateid: { id: String(template.id), name: SURVEY_TEMPLATE },
        ...linked,
        body,
        status,
      });
  if (isLeft(saved)) return saved;
  return right(SurveyOutcome.completed);
};
