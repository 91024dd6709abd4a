/**
 * The cloud calendars' events for the calendar view (spec 001 "Cloud token and calendar"): every
 * calendar of the user, then each one's calendarView in the window. The spec's failures:
 * 'Unable to find user calendars: ...' when the list fails, 'User has no outlook calendars' when
 * it is empty. Events from this feed are read-only in the view (spec 001 section 6).
 */
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { CalendarGateway, CloudCalendar, CloudCalendarEvent } from '../ports/calendar-gateway.js';
import type { GraphFailure, GraphUser } from '../ports/drive-gateway.js';

export const unableToFindCalendars = (detail: string): string => `Unable to find user calendars: ${detail}`;
export const NO_OUTLOOK_CALENDARS = 'User has no outlook calendars';
/** A window longer than this is refused (the view asks -10/+40 days around a month). */
export const MAX_CLOUD_WINDOW_DAYS = 100;

export type CloudCalendarFeed = { calendars: CloudCalendar[]; events: CloudCalendarEvent[] };

export const cloudCalendarFeed = async (gateway: CalendarGateway, user: GraphUser, start: string, end: string): Promise<Either<GraphFailure, CloudCalendarFeed>> => {
  const calendars = await gateway.calendars(user);
  if (isLeft(calendars)) return left({ kind: calendars.left.kind === 'NOT_CONFIGURED' ? 'NOT_CONFIGURED' : 'UPSTREAM', message: unableToFindCalendars(calendars.left.message) });
  if (calendars.right.length === 0) return left({ kind: 'NOT_FOUND', message: NO_OUTLOOK_CALENDARS });
  const pages = await Promise.all(calendars.right.map((c) => gateway.events(user, c.id, start, end)));
  const events: CloudCalendarEvent[] = [];
  for (const p of pages) {
    if (isLeft(p)) return p;
    events.push(...p.right);
  }
  return right({ calendars: calendars.right, events: events.sort((a, b) => a.start.localeCompare(b.start)) });
};

/** The window is two ISO instants, start before end, at most MAX_CLOUD_WINDOW_DAYS apart. */
export const checkCloudWindow = (start: string, end: string): Either<string, { start: string; end: string }> => {
  const s = Date.parse(start);
  const e = Date.parse(end);
  if (!Number.isFinite(s) || !Number.isFinite(e)) return left('start and end must be ISO date-times');
  if (e <= s) return left('end must be after start');
  if (e - s > MAX_CLOUD_WINDOW_DAYS * 86_400_000) return left(`the window may span at most ${MAX_CLOUD_WINDOW_DAYS} days`);
  return right({ start: new Date(s).toISOString(), end: new Date(e).toISOString() });
};
