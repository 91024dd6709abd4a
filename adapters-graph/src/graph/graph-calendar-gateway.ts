import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import {
  CALENDAR_VIEW_PAGE,
  cloudCalendarOf,
  cloudEventOf,
  GraphCalendarPage,
  GraphEventPage,
  type CalendarGateway,
  type CloudCalendar,
  type CloudCalendarEvent,
  type GraphFailure,
  type GraphUser,
} from '@tessera/core/internal';
import type { GraphRequests } from './graph-requests.js';

/** Pages followed at most: 20 of 500 events, or of calendars. */
export const CALENDAR_MAX_PAGES = 20;

/**
 * The user's Outlook calendars on Microsoft Graph (spec 001 "Cloud token and calendar"):
 * `{user}/calendars`, then `{user}/calendars/{id}/calendarView?startDateTime&endDateTime&$top=500`,
 * times asked in UTC (Prefer: outlook.timezone="UTC").
 */
export class GraphCalendarGateway implements CalendarGateway {
  constructor(private readonly graph: GraphRequests) {}

  async calendars(user: GraphUser): Promise<Either<GraphFailure, CloudCalendar[]>> {
    const all = await this.graph.pages(user, { method: 'GET', path: `${this.graph.tokens.userPath(user)}/calendars`, query: { $select: 'id,name,color,hexColor' } }, GraphCalendarPage, CALENDAR_MAX_PAGES);
    return isLeft(all) ? all : right(all.right.map(cloudCalendarOf));
  }

  async events(user: GraphUser, calendarId: string, start: string, end: string): Promise<Either<GraphFailure, CloudCalendarEvent[]>> {
    const all = await this.graph.pages(
      user,
      {
        method: 'GET',
        path: `${this.graph.tokens.userPath(user)}/calendars/${encodeURIComponent(calendarId)}/calendarView`,
        query: { startDateTime: start, endDateTime: end, $top: String(CALENDAR_VIEW_PAGE), $select: 'id,subject,start,end,webLink,isCancelled' },
        headers: { prefer: 'outlook.timezone="UTC"' },
      },
      GraphEventPage,
      CALENDAR_MAX_PAGES,
    );
    return isLeft(all) ? all : right(all.right.filter((e) => e.isCancelled !== true).map((e) => cloudEventOf(calendarId, e)));
  }
}
