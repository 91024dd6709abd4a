/**
 * The CloudFiles panel's calls and the calendar view's cloud events (issue 18; docs/cloud-files.md).
 * The browser never holds a Graph token for these: the server asks Graph as the user after it has
 * checked the record (read to list, update to change) and found the panel in the entity's forms.
 */
import * as t from 'io-ts';
import { queryText } from './text-fields.js';

const Name = t.refinement(t.string, (s) => s.length > 0 && s.length <= 400, 'name');
const Id = t.refinement(t.string, (s) => s.length > 0 && s.length <= 100, 'id');
/** Sub-folders below the record's folder, one name each (checked again by the core). */
const SubPath = t.refinement(t.array(Name), (a) => a.length <= 20, 'path');

const Target = { entity: Id, id: Id, panel: Name };

/** POST /api/drive/list: the record's folder (or a sub-folder of it); `startsWith` is the panel's fileFilter. */
export const DriveListRequest = t.exact(t.intersection([t.type(Target), t.partial({ path: SubPath, startsWith: t.string, thumbnails: t.boolean })]), 'drive list');
export type DriveListRequest = t.TypeOf<typeof DriveListRequest>;

/** POST /api/drive/folder: a new folder `name` (an existing name gets a number: conflict behaviour rename). */
export const DriveFolderRequest = t.exact(t.intersection([t.type({ ...Target, name: Name }), t.partial({ path: SubPath })]), 'drive folder');
export type DriveFolderRequest = t.TypeOf<typeof DriveFolderRequest>;

/** POST /api/drive/rename: the item `name` becomes `newName`. */
export const DriveRenameRequest = t.exact(t.intersection([t.type({ ...Target, name: Name, newName: Name }), t.partial({ path: SubPath })]), 'drive rename');
export type DriveRenameRequest = t.TypeOf<typeof DriveRenameRequest>;

/** POST /api/drive/delete: the item `name`. */
export const DriveDeleteRequest = t.exact(t.intersection([t.type({ ...Target, name: Name }), t.partial({ path: SubPath })]), 'drive delete');
export type DriveDeleteRequest = t.TypeOf<typeof DriveDeleteRequest>;

/** POST /api/drive/upload?entity=&id=&panel=&fileName=[&path=a/b][&replace=true]: the file is the raw body. */
export const DriveUploadQuery = t.type({ entity: queryText, id: queryText, panel: queryText, fileName: queryText, path: queryText, replace: queryText }, 'drive upload query');
export type DriveUploadQuery = t.TypeOf<typeof DriveUploadQuery>;

/** Spec 001 "Drive file". */
export const DriveFileAnswer = t.type(
  {
    id: t.string,
    name: t.string,
    folder: t.boolean,
    childCount: t.union([t.number, t.null]),
    size: t.number,
    lastModifiedDateTime: t.string,
    downloadUrl: t.union([t.string, t.null]),
    webUrl: t.union([t.string, t.null]),
    createdBy: t.union([t.string, t.null]),
    mimeType: t.union([t.string, t.null]),
    thumbnail: t.union([t.string, t.null]),
  },
  'drive file',
);
export type DriveFileAnswer = t.TypeOf<typeof DriveFileAnswer>;

/** The folder's names from the drive root (for the breadcrumb) and its items; `missing` when the record's folder does not exist yet. */
export const DriveListAnswer = t.type({ folder: t.array(t.string), items: t.array(DriveFileAnswer), missing: t.boolean }, 'drive list');
export type DriveListAnswer = t.TypeOf<typeof DriveListAnswer>;

/** POST /api/cloudcalendar: the window the calendar view shows (ISO instants). */
export const CloudCalendarRequest = t.exact(t.type({ start: t.string, end: t.string }), 'cloud calendar');
export type CloudCalendarRequest = t.TypeOf<typeof CloudCalendarRequest>;

/** The user's calendars and their events in the window (spec 001 "Cloud calendar event"). */
export const CloudCalendarAnswer = t.type(
  {
    calendars: t.array(t.type({ id: t.string, name: t.string, color: t.union([t.string, t.null]) })),
    events: t.array(t.type({ id: t.string, start: t.string, end: t.string, name: t.string, calendarId: t.string, url: t.union([t.string, t.null]) })),
  },
  'cloud calendar',
);
export type CloudCalendarAnswer = t.TypeOf<typeof CloudCalendarAnswer>;
