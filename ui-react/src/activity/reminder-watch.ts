import { bodyExcerpt, dueRemindersRequest, type EntityRecord } from '../core.js';
import { REMINDER_POLL_MS, reminderKey, remindersToNotify } from './reminder-notify.js';
import type { ApiClient } from '../api/client.js';
import { t } from '../i18n.js';
import { caller } from '../state/session.js';
import { local } from '../state/storage.js';
import { objectChangedEvent } from '../state/realtime.js';
import { toast } from '../ui/dialogs.js';

/**
 * Issue 18: a reminder that falls due is shown to its owner as a notification in the shell (a
 * toast 'Reminder: {first line}'), besides its row in What's Next. The stream tells of changes,
 * not of time passing, so the client watches: it reads the user's open reminders due now once a
 * minute (and when an activity changes), and notifies each once per browser (the keys it told
 * are kept in local storage). Reminders older than a day are left to What's Next, so a user back
 * from a holiday is not greeted by a pile of toasts.
 */

const STORE_KEY = 'tessera.remindersNotified';
const KEPT = 200;

const readTold = (): string[] => {
  try {
    const v = JSON.parse(local.get(STORE_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** Starts watching the signed-in user's reminders; returns the function that stops it. */
export const startReminderWatch = (api: Pick<ApiClient, 'fetch'>): (() => void) => {
  let stopped = false;
  let running = false;
  const check = async () => {
    const me = caller.value;
    if (stopped || running || !me || document.hidden) return;
    running = true;
    try {
      const now = new Date();
      const r = await api.fetch(dueRemindersRequest(me.userId, now, 50));
      const told = readTold();
      const fresh = remindersToNotify(r.records as EntityRecord[], new Set(told), now);
      for (const a of fresh) toast(t('ActivityReminderDue', { text: bodyExcerpt(a.name ?? a.body) || bodyExcerpt(a.body) }), 'info');
      if (fresh.length > 0) local.set(STORE_KEY, JSON.stringify([...told, ...fresh.map(reminderKey)].slice(-KEPT)));
    } catch {
      // No reminders this round (offline, signed out): the next round tries again.
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void check(), 5_000);
  const tick = setInterval(() => void check(), REMINDER_POLL_MS);
  const ev = objectChangedEvent('activity');
  const onChange = () => void check();
  window.addEventListener(ev, onChange);
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(tick);
    window.removeEventListener(ev, onChange);
  };
};
