/**
 * The user's Outlook calendars (Microsoft Graph) shown read-only in the calendar view (spec 001
 * "Cloud token and calendar": /me/calendars, then calendarView with startDateTime, endDateTime
 * and $top=500 per calendar).
 */
import type { Either } from 'fp-ts/lib/Either.js';
import type { GraphFailure, GraphUser } from './drive-gateway.js';

export type CloudCalendar = { id: string; name: string; color: string | null };

/** Spec 001 "Cloud calendar event": id, start, end, name, calendarId, url (ISO times in UTC). */
export type CloudCalendarEvent = { id: string; start: string; end: string; name: string; calendarId: string; url: string | null };

export interface CalendarGateway {
  calendars(user: GraphUser): Promise<Either<GraphFailure, CloudCalendar[]>>;
  /** Events overlapping [start, end) of one calendar, $top=500 a page, following nextLink (bounded). */
  events(user: GraphUser, calendarId: string, start: string, end: string): Promise<Either<GraphFailure, CloudCalendarEvent[]>>;
}

/** Spec 001 section 9: calendar view page size 500. */
export const CALENDAR_VIEW_PAGE = 500;
