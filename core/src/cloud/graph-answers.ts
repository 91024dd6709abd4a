/**
 * Microsoft Graph's answers as its reference documents them, decoded once at the adapter's edge
 * (ARCHITECTURE.md: Graph answers are untrusted data). Only the fields Tessera reads are checked;
 * Graph's other fields pass unread.
 */
import * as t from 'io-ts';
import type { CloudCalendar, CloudCalendarEvent } from '../ports/calendar-gateway.js';
import type { DriveFile } from '../ports/drive-gateway.js';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

const Thumbnail = t.partial({ url: t.string, width: t.number, height: t.number });
const ThumbnailSet = t.partial({ small: Thumbnail, medium: Thumbnail, large: Thumbnail });
const IdentitySet = t.partial({ user: t.partial({ displayName: nullable(t.string), email: t.string }), application: t.partial({ displayName: nullable(t.string) }) });

/** A driveItem (https://learn.microsoft.com/graph/api/resources/driveitem). */
export const GraphDriveItem = t.intersection(
  [
    t.type({ id: t.string, name: t.string }),
    t.partial({
      size: t.number,
      lastModifiedDateTime: t.string,
      createdDateTime: t.string,
      webUrl: t.string,
      folder: t.partial({ childCount: t.number }),
      file: t.partial({ mimeType: t.string }),
      '@microsoft.graph.downloadUrl': t.string,
      createdBy: IdentitySet,
      thumbnails: t.array(ThumbnailSet),
    }),
  ],
  'driveItem',
);
export type GraphDriveItem = t.TypeOf<typeof GraphDriveItem>;

/** A page of a collection: `value`, and `@odata.nextLink` while more pages follow. */
export const graphPage = <C extends t.Mixed>(item: C, name: string) =>
  t.intersection([t.type({ value: t.array(item) }), t.partial({ '@odata.nextLink': t.string })], name);

export const GraphDriveItemPage = graphPage(GraphDriveItem, 'driveItem collection');

/** POST .../createUploadSession: where to PUT the byte ranges. */
export const GraphUploadSession = t.intersection([t.type({ uploadUrl: t.string }), t.partial({ expirationDateTime: t.string, nextExpectedRanges: t.array(t.string) })], 'uploadSession');

/** A calendar (https://learn.microsoft.com/graph/api/resources/calendar). */
export const GraphCalendar = t.intersection([t.type({ id: t.string }), t.partial({ name: t.string, color: t.string, hexColor: t.string })], 'calendar');
export const GraphCalendarPage = graphPage(GraphCalendar, 'calendar collection');

const DateTimeTimeZone = t.intersection([t.type({ dateTime: t.string }), t.partial({ timeZone: t.string })], 'dateTimeTimeZone');
/** An event of a calendarView (id, subject, start, end, webLink are what the calendar view reads). */
export const GraphEvent = t.intersection(
  [t.type({ id: t.string, start: DateTimeTimeZone, end: DateTimeTimeZone }), t.partial({ subject: nullable(t.string), webLink: nullable(t.string), isCancelled: t.boolean })],
  'event',
);
export const GraphEventPage = graphPage(GraphEvent, 'event collection');

/** Graph's error body: `{ error: { code, message, innerError } }`. */
export const GraphErrorBody = t.type({ error: t.intersection([t.type({ code: t.string }), t.partial({ message: t.string })]) }, 'Graph error');

/** The identity platform's token answer (client credentials and on-behalf-of). */
export const GraphTokenAnswer = t.intersection([t.type({ access_token: t.string, expires_in: t.number }), t.partial({ token_type: t.string, scope: t.string })], 'token answer');

/** The drive file the panel shows, from a driveItem. */
export const driveFileOf = (i: GraphDriveItem): DriveFile => {
  const thumbs = i.thumbnails?.[0];
  return {
    id: i.id,
    name: i.name,
    folder: i.folder !== undefined,
    childCount: i.folder?.childCount ?? null,
    size: i.size ?? 0,
    lastModifiedDateTime: i.lastModifiedDateTime ?? i.createdDateTime ?? '',
    downloadUrl: i['@microsoft.graph.downloadUrl'] ?? null,
    webUrl: i.webUrl ?? null,
    createdBy: i.createdBy?.user?.displayName ?? i.createdBy?.application?.displayName ?? null,
    mimeType: i.file?.mimeType ?? null,
    thumbnail: thumbs?.medium?.url ?? thumbs?.large?.url ?? thumbs?.small?.url ?? null,
  };
};

/** Graph's `color` is a name ('auto', 'lightBlue'); `hexColor` is the CSS colour, empty when unset. */
export const cloudCalendarOf = (c: t.TypeOf<typeof GraphCalendar>): CloudCalendar => ({ id: c.id, name: c.name ?? '', color: c.hexColor || null });

/**
 * Graph writes event times without an offset in the time zone it names (UTC unless the request
 * asks otherwise with Prefer: outlook.timezone): a bare time is read as UTC.
 */
export const graphTimeToIso = (dt: { dateTime: string; timeZone?: string }): string => {
  const bare = !/(Z|[+-]\d\d:?\d\d)$/.test(dt.dateTime);
  const d = new Date(bare && (dt.timeZone ?? 'UTC').toUpperCase() === 'UTC' ? `${dt.dateTime}Z` : dt.dateTime);
  return Number.isNaN(d.getTime()) ? dt.dateTime : d.toISOString();
};

export const cloudEventOf = (calendarId: string, e: t.TypeOf<typeof GraphEvent>): CloudCalendarEvent => ({
  id: e.id,
  start: graphTimeToIso(e.start),
  end: graphTimeToIso(e.end),
  name: e.subject ?? '',
  calendarId,
  url: e.webLink ?? null,
});

/** Spec 001 section 8: Graph request errors are 'Request [{path}] failed: {text}'. */
export const graphRequestFailed = (path: string, text: string): string => `Request [${path}] failed: ${text}`;
