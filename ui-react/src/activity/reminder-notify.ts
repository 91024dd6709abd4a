import { reminderDue, type EntityRecord } from '../core.js';

/** Which due reminders the shell notifies (reminder-watch.ts); pure, so it is tested without a browser. */

/** How often due reminders are looked for. */
export const REMINDER_POLL_MS = 60_000;
/** Reminders due longer ago than this are not notified (What's Next lists them). */
export const REMINDER_NOTIFY_WINDOW_MS = 24 * 3_600_000;
/** At most this many notifications at once; the rest wait for What's Next. */
export const REMINDER_NOTIFY_MAX = 3;

/** The key a notification is remembered by: the activity and its reminder instant (a new reminder notifies again). */
export const reminderKey = (a: EntityRecord): string => `${String(a.id).toLowerCase()}|${String(a.scheduledstart)}`;

/** The reminders of `rows` to notify now: due, within the window, not told before; oldest first, at most REMINDER_NOTIFY_MAX. */
export const remindersToNotify = (rows: readonly EntityRecord[], told: ReadonlySet<string>, now: Date): EntityRecord[] =>
  rows
    .filter((a) => reminderDue(a, now) && now.getTime() - Date.parse(String(a.scheduledstart)) <= REMINDER_NOTIFY_WINDOW_MS && !told.has(reminderKey(a)))
    .sort((a, b) => String(a.scheduledstart).localeCompare(String(b.scheduledstart)))
    .slice(0, REMINDER_NOTIFY_MAX);
