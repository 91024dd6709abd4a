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

/** How many recent (user, change) decisions a ChangeVisibility keeps. */
const REMEMBERED_DECISIONS = 4096;

/**
 * changeVisibleTo for the streams of one organization, decided once per user and change however
 * many streams the user has open (issue 22 item 7: 300 streams of one token ran 300 checks per
 * write). Every stream of a user asks at about the same moment, so only the latest decisions are
 * kept: the oldest is forgotten first, and a forgotten one is decided again.
 */
export class ChangeVisibility {
  private readonly decided = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: Pick<RecordStore, 'retrieveById'>,
    private readonly remembered: number = REMEMBERED_DECISIONS,
  ) {}

  visibleTo(caller: Caller, change: Change): Promise<boolean> {
    const key = [caller.userId.toLowerCase(), change.entity, change.id, change.operation, change.stamp].join('\u0000');
    const known = this.decided.get(key);
    if (known !== undefined) return known;
    const decision = changeVisibleTo(this.store, caller, change);
    this.decided.set(key, decision);
    // A failed check is not remembered: the next stream asks again.
    decision.catch(() => this.decided.delete(key));
    if (this.decided.size > this.remembered) this.decided.delete(this.decided.keys().next().value as string);
    return decision;
  }
}
