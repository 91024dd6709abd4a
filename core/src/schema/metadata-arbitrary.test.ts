import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity, Property, PropertyType } from '../metadata/entity.js';
import { schemaOfMetadata } from './migrate.js';

/**
 * Generated metadata sets for the schema properties (imported by the SQL adapters' tests too).
 * Names come from small pools so that two sets share tables and columns and their diff has every
 * kind of step: tables and columns kept, added, dropped, retyped, resized, and keys renamed.
 */
// String is drawn more often so that two sets often disagree only on a string's length.
const TYPES: PropertyType[] = ['String', 'String', 'String', 'String', 'Integer', 'Decimal', 'Float', 'Money', 'DateTime', 'Guid', 'Lookup', 'Boolean', 'Binary'];
const ENTITY_NAMES = ['account', 'contact', 'lead', 'invoice', 'task'];
const LINK_NAMES = ['accountcontact', 'leadtask'];
const FIELD_NAMES = ['ownerid', 'teamid', 'title', 'amount', 'due', 'notes', 'parentid', 'score'];
const MAXES = [undefined, 10, 100, 850, 900, 5000];

const propertyArb = (logicalName: string): fc.Arbitrary<Property> =>
  fc.record({ type: fc.constantFrom(...TYPES), max: fc.constantFrom(...MAXES) }).map(({ type, max }) => ({
    logicalName,
    displayName: logicalName,
    type,
    ...(type === 'String' && max !== undefined ? { max } : {}),
    ...(type === 'Lookup' ? { targets: ['systemuser'] } : {}),
  }));

const propertiesArb = (names: readonly string[]): fc.Arbitrary<Property[]> =>
  fc.subarray([...names]).chain((picked) => (picked.length === 0 ? fc.constant([]) : fc.tuple(...picked.map(propertyArb))));

const keyArb = fc.constantFrom<string | undefined>(undefined, undefined, 'key');

const entityArb = (logicalName: string): fc.Arbitrary<Entity> =>
  fc.record({ properties: propertiesArb(FIELD_NAMES), key: keyArb }).map(({ properties, key }) => ({
    logicalName,
    displayName: logicalName,
    displayNamePlural: logicalName,
    properties,
    ...(key ? { primaryKeyName: key } : {}),
  }));

const lookup = (logicalName: string): Property => ({ logicalName, displayName: logicalName, type: 'Lookup', targets: ['systemuser'] });

/** A link entity: two lookups (whose names may change between sets) and maybe more fields. */
const linkArb = (logicalName: string): fc.Arbitrary<Entity> =>
  fc
    .record({ first: fc.constantFrom('aid', 'firstid'), properties: propertiesArb(['bid', 'note', 'weight']), key: keyArb })
    .map(({ first, properties, key }) => ({
      logicalName,
      displayName: logicalName,
      displayNamePlural: logicalName,
      type: 'many' as const,
      properties: [lookup(first), lookup('bid'), ...properties.filter((p) => p.logicalName !== 'bid')],
      ...(key ? { primaryKeyName: key } : {}),
    }));

/** A valid metadata set: some of the entities of the pools, each with some of the fields. */
export const metadataArb: fc.Arbitrary<Entity[]> = fc
  .tuple(fc.subarray(ENTITY_NAMES), fc.subarray(LINK_NAMES))
  .chain(([entities, links]) => fc.tuple(...entities.map(entityArb), ...links.map(linkArb)))
  .map((es) => es as Entity[]);

const resize = (p: Property, max: number | undefined): Property => {
  const { max: _old, targets: _targets, ...rest } = p;
  return { ...rest, type: 'String', ...(max === undefined ? {} : { max }) };
};

/** A property of the next version: mostly kept, else resized as a string, retyped or dropped. */
const nextProperty = (p: Property): fc.Arbitrary<Property[]> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant<Property[]>([p]) },
    { weight: 2, arbitrary: fc.constantFrom(...MAXES).map((max) => [resize(p, max)]) },
    { weight: 1, arbitrary: propertyArb(p.logicalName).map((q) => [q]) },
    { weight: 1, arbitrary: fc.constant<Property[]>([]) },
  );

/** The next version of an entity: its fields changed one by one (a link entity keeps its two lookups). */
const nextEntity = (e: Entity): fc.Arbitrary<Entity[]> => {
  const fixed = e.type === 'many' ? e.properties.slice(0, 2) : [];
  const rest = e.properties.slice(fixed.length);
  const changed = rest.length === 0 ? fc.constant([] as Property[][]) : fc.tuple(...rest.map(nextProperty));
  return fc.oneof(
    { weight: 5, arbitrary: changed.map((ps): Entity[] => [{ ...e, properties: [...fixed, ...ps.flat()] }]) },
    { weight: 1, arbitrary: fc.constant<Entity[]>([]) },
  );
};

/**
 * Two versions of an organization's metadata: either unrelated sets, or the second made from the
 * first by an administrator's edits (fields resized, retyped, dropped; entities dropped or added).
 */
export const metadataPairArb: fc.Arbitrary<[Entity[], Entity[]]> = fc.oneof(
  fc.tuple(metadataArb, metadataArb),
  metadataArb.chain((a) =>
    fc
      .tuple(a.length === 0 ? fc.constant([] as Entity[][]) : fc.tuple(...a.map(nextEntity)), metadataArb)
      .map(([next, extra]): [Entity[], Entity[]] => {
        const kept = next.flat();
        const names = new Set(kept.map((e) => e.logicalName));
        return [a, [...kept, ...extra.filter((e) => !names.has(e.logicalName))]];
      }),
  ),
);

describe('generated metadata for the schema properties', () => {
  it('every generated metadata set, and each edit of one, gives a valid schema', () => {
    fc.assert(fc.property(metadataArb, (m) => {
        expect(schemaOfMetadata(m)._tag).toBe('Right');
      }));
  });
});
