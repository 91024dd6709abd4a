import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { noObject, notFound, type DomainError, type InputError } from '../errors.js';
import { primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import type { MetadataSet } from '../metadata/metadata-set.js';
import { readScope } from '../permissions/access.js';
import type { Caller, ReadScope } from '../permissions/types.js';
import { isSystemCaller } from '../ports/record-store.js';
import type { QueryPlan } from '../query/plan.js';
import type { FetchRequest, FetchResult } from '../query/query.js';
import { validateQuery, type EntityLookup } from '../query/validate-query.js';
import { withRegardingScope } from './regarding-scope.js';

/** The read rules every store shares: who sees which rows, and how one record is asked for. */

/** The system reads everything; a user reads the scope of their roles (spec 000 section 6). */
export const scopeFor = (caller: Caller, entity: string): ReadScope =>
  isSystemCaller(caller) ? { kind: 'all' } : readScope(caller, entity);

/** The plan of a fetch for this caller: secret fields are nameable by the system only. */
export const planFetch = (lookup: EntityLookup, caller: Caller, request: FetchRequest): Either<InputError, QueryPlan> => {
  const plan = validateQuery(request, lookup, { allowSecret: isSystemCaller(caller) });
  // Issue 18: an activity's (a document's) read follows its regarding record (permissions/regarding.ts).
  return isLeft(plan) || isSystemCaller(caller) ? plan : right(withRegardingScope(plan.right, caller, lookup, (e) => scopeFor(caller, e)));
};

/** The query of retrieveById: every readable field of one record. */
export const byIdRequest = (e: Entity, id: string): FetchRequest => ({
  entity: { name: e.logicalName, allattrs: true, filter: { conditions: [{ attribute: primaryKeyOf(e), operator: 'eq', value: id }] } },
  page: 1,
  pageSize: 1,
});

/** retrieveById on top of a store's retrieveMultiple: ERR_NOT_FOUND when missing or not readable. */
export const retrieveOne = async (
  lookup: EntityLookup,
  entity: string,
  id: string,
  fetch: (request: FetchRequest) => Promise<Either<DomainError, FetchResult>>,
): Promise<Either<DomainError, EntityRecord>> => {
  const e = lookup(entity);
  if (!e) return left(noObject(entity));
  const r = await fetch(byIdRequest(e, id));
  if (isLeft(r)) return r;
  const rec = r.right.records[0];
  return rec ? right(rec as EntityRecord) : left(notFound(`${entity} ${id} not found`));
};

/** An EntityLookup over a metadata set (core/src/metadata). */
export const entityLookupOf =
  (set: Pick<MetadataSet, 'entity'>): EntityLookup =>
  (name) => {
    const e = set.entity(name);
    return isLeft(e) ? undefined : e.right;
  };
