import type { Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { FetchRequest, FetchResult } from '../query/query.js';

/**
 * The RecordStore port (ARCHITECTURE.md "Ports"): the records of one organization.
 * Implementations: InMemoryRecordStore (core/src/store), KyselyRecordStore (adapters-sql).
 * Every method decides with the caller's permissions; expected failures are Left values
 * (ERR_INPUT, ERR_PERMISSION, ERR_NOT_FOUND, ERR_8001), exceptions are bugs.
 */
export interface RecordStore {
  /** POST /api/fetch: the whole query object, scoped to what the caller may read. */
  retrieveMultiple(caller: Caller, request: FetchRequest): Promise<Either<DomainError, FetchResult>>;
  /** One record with all readable fields; ERR_NOT_FOUND when missing or not readable. */
  retrieveById(caller: Caller, entity: string, id: string): Promise<Either<DomainError, EntityRecord>>;
  /** Sets id (unless given), createdon/by, modifiedon/by, ownerid (default the caller), versionnumber. */
  create(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>>;
  /**
   * Writes only the fields that changed. With `versionnumber` the check and the write are one
   * statement (stale: ERR_8001); without it the last writer wins on the fields it sends.
   */
  update(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>>;
  /** `object` holds `id` (and `versionnumber` when known); the full body is kept in `audit`. */
  delete(caller: Caller, entity: string, object: EntityRecord): Promise<Either<DomainError, string>>;
  /** Undo-delete: restores the last deleted body of `entity`/`id` from `audit`, with its original id. */
  restore(caller: Caller, entity: string, id: string): Promise<Either<DomainError, string>>;
  /**
   * POST /api/executemultiple: one result per item, in order. With `atomic` all items run in one
   * transaction; the first error rolls every item back and each answer says so.
   * Left only when the batch as a whole is refused (over MAX_BATCH_SIZE).
   */
  executeMultiple(
    caller: Caller,
    items: readonly WriteItem[],
    options?: { atomic?: boolean },
  ): Promise<Either<DomainError, ItemResult[]>>;
}

export type WriteOperation = 'create' | 'update' | 'delete';
export const WRITE_OPERATIONS: readonly WriteOperation[] = ['create', 'update', 'delete'];

/** One item of /api/update or /api/executemultiple: `{ operation, name, object }`. */
export type WriteItem = { operation: WriteOperation; name: string; object: EntityRecord };

/** Per-item answer of executeMultiple (API.md): `{ id }` or `{ error: 'ERR_...: text' }`. */
export type ItemResult = { id: string } | { error: string };

/** The id of the system principal: trusted server code (sign-in, organization set-up, migrations). */
export const SYSTEM_USER_ID = '00000000-0000-0000-0000-000000000000';

/** A caller that acts as the system: every operation on every entity, read scope all. */
export type SystemCaller = Caller & { readonly system: true };

/**
 * The system caller for trusted server code only (never built from a request).
 * `userId` names who the system acts for in createdby/modifiedby (default SYSTEM_USER_ID).
 */
export const systemCaller = (userId: string = SYSTEM_USER_ID): SystemCaller => ({
  userId,
  teams: [],
  permissions: { permissions: {}, apps: [], owners: [], needsTeams: false },
  system: true,
});

export const isSystemCaller = (c: Caller): c is SystemCaller => (c as Partial<SystemCaller>).system === true;
