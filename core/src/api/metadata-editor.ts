import * as t from 'io-ts';
import { Entity } from '../metadata/entity.js';

/**
 * POST /api/metadata/plan and /api/metadata/apply (issue 15, docs/schema.md "Metadata editor"):
 * a proposed change of the organization's entities, its migration plan, and its apply.
 */

/** At most `max` items of `item`: a change is an administrator's edit, not a bulk load. */
const upTo = <C extends t.Mixed>(item: C, max: number, name: string) => {
  const list = t.array(item);
  return new t.Type<Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown>(
    `${name} (at most ${max})`,
    (u): u is Array<t.TypeOf<C>> => list.is(u) && u.length <= max,
    (u, c) => (Array.isArray(u) && u.length > max ? t.failure(u, c, `at most ${max} items`) : list.validate(u, c)),
    (a) => list.encode(a),
  );
};

/** A name of an entity or a step line: short text. */
const Name = new t.Type<string, string, unknown>(
  'text(≤200)',
  (u): u is string => typeof u === 'string' && u.length <= 200,
  (u, c) => (typeof u === 'string' && u.length <= 200 ? t.success(u) : t.failure(u, c)),
  (a) => a,
);

/** Entities of a change; each complete (its system fields may be left out), a property list of at most 1000. */
const ChangedEntity = new t.Type<Entity, t.OutputOf<typeof Entity>, unknown>(
  'Entity',
  (u): u is Entity => Entity.is(u) && u.properties.length <= 1000,
  (u, c) => {
    const p = (u as { properties?: unknown } | null)?.properties;
    if (Array.isArray(p) && p.length > 1000) return t.failure(u, c, 'at most 1000 properties');
    return Entity.validate(u, c);
  },
  (a) => Entity.encode(a),
);

export const MetadataChangeBody = t.exact(
  t.partial({
    /** new entities */
    create: upTo(ChangedEntity, 200, 'entities'),
    /** changed entities, each complete as it should be */
    update: upTo(ChangedEntity, 1000, 'entities'),
    /** names of entities to drop with their tables */
    remove: upTo(Name, 1000, 'names'),
  }),
  'metadata change',
);
export type MetadataChangeBody = t.TypeOf<typeof MetadataChangeBody>;

export const MetadataApplyBody = t.exact(
  t.intersection([
    t.type({
      /** the applied version the reviewed plan started from */
      version: t.number,
    }),
    t.partial({
      create: upTo(ChangedEntity, 200, 'entities'),
      update: upTo(ChangedEntity, 1000, 'entities'),
      remove: upTo(Name, 1000, 'names'),
      /** the line of each step that can lose data, as the plan's `destructive[].step` gives it */
      confirm: upTo(Name, 10_000, 'steps'),
    }),
  ]),
  'metadata apply',
);
export type MetadataApplyBody = t.TypeOf<typeof MetadataApplyBody>;

const DestructiveStepAnswer = t.intersection([
  t.type({ step: t.string, kind: t.string, table: t.string, rows: t.number, description: t.string }),
  t.partial({ column: t.string }),
]);

export const MetadataPlanAnswer = t.type(
  {
    version: t.number,
    dialect: t.string,
    steps: t.array(t.type({ description: t.string, dataLoss: t.boolean })),
    ddl: t.string,
    destructive: t.array(DestructiveStepAnswer),
  },
  'metadata plan',
);
export type MetadataPlanAnswer = t.TypeOf<typeof MetadataPlanAnswer>;

export const MetadataAppliedAnswer = t.type({ version: t.number, steps: t.number }, 'metadata applied');
export type MetadataAppliedAnswer = t.TypeOf<typeof MetadataAppliedAnswer>;
