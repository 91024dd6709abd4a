import { levelIn } from './mask.js';
import type { Caller } from './types.js';

/**
 * Issue 18, spec 001 "Activity feed": only people who may read a record see its feed. An activity
 * (and a document, the attachment of one) names the record it regards by `objectname` (the
 * entity) and `objectid` (its id); its read follows that record: a user reads such a row when
 * their own scope of the entity allows it AND they may read the regarding record. A row that
 * regards no record (no objectname) follows its own scope alone.
 *
 * The store applies the rule to every read (store/regarding-scope.ts adds it to the query plan),
 * so /api/fetch, retrieveById, What's Next, exports and the realtime stream agree.
 */

/** The entities whose read follows their regarding record. */
export const FOLLOWS_REGARDING: ReadonlySet<string> = new Set(['activity', 'document']);

/** The fields that name the regarding record. */
export const REGARDING_NAME_FIELD = 'objectname';
export const REGARDING_ID_FIELD = 'objectid';

export const followsRegarding = (entity: string): boolean => FOLLOWS_REGARDING.has(entity);

/**
 * The entities a caller may read at least some records of: a read level above none, or a
 * custom-owner rule for read. A regarding record of any other entity is unreadable to them, so
 * no row regarding it is shown (the candidates the read rule looks at).
 */
export const readableEntities = (caller: Caller): string[] => {
  const names = new Set<string>();
  for (const [entity, mask] of Object.entries(caller.permissions.permissions)) if (levelIn(mask, 'read') > 0) names.add(entity);
  for (const o of caller.permissions.owners) if (o.operation === 'read') names.add(o.objectName);
  return [...names].sort();
};
