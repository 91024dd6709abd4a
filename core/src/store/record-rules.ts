import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { fieldNotFound, inputError, type InputError } from '../errors.js';
import { primaryKeyOf, type Entity, type EntityRecord, type FieldValue, type Property } from '../metadata/entity.js';
import { FIELD_TYPES, isRefusal, TOO_LONG, type FieldTypeRules, type Refusal } from '../metadata/field-types.js';
import { isGuid } from '../metadata/field-values.js';
import { composeField, fieldTemplateOf, templateFields } from '../metadata/field-template.js';
import { SYSTEM_USER_ENTITY } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { isSystemCaller } from '../ports/record-store.js';
import { nestsDeeperThan } from '../nesting-depth.js';

/**
 * Store-level rules of a write (API.md "POST /api/update", issue 5), shared by every store:
 * values coerced to their stored form, system fields set by the server, only changed fields kept.
 *
 * Stored form: ids in lower case; a lookup as `{ id, name }` (the label is read, never stored);
 * DateTime as ISO 8601 UTC with milliseconds (DateOnly `YYYY-MM-DD`), so that text order is time order;
 * booleans; numbers; versionnumber a counter (on the wire its decimal string).
 */
export type StoredValue = string | number | boolean | null | { id: string; name: string };
export type StoredRecord = Record<string, StoredValue>;

/**
 * A time as ISO 8601 UTC text. The last one is remembered: the records of a bulk write are
 * stamped many to a millisecond, and the text is the same for each.
 */
let lastStamp = { ms: Number.NaN, text: '' };
export const isoStamp = (d: Date): string => {
  const ms = d.getTime();
  if (ms !== lastStamp.ms) lastStamp = { ms, text: d.toISOString() };
  return lastStamp.text;
};

/** Fields only the server writes: a client's values for them are ignored. */
export const SERVER_FIELDS = ['createdon', 'createdby', 'modifiedon', 'modifiedby', 'versionnumber'] as const;

/** A UUID in its dashed form, any case (ids on the wire). */
export { isGuid };

type Decode = FieldTypeRules['decode'];

/**
 * The start of a refused value for its message. A value nested deep is not given to the recursive
 * JSON.stringify (issue 22 item 5: a body 5,000 deep overflowed the stack here and answered 500).
 */
const preview = (v: unknown): string | undefined => (nestsDeeperThan(v, 4) ? '(nested too deep)' : JSON.stringify(v)?.slice(0, 60));

/** The ERR_INPUT text of a refused value (API.md "POST /api/update"). */
const refusedText = (e: Entity, p: Property, v: unknown, why: Refusal): InputError =>
  why === TOO_LONG
    ? inputError(`Value too long for ${e.logicalName}.${p.logicalName}: at most ${p.max} characters`)
    : inputError(`Invalid value for ${e.logicalName}.${p.logicalName}: ${preview(v)}`);

/**
 * One field value of a request in its stored form, or why it is refused; an empty value is null.
 * What each type accepts is its `decode` in the field-type registry (metadata/field-types.ts);
 * bulk writes pass the decoder resolved once per record shape.
 */
const storedForm = (p: Property, v: FieldValue | undefined, decode: Decode = FIELD_TYPES[p.type].decode): StoredValue | Refusal =>
  v === undefined || v === null || v === '' ? null : decode(p, v);

/** One field value of a request in its stored form; an empty value is null. */
export const storedValue = (e: Entity, p: Property, v: FieldValue | undefined): Either<InputError, StoredValue> => {
  const s = storedForm(p, v);
  return isRefusal(s) ? left(refusedText(e, p, v, s)) : right(s);
};

/**
 * What the rules of a write need from an entity, worked out once per entity rather than once
 * per written record (an import writes 100k records of one entity): properties by name, the
 * defaults in stored form, the composed fields, which system fields exist. Entities are values
 * (a metadata change makes new objects); the plan is made again when the property list differs.
 */
type WritePlan = {
  readonly properties: readonly Property[];
  readonly size: number;
  readonly pk: string;
  readonly byName: ReadonlyMap<string, Property>;
  readonly defaults: ReadonlyArray<{ readonly field: string; readonly value: StoredValue }>;
  readonly composed: ReadonlyArray<{ readonly property: Property; readonly template: string; readonly sources: readonly string[] }>;
  readonly createdon: boolean;
  readonly modifiedon: boolean;
  readonly createdby: boolean;
  readonly modifiedby: boolean;
  readonly ownerid: boolean;
  readonly version: string | undefined;
  /**
   * The keys of the last request written and their properties (null: id or a server field):
   * the records of a batch have the same keys, so each is resolved by comparing the key list.
   */
  shape?: KeyShape;
};

/** The properties of a request's keys (null: id or a server field) and their decoders, resolved once per key list. */
type KeyShape = { keys: string[]; properties: Array<Property | null>; decoders: Array<Decode | null> };

const plans = new WeakMap<Entity, WritePlan>();
const serverFields: ReadonlySet<string> = new Set(SERVER_FIELDS);

