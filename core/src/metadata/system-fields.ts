import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { SYSTEM_USER_ENTITY } from '../permissions/access.js';
import { isLinkEntity, primaryKeyOf, type Entity, type Property, type PropertyFlag } from './entity.js';

/**
 * The system fields of spec 000 section 3. Every non-link entity gets id, name (String, max 200),
 * createdon, createdby (lookup to systemuser), modifiedon, modifiedby, statuscode (option 1 or 2),
 * statecode (option 0 or 1) and versionnumber. A link entity (`type: 'many'`) gets versionnumber
 * and, as the project's decision, its primary key (Guid, `primaryKeyName` or id): link rows are
 * written and deleted one by one (many-to-many edits, executemultiple), so they need an identity.
 *
 * Declaring a system field again in a pack is allowed and merged (so that `tessera schema export`
 * output loads back unchanged): the system definition keeps its type, targets and max; the
 * declaration may only refine presentation (displayName, formatString, extra flags such as
 * Required, and the labels, colours and icons of the existing option values). A different type,
 * targets or max, or an option value the system field does not have, is an error.
 */
export const NAME_MAX_LENGTH = 200;
/** The lookup target of createdby and modifiedby (one constant with the permission rules). */
export { SYSTEM_USER_ENTITY };

export const STATUS_ACTIVE = 1;
export const STATUS_INACTIVE = 2;
export const STATE_ACTIVE = 0;
export const STATE_INACTIVE = 1;

const keyField = (name: string): Property => ({ logicalName: name, displayName: 'Id', type: 'Guid' });
const userLookup = (logicalName: string, displayName: string): Property => ({
  logicalName,
  displayName,
  type: 'Lookup',
  targets: [SYSTEM_USER_ENTITY],
});
const versionNumber: Property = { logicalName: 'versionnumber', displayName: 'Version Number', type: 'VersionNumber' };

/** The system fields that come before the declared ones (key, name) and after them (audit, status, version). */
export const systemFieldsOf = (
  e: Pick<Entity, 'type' | 'primaryKeyName'>,
): { leading: Property[]; trailing: Property[] } =>
  isLinkEntity(e as Entity)
    ? { leading: [keyField(primaryKeyOf(e as Entity))], trailing: [versionNumber] }
    : {
        leading: [
          keyField(primaryKeyOf(e as Entity)),
          { logicalName: 'name', displayName: 'Name', type: 'String', max: NAME_MAX_LENGTH },
        ],
        trailing: [
          { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
          userLookup('createdby', 'Created By'),
          { logicalName: 'modifiedon', displayName: 'Modified On', type: 'DateTime' },
          userLookup('modifiedby', 'Modified By'),
          {
            logicalName: 'statuscode',
            displayName: 'Status Reason',
            type: 'Integer',
            flags: ['OptionSet'],
            defaultValue: STATUS_ACTIVE,
            richOptions: [
              { value: STATUS_ACTIVE, label: 'Active', color: '#2e7d32' },
              { value: STATUS_INACTIVE, label: 'Inactive', color: '#757575' },
            ],
          },
          {
            logicalName: 'statecode',
            displayName: 'Status',
            type: 'Integer',
            flags: ['OptionSet'],
            defaultValue: STATE_ACTIVE,
            richOptions: [
              { value: STATE_ACTIVE, label: 'Active', color: '#2e7d32' },
              { value: STATE_INACTIVE, label: 'Inactive', color: '#757575' },
            ],
          },
          versionNumber,
        ],
      };

/** Every system field of an entity, in order. */
export const systemFields = (e: Pick<Entity, 'type' | 'primaryKeyName'>): Property[] => {
  const { leading, trailing } = systemFieldsOf(e);
  return [...leading, ...trailing];
};

export const isSystemField = (e: Pick<Entity, 'type' | 'primaryKeyName'>, field: string): boolean =>
  systemFields(e).some((p) => p.logicalName === field);

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());

/** Merges a redeclared system field into the system definition, or says why it cannot be. */
const mergeSystemField = (entity: string, sys: Property, declared: Property): Either<InputError, Property> => {
  const where = `${entity}.${sys.logicalName}`;
  if (declared.type !== sys.type)
    return left(inputError(`System field ${where} is ${sys.type} and cannot be declared as ${declared.type}`));
  if (declared.targets !== undefined && !sameList(declared.targets, sys.targets))
    return left(
      inputError(
        `System field ${where} targets ${(sys.targets ?? []).join(',')} and cannot target ${declared.targets.join(',')}`,
      ),
    );
  if (declared.max !== undefined && declared.max !== sys.max)
    return left(
      inputError(`System field ${where} has max ${sys.max ?? 'none'} and cannot be declared with max ${declared.max}`),
    );
  const values = new Set((sys.richOptions ?? []).map((o) => o.value));
  const extra = (declared.richOptions ?? []).find((o) => !values.has(o.value));
  if (extra) return left(inputError(`System field ${where} has no option value ${extra.value}`));
  const flags = [...new Set<PropertyFlag>([...(sys.flags ?? []), ...(declared.flags ?? [])])];
  const merged: Property = { ...sys, displayName: declared.displayName };
  if (flags.length > 0) merged.flags = flags;
  if (declared.formatString !== undefined) merged.formatString = declared.formatString;
  if (declared.richOptions !== undefined && sys.richOptions !== undefined)
    merged.richOptions = sys.richOptions.map((o) => declared.richOptions?.find((d) => d.value === o.value) ?? o);
  return right(merged);
};

/**
 * The entity with its system fields: key and name first, the declared fields, then the audit,
 * status and version fields. Idempotent: applying it to its own result changes nothing.
 */
export const withSystemFields = (e: Entity): Either<InputError, Entity> => {
  const { leading, trailing } = systemFieldsOf(e);
  const declared = new Map(e.properties.map((p) => [p.logicalName, p]));
  const merged: Property[] = [];
  for (const sys of [...leading, ...trailing]) {
    const d = declared.get(sys.logicalName);
    if (d === undefined) {
      merged.push(sys);
      continue;
    }
    const m = mergeSystemField(e.logicalName, sys, d);
    if (m._tag === 'Left') return m;
    merged.push(m.right);
  }
  const systemNames = new Set(merged.map((p) => p.logicalName));
  const own = e.properties.filter((p) => !systemNames.has(p.logicalName));
  return right({
    ...e,
    properties: [...merged.slice(0, leading.length), ...own, ...merged.slice(leading.length)],
  });
};
