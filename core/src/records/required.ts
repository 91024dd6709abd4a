import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { requiredFieldsMessage } from '../i18n/index.js';
import { hasFlag, type EntityRecord, type Property } from '../metadata/entity.js';
import { isEmptyValue } from './values.js';

/** What the form says about one field: its label, whether it is required or hidden there. */
export type FormFieldRequirement = { name: string; label?: string; required?: boolean; hidden?: boolean };

/**
 * Required fields left empty (spec 001 section 5): the message key MsgRequiredFieldEmpty and
 * the labels, for the UI to translate, plus the English text ('Please provide a value for',
 * then each label on its own line with a dash).
 */
export type RequiredFieldsMissing = {
  _tag: 'RequiredFieldsMissing';
  key: 'MsgRequiredFieldEmpty';
  fields: string[];
  labels: string[];
  message: string;
};

/**
 * Spec 001 section 5: a field is required when it has the Required flag or the form's
 * override says so, and it is not hidden; empty string, undefined and null count as empty.
 * Fields are listed in the entity's order; the form's label replaces the display name.
 */
export const checkRequired = (
  properties: readonly Property[],
  record: EntityRecord,
  form: readonly FormFieldRequirement[] = [],
): Either<RequiredFieldsMissing, EntityRecord> => {
  const byName = new Map(form.map((f) => [f.name, f]));
  const missing = properties.filter((p) => {
    const onForm = byName.get(p.logicalName);
    const required = onForm?.required ?? hasFlag(p, 'Required');
    return required && onForm?.hidden !== true && isEmptyValue(record[p.logicalName]);
  });
  if (missing.length === 0) return right(record);
  const labels = missing.map((p) => byName.get(p.logicalName)?.label || p.displayName || p.logicalName);
  return left({
    _tag: 'RequiredFieldsMissing',
    key: 'MsgRequiredFieldEmpty',
    fields: missing.map((p) => p.logicalName),
    labels,
    message: requiredFieldsMessage('en', labels),
  });
};
