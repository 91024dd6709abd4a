import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import type { FollowUp } from '../whatsnext/next-rule.js';
import { bodyExcerpt, dueRemindersRequest, reminderTarget } from './feed.js';
import { REMINDER_RULE } from './reminder.js';

/** Reminders listed at most in What's Next (newest reminder first). */
export const MAX_DUE_REMINDERS = 1000;

/**
 * Issue 18: the reminders due for What's Next. Each open activity of `owner` (null: every owner)
 * whose reminder falls at or before `reference` becomes a row for the record it regards (opening
 * it shows the feed with the item), named by that record's name, dated by the reminder, and with
 * the comment's first line as its action text. Read as the caller: the read rule of
 * permissions/regarding.ts hides reminders on records they may not read.
 */
export const dueReminderFollowUps = async (
  store: Pick<RecordStore, 'retrieveMultiple'>,
  caller: Caller,
  owner: string | null,
  reference: Date,
): Promise<Either<DomainError, FollowUp[]>> => {
  const found = await store.retrieveMultiple(caller, dueRemindersRequest(owner, reference, MAX_DUE_REMINDERS));
  if (isLeft(found)) return found;
  const activities = found.right.records as EntityRecord[];
  const targets = activities.map(reminderTarget);
  // The names of the regarded records: one query per entity.
  const names = new Map<string, string>();
  const byEntity = new Map<string, Set<string>>();
  for (const t of targets) byEntity.set(t.objectName, (byEntity.get(t.objectName) ?? new Set()).add(t.id));
  for (const [entity, ids] of byEntity) {
    const r = await store.retrieveMultiple(caller, {
      entity: { name: entity, attributes: [{ attribute: 'id' }, { attribute: 'name' }], filter: { conditions: [{ attribute: 'id', operator: 'in', value: [...ids] }] } },
      page: 1,
      pageSize: ids.size,
    });
    if (isLeft(r)) continue; // an entity without a name field: the row keeps the comment's line
    for (const rec of r.right.records) if (typeof rec.name === 'string') names.set(`${entity}/${String(rec.id).toLowerCase()}`, rec.name);
  }
  return right(
    activities.map((a, i) => {
      const t = targets[i];
      const excerpt = bodyExcerpt(a.name ?? a.body) || bodyExcerpt(a.body);
      return {
        id: t.id,
        objectName: t.objectName,
        name: names.get(`${t.objectName}/${t.id.toLowerCase()}`) ?? (excerpt || null),
        createdon: typeof a.scheduledstart === 'string' ? a.scheduledstart : null,
        info: excerpt || null,
        rule: REMINDER_RULE,
      };
    }),
  );
};
