import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import { STATE_INACTIVE } from '../metadata/system-fields.js';
import { SYSTEM_USER_ENTITY } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import type { Clock } from '../ports/clock.js';
import type { ItemResult, RecordStore, WriteItem } from '../ports/record-store.js';
import type { SessionStore } from '../ports/session-store.js';

/** Who writes: the caller, their organization, and their session's public name when a session writes (not the CLI). */
export type Writer = { caller: Caller; orgName: string; sessionName?: string };

export type WriteDeps = {
  store: Pick<RecordStore, 'create' | 'update' | 'delete' | 'executeMultiple'>;
  sessions: Pick<SessionStore, 'touchModified' | 'endForUser'>;
  clock: Clock;
};

/**
 * Issue 6: deactivating a user (statecode Inactive) or deleting them ends their sessions. The
 * ids (lower case, as the store keeps them) of the users whose sessions these written items end.
 */
export const usersSignedOutBy = (written: readonly WriteItem[]): string[] => {
  const ids = new Set<string>();
  for (const i of written) {
    if (i.name !== SYSTEM_USER_ENTITY) continue;
    const id = typeof i.object.id === 'string' ? i.object.id.toLowerCase() : null;
    if (id && (i.operation === 'delete' || i.object.statecode === STATE_INACTIVE)) ids.add(id);
  }
  return [...ids];
};

/** What follows a successful write: the writing session is marked as having written, and users signed out. */
const afterWrites = async (deps: Pick<WriteDeps, 'sessions' | 'clock'>, writer: Writer, written: readonly WriteItem[]): Promise<void> => {
  if (written.length === 0) return;
  if (writer.sessionName !== undefined) await deps.sessions.touchModified(writer.sessionName, deps.clock.now());
  for (const userId of usersSignedOutBy(written)) await deps.sessions.endForUser(writer.orgName, userId);
};

/** POST /api/update: one create, update or delete; answers the id. */
export const applyWrite = async (deps: WriteDeps, writer: Writer, item: WriteItem): Promise<Either<DomainError, string>> => {
  const { store } = deps;
  const result =
    item.operation === 'create'
      ? await store.create(writer.caller, item.name, item.object)
      : item.operation === 'update'
        ? await store.update(writer.caller, item.name, item.object)
        : await store.delete(writer.caller, item.name, item.object);
  if (!isLeft(result)) await afterWrites(deps, writer, [item]);
  return result;
};

/** POST /api/executemultiple, imports: a batch; the session effects follow the items that were written. */
export const applyWrites = async (
  deps: Pick<WriteDeps, 'sessions' | 'clock'> & { store: Pick<RecordStore, 'executeMultiple'> },
  writer: Writer,
  items: readonly WriteItem[],
  options: { atomic?: boolean } = {},
): Promise<Either<DomainError, ItemResult[]>> => {
  const result = await deps.store.executeMultiple(writer.caller, items, options);
  if (!isLeft(result)) await afterWrites(deps, writer, items.filter((_, i) => result.right[i] !== undefined && 'id' in result.right[i]));
  return result;
};

/**
 * A store whose batch writes go through applyWrites, for use cases that take a store and write
 * in batches (runImport): an import that deactivates users signs them out like the API does.
 */
export const withWriteEffects = (
  store: Pick<RecordStore, 'retrieveMultiple' | 'executeMultiple'>,
  deps: Pick<WriteDeps, 'sessions' | 'clock'>,
  writer: Omit<Writer, 'caller'>,
): Pick<RecordStore, 'retrieveMultiple' | 'executeMultiple'> => ({
  retrieveMultiple: (caller, request) => store.retrieveMultiple(caller, request),
  executeMultiple: (caller, items, options) => applyWrites({ ...deps, store }, { ...writer, caller }, items, options),
});
