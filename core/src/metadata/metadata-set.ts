import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { fieldNotFound, inputError, noObject, type InputError } from '../errors.js';
import { isLinkEntity, type Entity, type Property } from './entity.js';
import { isSystemField } from './system-fields.js';

/** A lookup of another entity that points at an entity: the rows of an associated list. */
export type AssociatedList = {
  /** the child entity listed */
  entity: string;
  /** its lookup field pointing at the parent */
  field: string;
};

/**
 * Lookups that do not make an associated list: the system audit lookups (createdby, modifiedby) and
 * the generic fields every record carries (ownerid, teamid, currencyid, spec 000 section 3). Otherwise
 * the systemuser, team and currency forms would get a tab for every entity there is. A link entity's
 * lookups always count (teammembership.teamid lists a team's members).
 */
export const GENERIC_LOOKUPS: readonly string[] = ['ownerid', 'teamid', 'currencyid'];

/** The entities of an organization (or a pack) by logical name, with the spec's error texts. */
export type MetadataSet = {
  readonly entities: readonly Entity[];
  /** 'No Object:{name}' when there is no such entity. */
  entity(name: string): Either<InputError, Entity>;
  /** 'No Object:{entity}' or 'Field not found:{entity}.{field}'. */
  property(entity: string, field: string): Either<InputError, Property>;
  has(name: string): boolean;
  /** Each entity with a lookup to `name`, in the order of the set (spec 001: tabs of associated lists). */
  associatedLists(name: string): AssociatedList[];
};

const buildSet = (entities: readonly Entity[]): MetadataSet => {
  const byName = new Map(entities.map((e) => [e.logicalName, e]));
  const fields = new Map(entities.map((e) => [e.logicalName, new Map(e.properties.map((p) => [p.logicalName, p]))]));
  const entity = (name: string): Either<InputError, Entity> => {
    const e = byName.get(name);
    return e ? right(e) : left(noObject(name));
  };
  return {
    entities,
    entity,
    has: (name) => byName.has(name),
    property: (name, field) => {
      const props = fields.get(name);
      if (!props) return left(noObject(name));
      const p = props.get(field);
      return p ? right(p) : left(fieldNotFound(name, field));
    },
    associatedLists: (name) =>
      entities.flatMap((e) =>
        e.properties
          .filter(
            (p) =>
              p.type === 'Lookup' &&
              (p.targets ?? []).includes(name) &&
              (isLinkEntity(e) || !GENERIC_LOOKUPS.includes(p.logicalName)) &&
              !isSystemField(e, p.logicalName),
          )
          .map((p) => ({ entity: e.logicalName, field: p.logicalName })),
      ),
  };
};

/** A metadata set; entity names must be unique, and so must property names within an entity. */
export const metadataSet = (entities: readonly Entity[]): Either<InputError, MetadataSet> => {
  const seen = new Set<string>();
  for (const e of entities) {
    if (seen.has(e.logicalName)) return left(inputError(`Entity ${e.logicalName} is defined twice`));
    seen.add(e.logicalName);
    const props = new Set<string>();
    for (const p of e.properties) {
      if (props.has(p.logicalName)) return left(inputError(`Field ${e.logicalName}.${p.logicalName} is defined twice`));
      props.add(p.logicalName);
    }
  }
  return right(buildSet(entities));
};

/** The entity metadata as the user context's metaDict: logical name to entity. */
export const metaDictOf = (set: Pick<MetadataSet, 'entities'>): Record<string, Entity> =>
  Object.fromEntries(set.entities.map((e) => [e.logicalName, e]));
