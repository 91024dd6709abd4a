import { isRight } from 'fp-ts/lib/Either.js';
import { levelOf } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import type { Change } from '../ports/change-feed.js';
import type { RecordStore } from '../ports/record-store.js';

/**
 * API.md "Realtime": who may see a change on the stream. A created or updated record is sent to
 * a user who may read it now; a deleted record can no longer be checked, so its deletion goes
 * only to users who read every record of the entity (organization level). No read level: nothing.
 */
export const changeVisibleTo = async (store: Pick<RecordStore, 'retrieveById'>, caller: Caller, change: Change): Promise<boolean> => {
  const level = levelOf(caller.permissions, change.entity, 'read');
  if (level === 0) return false;
  if (change.operation === 'delete') return level === 3;
  return isRight(await store.retrieveById(caller, change.entity, change.id));
};
