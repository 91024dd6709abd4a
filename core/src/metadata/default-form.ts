import { map, type Either } from 'fp-ts/lib/Either.js';
import type { InputError } from '../errors.js';
import { primaryKeyOf, type Entity } from './entity.js';
import type { Command, Form, FormField, Panel } from './form.js';
import type { AssociatedList, MetadataSet } from './metadata-set.js';

/** The name of the generated form. */
export const DEFAULT_FORM_NAME = 'default';
/** Fields the server writes: shown, never edited. */
export const READ_ONLY_SYSTEM_FIELDS: readonly string[] = ['createdon', 'createdby', 'modifiedon', 'modifiedby'];
/** The standard commands of a generated form. */
export const DEFAULT_FORM_COMMANDS: readonly Command[] = [
  { kind: 'std', name: 'save' },
  { kind: 'std', name: 'clone' },
  { kind: 'std', name: 'delete' },
];

/**
 * The default generated form (spec 001 section 2): all fields except id and versionnumber,
 * then a tab per associated list. Secret fields (password hashes) are never on a form, since
 * they are never sent to clients.
 */
export const defaultFormOf = (entity: Entity, lists: ReadonlyArray<AssociatedList & { label: string }>): Form => {
  const excluded = new Set([primaryKeyOf(entity), 'versionnumber']);
  const fields: FormField[] = entity.properties
    .filter((p) => !excluded.has(p.logicalName) && p.secret !== true)
    .map((p) =>
      READ_ONLY_SYSTEM_FIELDS.includes(p.logicalName)
        ? { name: p.logicalName, disabled: true }
        : { name: p.logicalName },
    );
  const panels: Panel[] = [{ name: 'fields', type: 'Fields', label: entity.displayName, fields }];
  if (lists.length > 0)
    panels.push({
      name: 'associated',
      type: 'Tabs',
      mode: 'Normal',
      panels: lists.map((l) => ({
        name: `${l.entity}.${l.field}`,
        type: 'AssociatedList',
        label: l.label,
        field: `${l.entity}.${l.field}`,
      })),
    });
  return { name: DEFAULT_FORM_NAME, label: entity.displayName, panels, commands: [...DEFAULT_FORM_COMMANDS] };
};

/** The default form of an entity of the set; a child with two lookups here gets the field's name in its tab label. */
export const defaultForm = (set: MetadataSet, name: string): Either<InputError, Form> =>
  map((entity: Entity) => {
    const lists = set.associatedLists(name);
    const labelled = lists.map((l) => {
      const child = set.entities.find((e) => e.logicalName === l.entity);
      const plural = child?.displayNamePlural ?? l.entity;
      const twice = lists.filter((o) => o.entity === l.entity).length > 1;
      const field = child?.properties.find((p) => p.logicalName === l.field)?.displayName ?? l.field;
      return { ...l, label: twice ? `${plural} (${field})` : plural };
    });
    return defaultFormOf(entity, labelled);
  })(set.entity(name));
