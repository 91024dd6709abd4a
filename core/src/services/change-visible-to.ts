import { isRight } from 'fp-ts/lib/Either.js';
import { levelOf } from '../permissions/access.js';
import { METADATA_ENTITY } from '../permissions/roles.js';
import { followsRegarding } from '../permissions/regarding.js';
import type { Caller } from '../permissions/types.js';
import type { Change } from '../ports/change-feed.js';
import type { RecordStore } from '../ports/record-store.js';

/** inu_view: the metadata objects (forms, views, charts, filters, menus) of the user context. */
const VIEW_ENTITY = 'inu_view';

/**
 * API.md "Realtime": who may see a change on the stream. A created or updated record is sent to
 * a user who may read it now; a deleted record can no longer be checked, so its deletion goes
 * only to users who read every record of the entity (organization level). No read level: nothing.
 */
export const changeVisibleTo = async (store: Pick<RecordStore, 'retrieveById'>, caller: Caller, change: Change): Promise<boolean> => {
  const known = decidedByLevel(caller, change);
  return known ?? isRight(await store.retrieveById(caller, change.entity, change.id));
};

/**
 * What the caller's read level alone decides: nothing to read (level 0), a deletion (only the
 * organization level sees it), or any record at the organization level (every record of the
 * entity is readable: no need to read it). Undefined: the record must be read to know.
 */
const decidedByLevel = (caller: Caller, change: Change): boolean | undefined => {
  // New metadata concerns every user: each client reloads its metadata (issue 15, the metadata editor).
  if (change.entity === METADATA_ENTITY) return true;
  // So do forms, views and filters saved in customize mode (issue 15): every open client reloads its
  // user context. The stream says only entity, id and operation; reading the record still needs read.
  if (change.entity === VIEW_ENTITY) return true;
  const level = levelOf(caller.permissions, change.entity, 'read');
  if (level === 0) return false;
  if (change.operation === 'delete') return level === 3;
  // Issue 18: an activity's read follows its regarding record, so the row must be read even at organization level.
  if (level === 3) return followsRegarding(change.entity) ? undefined : true;
  return undefined;
};

/** Ids asked for in one query when many changes are checked at once. */
const IDS_PER_QUERY = 500;

/**
 * changeVisibleTo for many changes at once (an import's batch of 1000 writes): the records that
 * must be read are read with one query per entity and 500 ids, not one read per change.
 */
export const changesVisibleTo = async (store: Pick<RecordStore, 'retrieveMultiple'>, caller: Caller, changes: readonly Change[]): Promise<boolean[]> => {
  const decided = changes.map((c) => decidedByLevel(caller, c));
  const wanted = new Map<string, Set<string>>();
  changes.forEach((c, i) => {
    if (decided[i] === undefined) wanted.set(c.entity, (wanted.get(c.entity) ?? new Set()).add(c.id));
  });
  const readable = new Set<string>();
  for (const [entity, idSet] of wanted) {
    const ids = [...idSet];
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const chunk = ids.slice(i, i + IDS_PER_QUERY);
      const found = await store.retrieveMultiple(caller, {
        entity: { name: entity, attributes: [{ attribute: 'id' }], filter: { conditions: [{ attribute: 'id', operator: 'in', value: chunk }] } },
        page: 1,
        pageSize: chunk.length,
      });
      if (isRight(found)) for (const r of found.right.records) readable.add(`${entity}\u0000${String(r.id).toLowerCase()}`);
    }
  }
  return changes.map((c, i) => decided[i] ?? readable.has(`${c.entity}\u0000${c.id.toLowerCase()}`));
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
    private readonly store: Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'>,
    private readonly remembered: number = REMEMBERED_DECISIONS,
  ) {}

  visibleTo(caller: Caller, change: Change): Promise<boolean> {
    return this.visibleToMany(caller, [change]).then(([visible]) => visible);
  }

  /** The decisions for several changes (in their order); the undecided ones are checked together. */
  visibleToMany(caller: Caller, changes: readonly Change[]): Promise<boolean[]> {
    const keys = changes.map((c) => [caller.userId.toLowerCase(), c.entity, c.id, c.operation, c.stamp].join('\u0000'));
    const decisions = keys.map((k) => this.decided.get(k));
    const open = decisions.flatMap((d, i) => (d === undefined ? [i] : []));
    if (open.length > 0) {
      const checked = changesVisibleTo(this.store, caller, open.map((i) => changes[i]));
      open.forEach((i, n) => {
        const d = checked.then((all) => all[n]);
        decisions[i] = d;
        this.remember(keys[i], d);
      });
    }
    return Promise.all(decisions as Array<Promise<boolean>>);
  }

  private remember(key: string, decision: Promise<boolean>): void {
    this.decided.set(key, decision);
    // A failed check is not remembered: the next stream asks again.
    decision.catch(() => this.decided.delete(key));
    while (this.decided.size > this.remembered) this.decided.delete(this.decided.keys().next().value as string);
  }
}
