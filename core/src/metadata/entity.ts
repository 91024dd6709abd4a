import * as t from 'io-ts';

/** The property types of spec 000 section 3. */
export const PropertyType = t.keyof(
  {
    String: null,
    Integer: null,
    Decimal: null,
    Float: null,
    Money: null,
    DateTime: null,
    Guid: null,
    Lookup: null,
    Boolean: null,
    Binary: null,
    VersionNumber: null,
  },
  'PropertyType',
);
export type PropertyType = t.TypeOf<typeof PropertyType>;

/** All nineteen property flags of spec 000 section 3. */
export const PROPERTY_FLAGS = [
  'None',
  'MultiLine',
  'DateOnly',
  'UTC',
  'Required',
  'Nullable',
  'OptionSet',
  'MultiSelect',
  'WriteIn',
  'Json',
  'Url',
  'Email',
  'Phone',
  'Image',
  'File',
  'Duration',
  'AutoNumber',
  'Age',
  'Radio',
] as const;
export const PropertyFlag = t.keyof(
  Object.fromEntries(PROPERTY_FLAGS.map((f) => [f, null])) as Record<(typeof PROPERTY_FLAGS)[number], null>,
  'PropertyFlag',
);
export type PropertyFlag = t.TypeOf<typeof PropertyFlag>;

/** A rich option (spec 000 section 3): edited as the line VALUE;LABEL;COLOR;ICON;DEPENDENT_FIELD;DEPENDENT_FIELD_VALUE. */
export const RichOption = t.intersection(
  [
    t.type({ value: t.number, label: t.string }),
    t.partial({ color: t.string, icon: t.string, depfield: t.string, depvalue: t.string }),
  ],
  'RichOption',
);
export type RichOption = t.TypeOf<typeof RichOption>;

/** A plain option of an option set: its integer value and label. */
export const OptionValue = t.type({ value: t.number, label: t.string }, 'OptionValue');
export type OptionValue = t.TypeOf<typeof OptionValue>;

/** For a lookup, an option pairs an attribute of the target entity with a field of this record (spec 001 section 3). */
export const LookupOptionPair = t.type({ targetAttribute: t.string, recordField: t.string }, 'LookupOptionPair');
export type LookupOptionPair = t.TypeOf<typeof LookupOptionPair>;

export const Property = t.intersection(
  [
    t.type({ logicalName: t.string, displayName: t.string, type: PropertyType }),
    t.partial({
      flags: t.array(PropertyFlag),
      max: t.number,
      options: t.union([t.array(OptionValue), t.array(LookupOptionPair)]),
      richOptions: t.array(RichOption),
      targets: t.array(t.string),
      precision: t.number,
      defaultValue: t.union([t.string, t.number, t.boolean, t.null]),
      formatString: t.string,
      /** Never sent to clients (password hashes, tokens). */
      secret: t.boolean,
    }),
  ],
  'Property',
);
export type Property = t.TypeOf<typeof Property>;

/** `many` marks a link table between two lookups. */
export const EntityType = t.keyof({ normal: null, many: null }, 'EntityType');
export type EntityType = t.TypeOf<typeof EntityType>;

export const Entity = t.intersection(
  [
    t.type({
      logicalName: t.string,
      displayName: t.string,
      displayNamePlural: t.string,
      properties: t.array(Property),
    }),
    t.partial({
      type: EntityType,
      primaryKeyName: t.string,
      /** false: the store writes no audit rows for this entity (docs/metadata.md "Audit"); default on */
      audit: t.boolean,
      /** true: rows are only inserted, never updated (the audit entity): its table keeps fewer indexes (docs/metadata.md "Audit") */
      appendOnly: t.boolean,
      /**
       * More indexes of its table, each a list of columns: the ones its views read by (a calendar's
       * end and start fields), added from the pack's views (core/src/schema/view-indexes.ts)
       */
      indexes: t.array(t.array(t.string)),
      /**
       * Text columns searched with 'contains' (the list's search box searches name): a full-text
       * index keeps them (SQLite FTS5 trigram; docs/schema.md "Contains search"); added from the
       * pack's list views like `indexes`
       */
      fullText: t.array(t.string),
    }),
  ],
  'Entity',
);
export type Entity = t.TypeOf<typeof Entity>;

/** A lookup value as read: `{ id, name: target entity, label: its primary name }`. */
export const LookupValue = t.intersection(
  [t.type({ id: t.string, name: t.string }), t.partial({ label: t.union([t.string, t.null]) })],
  'LookupValue',
);
export type LookupValue = t.TypeOf<typeof LookupValue>;

/** A field value of a record on the wire (API.md "Records on the wire"). */
export type FieldValue = string | number | boolean | null | LookupValue;
/** A record: id, versionnumber and the entity's fields. */
export type EntityRecord = { [field: string]: FieldValue | undefined };

export const hasFlag = (p: Property, flag: PropertyFlag): boolean => (p.flags ?? []).includes(flag);
export const isLinkEntity = (e: Entity): boolean => e.type === 'many';
export const primaryKeyOf = (e: Entity): string => e.primaryKeyName ?? 'id';
