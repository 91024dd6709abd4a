import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { inReadScope, readScope, sameId, SYSTEM_USER_ENTITY } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { followsRegarding, REGARDING_ID_FIELD, REGARDING_NAME_FIELD } from '../permissions/regarding.js';
import { isSystemCaller } from '../ports/record-store.js';
import { SERVER_FIELDS, type StoredRecord } from './record-rules.js';
import type { Steps, WriteContext } from './record-writes.js';

const serverFields: ReadonlySet<string> = new Set(SERVER_FIELDS);

/** services/caller.ts TEAM_ENTITY (not imported: the store does not depend on the services). */
const TEAM_ENTITY = 'team';

/**
 * A reference that tells the user nothing new: to themselves, or to a team they belong to (their
 * user context lists both). A technician files a work order for their own team without reading teams.
 */
const knownToCaller = (caller: Caller, ref: { id: string; name: string }): boolean =>
  (ref.name === SYSTEM_USER_ENTITY && sameId(ref.id, caller.userId)) || (ref.name === TEAM_ENTITY && caller.teams.some((t) => sameId(t, ref.id)));

/** The lookup fields a request may set, once per entity object (bulk writes check every record). */
const lookupFields = new WeakMap<Entity, { properties: Entity['properties']; fields: string[] }>();
const lookupFieldsOf = (e: Entity): string[] => {
  const known = lookupFields.get(e);
  if (known !== undefined && known.properties === e.properties) return known.fields;
  const fields = e.properties.filter((p) => FIELD_TYPES[p.type].stored === 'lookup' && !serverFields.has(p.logicalName)).map((p) => p.logicalName);
  lookupFields.set(e, { properties: e.properties, fields });
  return fields;
};

/**
 * Issue 22 item 6: a user writes a reference only to a record they may read. Otherwise linking a
 * contact to another team's account by its id would show that account's name as the lookup's
 * label. A reference to a record the user may not read answers exactly as one to a record that
 * does not exist, `400 ERR_INPUT ... not found`, so the answer tells nothing about records the
 * user may not see (docs/api.md "What labels disclose").
 *
 * Only references the request itself sets are checked (not defaults, not the server's ownerid,
 * createdby or modifiedby), and only where the user reads less than every record of the target:
 * a user at organization level reads any record there is, so nothing is read for them (and, as
 * before, a reference to a missing record is theirs to make). A reference to the user themselves or
 * to one of their teams is always allowed. The system caller is not checked.
 */
export function* referencesReadable(
  ctx: WriteContext,
  caller: Caller,
  e: Entity,
  request: EntityRecord,
  written: StoredRecord,
  /** the whole record as it will be stored (a create's record; an update's stored row with its changes) */
  whole: StoredRecord = written,
): Steps<Either<InputError, null>> {
  if (isSystemCaller(caller)) return right(null);
  const regarding = yield* regardingReadable(ctx, caller, e, request, whole);
  if (regarding !== null) return left(regarding);
  for (const field of lookupFieldsOf(e)) {
    if (!Object.hasOwn(request, field)) continue;
    const v = written[field];
    if (v === null || v === undefined || typeof v !== 'object' || knownToCaller(caller, v)) continue;
    const scope = readScope(caller, v.name);
    if (scope.kind === 'all') continue;
    const target = ctx.lookup(v.name);
    const row = target === undefined || scope.kind === 'none' ? null : ((yield { kind: 'get', entity: target, id: v.id }) as StoredRecord | null);
    if (row === null || !inReadScope(scope, row)) {
      return left(inputError(`Invalid value for ${e.logicalName}.${field}: ${v.name} ${v.id} not found`));
    }
  }
  return right(null);
}

/**
 * Issue 18: an activity or a document is read by those who may read the record it regards
 * (permissions/regarding.ts), so writing one about a record is writing on that record: the user
 * must read it, or a comment could be planted on a record its author cannot see. Answers as a
 * reference to a missing record does (nothing is disclosed); null when allowed.
 */
function* regardingReadable(ctx: WriteContext, caller: Caller, e: Entity, request: EntityRecord, whole: StoredRecord): Steps<InputError | null> {
  if (!followsRegarding(e.logicalName) || !(Object.hasOwn(request, REGARDING_NAME_FIELD) || Object.hasOwn(request, REGARDING_ID_FIELD))) return null;
  const name = whole[REGARDING_NAME_FIELD];
  const id = whole[REGARDING_ID_FIELD];
  if (typeof name !== 'string' || name === '' || typeof id !== 'string' || id === '') return null;
  const scope = readScope(caller, name);
  if (scope.kind === 'all') return null;
  const target = ctx.lookup(name);
  const row = target === undefined || scope.kind === 'none' ? null : ((yield { kind: 'get', entity: target, id }) as StoredRecord | null);
  return row === null || !inReadScope(scope, row) ? inputError(`Invalid value for ${e.logicalName}.${REGARDING_ID_FIELD}: ${name} ${id} not found`) : null;
}
