import { addDays } from '../dates/civil.js';
import { civilDateOf, instantAt } from '../dates/zoned.js';

/**
 * The per-item reminder bell of the activity feed (spec 001 "Activity feed" and section 9: "The
 * default reminder is the next day at 06:00"). An activity's reminder is its `scheduledstart`;
 * it is due from that instant until the activity is completed or canceled (status), and then
 * shows in its owner's What's Next and as a notification to the owner (docs/ui.md "Activity feed").
 */

/** The default reminder's wall time: 06:00. */
export const DEFAULT_REMINDER_HOUR = 6;

/** The next day at 06:00 in the user's time zone (a DST change tonight does not move it). */
export const defaultReminder = (now: Date, timeZone: string): Date =>
  instantAt(addDays(civilDateOf(now, timeZone), 1), DEFAULT_REMINDER_HOUR, 0, timeZone);

/** The activity status values (system.json activity.status): a reminder of a closed activity is not due. */
export const ACTIVITY_OPEN = 1;
export const ACTIVITY_COMPLETED = 2;
export const ACTIVITY_CANCELED = 3;

/** Whether an activity's reminder is due at `at`: it has one, at or before `at`, and the activity is still open. */
export const reminderDue = (activity: { scheduledstart?: unknown; status?: unknown }, at: Date): boolean => {
  if (typeof activity.scheduledstart !== 'string') return false;
  const when = Date.parse(activity.scheduledstart);
  if (Number.isNaN(when) || when > at.getTime()) return false;
  return activity.status === null || activity.status === undefined || Number(activity.status) === ACTIVITY_OPEN;
};

/** The What's Next row of a reminder names this in its `rule` (no inu_nextrule record stands behind it). */
export const REMINDER_RULE = 'reminder';
