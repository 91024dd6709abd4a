import { hasFlag, type EntityRecord, type FieldValue, type Property, type RichOption } from '../metadata/entity.js';
import { referencedId } from '../permissions/access.js';

const asText = (v: FieldValue | undefined): string | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'object') return referencedId(v);
  return String(v);
};

/**
 * Spec 001 section 5: dependent options are filtered by the value of their depfield. An
 * option without depfield is always offered; one with a depfield only when that field of the
 * record holds its depvalue (option values and lookup ids compared as text), so nothing
 * dependent is offered until the field it depends on has a value.
 */
export const dependentOptions = (options: readonly RichOption[], record: EntityRecord): RichOption[] =>
  options.filter((o) => !o.depfield || (o.depvalue !== undefined && asText(record[o.depfield]) === o.depvalue));

/** Spec 001 section 9: option sets of at most this many options show as radio-like choices. */
export const RADIO_MAX_OPTIONS = 5;

/**
 * How an option set is edited: radio-like choices for 5 or fewer options unless the field is
 * multi-line (spec 001 section 9), or always when the field carries the Radio flag; else a
 * dropdown.
 */
export const optionPresentation = (property: Property): 'radio' | 'dropdown' => {
  if (hasFlag(property, 'Radio')) return 'radio';
  const count = (property.richOptions ?? property.options ?? []).length;
  return count <= RADIO_MAX_OPTIONS && !hasFlag(property, 'MultiLine') ? 'radio' : 'dropdown';
};
