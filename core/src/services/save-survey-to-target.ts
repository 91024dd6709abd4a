import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, notFound, permissionDenied, versionConflict, type DomainError } from '../errors.js';
import type { Entity, EntityRecord, LookupValue } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { RecordStore } from '../ports/record-store.js';
import { checkSurveyAnswers, SURVEY_PROCESSED, SURVEY_RECORD, SURVEY_TEMPLATE, surveyJson } from './complete-survey.js';

export type SaveToTargetDeps = {
  store: Pick<RecordStore, 'retrieveById' | 'executeMultiple'>;
  entities: readonly Entity[];
  ids: IdGenerator;
};

/** A batch item's error text (`ERR_...: message`) as the error it names. */
const itemError = (text: string): DomainError => {
  const m = /^(ERR_[A-Z0-9_]+): ?([\s\S]*)$/.exec(text);
  const message = m ? (m[2] ?? '') : text;
  switch (m?.[1]) {
    case 'ERR_PERMISSION':
      return permissionDenied(message);
    case 'ERR_NOT_FOUND':
      return notFound(message);
    case 'ERR_8001':
      return versionConflict(message);
    default:
      return inputError(message);
  }
};

const asRecord = (v: unknown): EntityRecord | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as EntityRecord) : null);

/**
 * 'Save to target' of the survey response panel (spec 001 "Survey record", spec 002 section 3):
 * the answers (as edited in the panel, else the stored body) are checked like the public page
 * checks them, then, in one atomic batch as the caller, the target record is updated (targetid
 * set) or created (with a new id, linked as targetid), and the survey record gets the answers and
 * status Processed. Answers the target's id. The caller's permissions decide every read and write.
 */
export const saveSurveyToTarget = async (
  deps: SaveToTargetDeps,
  caller: Caller,
  request: { id: string; answers?: EntityRecord },
): Promise<Either<DomainError, string>> => {
  const record = await deps.store.retrieveById(caller, SURVEY_RECORD, request.id);
  if (isLeft(record)) return record;
  const templateId = (record.right.templateid as LookupValue | null | undefined)?.id;
  if (!templateId) return left(inputError('The survey record has no template'));
  const template = await deps.store.retrieveById(caller, SURVEY_TEMPLATE, templateId);
  if (isLeft(template)) return template;
  const answers = request.answers ?? asRecord(surveyJson(record.right.body)) ?? {};
  const checked = checkSurveyAnswers(deps.entities, template.right, answers);
  if (isLeft(checked)) return checked;
  const entityName = checked.right.entity.logicalName;
  const existing = typeof record.right.targetid === 'string' && record.right.targetid ? record.right.targetid : null;
  const target = existing ?? deps.ids.newId().toLowerCase();
  const results = await deps.store.executeMultiple(
    caller,
    [
      { operation: existing ? 'update' : 'create', name: entityName, object: { ...answers, id: target } },
      { operation: 'update', name: SURVEY_RECORD, object: { id: request.id, targetid: target, body: JSON.stringify(answers), status: SURVEY_PROCESSED } },
    ],
    { atomic: true },
  );
  if (isLeft(results)) return results;
  const failed = results.right.find((r): r is { error: string } => 'error' in r);
  return failed ? left(itemError(failed.error)) : right(target);
};
