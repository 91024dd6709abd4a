import { translate, type Language } from '../i18n/index.js';

/**
 * Spec 001 section 2, activity feed: how long ago something happened. Under 60 seconds it is
 * one minute ('1 min ago'), under an hour whole minutes, under a day whole hours, else the
 * date. A time slightly in the future (clock skew) counts as just now.
 */
export type RelativeTime = { unit: 'minutes'; count: number } | { unit: 'hours'; count: number } | { unit: 'date'; date: Date };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const ms = (t: string | number | Date): number => (t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t));

/** How long before `now` the moment `then` was (spec 001 section 2 thresholds); undefined for an unreadable time. */
export const relativeTime = (then: string | number | Date, now: number | Date): RelativeTime | undefined => {
  const t = ms(then);
  const elapsed = ms(now) - t;
  if (!Number.isFinite(elapsed)) return undefined;
  if (elapsed < MINUTE) return { unit: 'minutes', count: 1 };
  if (elapsed < HOUR) return { unit: 'minutes', count: Math.floor(elapsed / MINUTE) };
  if (elapsed < DAY) return { unit: 'hours', count: Math.floor(elapsed / HOUR) };
  return { unit: 'date', date: new Date(t) };
};

/**
 * The text of a relative time from the i18n catalogue (English by default: '1 min ago', '5 min ago',
 * '1 hour ago', '3 hours ago'; hours are a plural form, 'pred 2 hodinami'); the date through `formatDate`.
 */
export const relativeTimeText = (
  rt: RelativeTime,
  formatDate: (d: Date) => string = (d) => d.toISOString().slice(0, 10),
  lang: Language = 'en',
): string => {
  if (rt.unit === 'minutes') return translate(lang, 'MsgMinutesAgo', { n: rt.count });
  if (rt.unit === 'hours') return translate(lang, 'MsgHoursAgo', { n: rt.count });
  return formatDate(rt.date);
};