const writePlanOf = (e: Entity): WritePlan => {
  const known = plans.get(e);
  if (known !== undefined && known.properties === e.properties && known.size === e.properties.length && known.pk === primaryKeyOf(e)) return known;
  const byName = new Map<string, Property>();
  for (const p of e.properties) if (!byName.has(p.logicalName)) byName.set(p.logicalName, p);
  const defaults: Array<{ field: string; value: StoredValue }> = [];
  for (const p of e.properties) {
    if (p.defaultValue === undefined || p.defaultValue === null || FIELD_TYPES[p.type].serverSet) continue;
    const d = storedValue(e, p, p.defaultValue);
    if (!isLeft(d)) defaults.push({ field: p.logicalName, value: d.right });
  }
  const composed: Array<{ property: Property; template: string; sources: string[] }> = [];
  for (const p of e.properties) {
    const template = fieldTemplateOf(p);
    if (template !== undefined) composed.push({ property: p, template, sources: templateFields(template) });
  }
  const plan: WritePlan = {
    properties: e.properties,
    size: e.properties.length,
    pk: primaryKeyOf(e),
    byName,
    defaults,
    composed,
    createdon: byName.has('createdon'),
    modifiedon: byName.has('modifiedon'),
    createdby: byName.has('createdby'),
    modifiedby: byName.has('modifiedby'),
    ownerid: byName.has('ownerid'),
    version: e.properties.find((p) => FIELD_TYPES[p.type].stored === 'counter')?.logicalName,
  };
  plans.set(e, plan);
  return plan;
};

/** The entity's VersionNumber field, if it has one. */
export const versionFieldOf = (e: Entity): string | undefined => writePlanOf(e).version;

/** A default's stored value for one record (a lookup object is the record's own). */
const own = (v: StoredValue): StoredValue => (v !== null && typeof v === 'object' ? { id: v.id, name: v.name } : v);

/**
 * Writes the request's fields in stored form into `out`, without id and server fields; an
 * unknown field is ERR_INPUT (and `out` is then half-filled: callers drop it).
 */
const storeFieldsInto = (e: Entity, object: EntityRecord, caller: Caller, out: StoredRecord): InputError | undefined => {
  const plan = writePlanOf(e);
  const system = isSystemCaller(caller);
  const keys = Object.keys(object);
  const shape = shapeOfKeys(plan, keys);
  for (let i = 0; i < keys.length; i++) {
    const field = keys[i];
    const p = shape.properties[i];
    if (p === null) continue;
    if (p === undefined || (p.secret === true && !system)) return fieldNotFound(e.logicalName, field);
    const v = storedForm(p, object[field], shape.decoders[i] ?? undefined);
    if (isRefusal(v)) return refusedText(e, p, object[field], v);
    out[field] = v;
  }
  return undefined;
};

/** The property of each key (null: id or a server field, undefined: unknown), remembered for the next record of the same keys. */
const shapeOfKeys = (plan: WritePlan, keys: string[]): { properties: Array<Property | null | undefined>; decoders: Array<Decode | null> } => {
  const last = plan.shape;
  if (last !== undefined && last.keys.length === keys.length) {
    let same = true;
    for (let i = 0; i < keys.length && same; i++) same = keys[i] === last.keys[i];
    if (same) return last;
  }
  const properties: Array<Property | null | undefined> = keys.map((k) => (k === plan.pk || serverFields.has(k) ? null : plan.byName.get(k)));
  const decoders = properties.map((p) => (p ? FIELD_TYPES[p.type].decode : null));
  if (!properties.includes(undefined)) plan.shape = { keys, properties: properties as Array<Property | null>, decoders };
  return { properties, decoders };
};

/** The request's fields in stored form, without id and server fields; unknown fields are ERR_INPUT. */
export const storedFields = (e: Entity, object: EntityRecord, caller: Caller): Either<InputError, StoredRecord> => {
  const out: StoredRecord = {};
  const failure = storeFieldsInto(e, object, caller, out);
  return failure === undefined ? right(out) : left(failure);
};

/** Whether the request gives a field that storedFields keeps. */
const givesField = (plan: WritePlan, object: EntityRecord, field: string): boolean =>
  field !== plan.pk && !serverFields.has(field) && Object.hasOwn(object, field);

/** The id a write names: lower case, and a UUID. */
export const recordId = (e: Entity, object: EntityRecord): Either<InputError, string> => {
  const raw = object[primaryKeyOf(e)];
  const id = typeof raw === 'string' ? raw : typeof raw === 'object' && raw !== null ? raw.id : undefined;
  return typeof id === 'string' && isGuid(id) ? right(id.toLowerCase()) : left(inputError(`Invalid id for ${e.logicalName}`));
};

const userRef = (caller: Caller): { id: string; name: string } => ({ id: caller.userId.toLowerCase(), name: SYSTEM_USER_ENTITY });

/**
 * A new record as stored: the request's fields, defaults of declared fields, and the system fields
 * (id unless given, createdon/by, modifiedon/by, ownerid defaulting to the caller, versionnumber 1).
 */
export const recordToCreate = (
  e: Entity,
  object: EntityRecord,
  caller: Caller,
  now: Date,
  newId: () => string,
): Either<InputError, StoredRecord> => {
  const plan = writePlanOf(e);
  const pk = plan.pk;
  // Built in place, in the order id, defaults of fields not given, the given fields (one object per record).
  const record: StoredRecord = {};
  record[pk] = null;
  for (const d of plan.defaults) if (!givesField(plan, object, d.field)) record[d.field] = own(d.value);
  const failure = storeFieldsInto(e, object, caller, record);
  if (failure !== undefined) return left(failure);
  const given = object[pk];
  let id = newId().toLowerCase();
  if (given !== undefined && given !== null && given !== '' && given !== '0') {
    const r = recordId(e, object);
    if (isLeft(r)) return r;
    id = r.right;
  }
  if (record[pk] === null) record[pk] = id;
  // Composed fields (a contact's name from its first and last name) left empty are filled.
  for (const { property: p, template } of plan.composed) {
    if ((record[p.logicalName] ?? null) === null) record[p.logicalName] = composeField(template, record, p.max);
  }
  const stamp = isoStamp(now);
  if (plan.createdon) record.createdon = stamp;
  if (plan.modifiedon) record.modifiedon = stamp;
  if (plan.createdby) record.createdby = userRef(caller);
  if (plan.modifiedby) record.modifiedby = userRef(caller);
  if (plan.ownerid && (record.ownerid === undefined || record.ownerid === null)) record.ownerid = userRef(caller);
  if (plan.version !== undefined) record[plan.version] = 1;
  return right(record);
};

export const sameStored = (a: StoredValue | undefined, b: StoredValue | undefined): boolean => {
  const x = a ?? null;
  const y = b ?? null;
  if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object') return x.id === y.id && x.name === y.name;
  return x === y;
};

/**
 * An update's fields with its composed fields recomputed (docs/metadata.md "Composed fields"):
 * a composed field the update empties is filled again; one it does not name follows its source
 * fields only while it still holds what they composed, so a name typed by hand is kept.
 */
const withComposedFields = (e: Entity, current: StoredRecord, fields: StoredRecord): StoredRecord => {
  const composed = writePlanOf(e).composed;
  if (composed.length === 0) return fields;
  const out: StoredRecord = { ...fields };
  const merged = { ...current, ...fields };
  for (const { property: p, template, sources } of composed) {
    const field = p.logicalName;
    if (field in fields) {
      if (fields[field] === null) out[field] = composeField(template, merged, p.max);
      continue;
    }
    if (!sources.some((f) => f in fields)) continue;
    const stored = current[field] ?? null;
    if (stored === null || stored === composeField(template, current, p.max)) out[field] = composeField(template, merged, p.max);
  }
  return out;
};

/**
 * The fields an update really changes, compared with the stored record, plus modifiedon/by when
 * anything changes. Empty when the request changes nothing (then nothing is written).
 */
export const changesOf = (
  e: Entity,
  current: StoredRecord,
  object: EntityRecord,
  caller: Caller,
  now: Date,
): Either<InputError, StoredRecord> => {
  const fields = storedFields(e, object, caller);
  if (isLeft(fields)) return fields;
  const plan = writePlanOf(e);
  const changes: StoredRecord = {};
  let changed = false;
  const wanted = withComposedFields(e, current, fields.right);
  for (const k of Object.keys(wanted)) {
    if (!sameStored(current[k], wanted[k])) {
      changes[k] = wanted[k];
      changed = true;
    }
  }
  if (!changed) return right(changes);
  if (plan.modifiedon) changes.modifiedon = isoStamp(now);
  if (plan.modifiedby) changes.modifiedby = userRef(caller);
  return right(changes);
};

/** The versionnumber a request carries, as the stored counter; undefined when absent. */
export const requestedVersion = (e: Entity, object: EntityRecord): Either<InputError, number | undefined> => {
  const field = writePlanOf(e).version;
  const v = field !== undefined ? object[field] : undefined;
  if (v === undefined || v === null || v === '') return right(undefined);
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isSafeInteger(n) ? right(n) : left(inputError(`Invalid versionnumber for ${e.logicalName}: ${JSON.stringify(v)}`));
};

/** A stored record in its wire form for a caller: lookups without label, versionnumber as text, secrets dropped. */
export const wireRecord = (e: Entity, r: StoredRecord, caller: Caller): EntityRecord => {
  const out: EntityRecord = {};
  for (const p of e.properties) {
    if (p.secret === true && !isSystemCaller(caller)) continue;
    const v = r[p.logicalName];
    out[p.logicalName] = v !== null && v !== undefined && FIELD_TYPES[p.type].stored === 'counter' ? String(v) : (v ?? null);
  }
  return out;
};
