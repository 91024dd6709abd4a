import { hasFlag, primaryKeyOf, type Entity, type EntityRecord, type FieldValue, type Property } from '../metadata/entity.js';
import { optionsOf } from '../metadata/field-values.js';
import type { ListView } from '../metadata/view.js';
import { canAccess, customOwnerFields, ownerFieldOf } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import type { FetchRequest, Filter } from '../query/query.js';
import { calendarFetchWindow, calendarWindowConditions } from './calendar-window.js';

/**
 * The calendar's events (spec 001 section 2, view mode 2): what a record becomes on the calendar,
 * its colour, the fetch that reads a month's window, and who may create and move.
 */

/** Spec 001 section 9: the calendar reads up to 500 events a window. */
export const CALENDAR_PAGE_SIZE = 500;

/** Spec 001 section 2 event fields: start, end, name, url, color, icon, duration, canEdit, id, type, status (plus the group). */
export type CalendarEvent = {
  id: string;
  start: Date;
  end: Date;
  name: string;
  url?: string;
  color: EventColor;
  icon?: string;
  /** minutes */
  duration: number;
  canEdit: boolean;
  type?: string;
  status?: string;
  /** the group key (the lookup's id, '' for none) when the view groups */
  group?: string;
  groupLabel?: string;
  /** where the event comes from: a record, or a cloud calendar (never editable) */
  source: 'record' | 'cloud';
  /** the record's version as read (the wire sends it as a string), sent with a move: the version check */
  version?: string | number;
};

export type EventColor = 'red' | 'grey' | 'blue';

/** Spec 001 section 2: red when the type is Meeting and the status Canceled, grey for other types, blue by default. */
export const eventColor = (type: string | undefined, status: string | undefined): EventColor => {
  if (type === undefined || type === '') return 'blue';
  if (type !== 'Meeting') return 'grey';
  return status === 'Canceled' ? 'red' : 'blue';
};

/** The calendar fields of a view: start and end (defaults scheduledstart / scheduledend), the optional group lookup. */
export type CalendarFields = { _tag?: 'Fields'; start: string; end: string; group?: string };

export type CalendarFieldProblem = { _tag: 'MissingField'; field: string };

/** The view's calendar fields, checked against the entity (the start and end must be dates; the group a lookup). */
export const calendarFieldsOf = (entity: Entity, view: Pick<ListView, 'calendarStartField' | 'calendarEndField' | 'calendarGroupField'> | undefined): (CalendarFields & { _tag: 'Fields' }) | CalendarFieldProblem => {
  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const start = view?.calendarStartField ?? 'scheduledstart';
  const end = view?.calendarEndField ?? 'scheduledend';
  for (const f of [start, end]) {
    const p = props.get(f);
    if (!p || p.type !== 'DateTime') return { _tag: 'MissingField', field: f };
  }
  const g = view?.calendarGroupField;
  const group = g && props.get(g)?.type === 'Lookup' ? g : undefined;
  return { _tag: 'Fields', start, end, ...(group ? { group } : {}) };
};

/** The type and status fields the colour rule reads: fields named `type` and `status` (their option labels). */
const TYPE_FIELD = 'type';
const STATUS_FIELD = 'status';

/** The attributes the calendar reads besides the list's: key, version, fields, name, type, status, owner and team (for canEdit). */
export const calendarAttributes = (entity: Entity, fields: CalendarFields, caller: Caller): string[] => {
  const known = new Set(entity.properties.map((p) => p.logicalName));
  const wanted = [
    primaryKeyOf(entity),
    'versionnumber',
    fields.start,
    fields.end,
    ...(fields.group ? [fields.group] : []),
    'name',
    TYPE_FIELD,
    STATUS_FIELD,
    ownerFieldOf(entity.logicalName),
    'teamid',
    ...customOwnerFields(caller.permissions, entity.logicalName, 'update'),
  ];
  return [...new Set(wanted)].filter((a) => known.has(a) || a === primaryKeyOf(entity) || a === 'versionnumber');
};

/**
 * The calendar's fetch (spec 001 section 9): the list's fetch of the moment (view query, quick
 * filters, search) narrowed to the window of the shown month (end >= first - 10 days, start <=
 * first + 40 days), ordered by start, 500 a page, without the count.
 */
export const calendarRequest = (list: FetchRequest, entity: Entity, fields: CalendarFields, caller: Caller, shown: Date, timeZone: string): FetchRequest => {
  const window: Filter = { type: 'and', conditions: calendarWindowConditions(calendarFetchWindow(shown, timeZone), fields.start, fields.end) };
  const q = list.entity;
  const attributes = q.allattrs === true || q.attributes === undefined ? q.attributes : mergeAttributes(q.attributes, calendarAttributes(entity, fields, caller));
  return {
    ...list,
    entity: { ...q, ...(attributes ? { attributes } : {}), filter: q.filter ? { type: 'and', filters: [q.filter, window] } : window },
    page: 1,
    pageSize: CALENDAR_PAGE_SIZE,
    count: false,
    orders: [{ attribute: fields.start, descending: false }],
  };
};

const mergeAttributes = <A extends { attribute: string; alias?: string }>(have: readonly A[], wanted: readonly string[]): Array<A | { attribute: string }> => [
  ...have,
  ...wanted.filter((a) => !have.some((x) => x.attribute === a && x.alias === undefined)).map((attribute) => ({ attribute })),
];

const optionLabel = (p: Property | undefined, v: FieldValue | undefined): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object') return v.label ?? v.name;
  if (p && typeof v === 'number') return optionsOf(p).find((o) => o.value === v)?.label ?? String(v);
  return String(v);
};

const instantOf = (v: FieldValue | undefined): Date | null => {
  if (typeof v !== 'string') return null;
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Whether the caller may move this record's event: update permission on it and both date fields writable. */
export const mayMoveEvent = (caller: Caller, entity: Entity, fields: CalendarFields, record: EntityRecord): boolean => {
  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const writable = [fields.start, fields.end].every((f) => {
    const p = props.get(f);
    return !!p && !hasFlag(p, 'AutoNumber');
  });
  return writable && canAccess(caller, 'update', entity.logicalName, record);
};

/**
 * A record as a calendar event, or null when it has no start. A missing or earlier end makes a
 * one-hour event (the grid's default length).
 */
export const eventOf = (record: EntityRecord, entity: Entity, fields: CalendarFields, caller: Caller): CalendarEvent | null => {
  const start = instantOf(record[fields.start]);
  if (!start) return null;
  const rawEnd = instantOf(record[fields.end]);
  const end = rawEnd && rawEnd.getTime() >= start.getTime() ? rawEnd : new Date(start.getTime() + 3_600_000);
  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const type = optionLabel(props.get(TYPE_FIELD), record[TYPE_FIELD]);
  const status = optionLabel(props.get(STATUS_FIELD), record[STATUS_FIELD]);
  const g = fields.group ? record[fields.group] : undefined;
  const id = String(record[primaryKeyOf(entity)] ?? record.id ?? '');
  const version = typeof record.versionnumber === 'number' || typeof record.versionnumber === 'string' ? record.versionnumber : undefined;
  return {
    id,
    start,
    end,
    name: String(record.name ?? ''),
    color: eventColor(type, status),
    duration: Math.round((end.getTime() - start.getTime()) / 60_000),
    canEdit: mayMoveEvent(caller, entity, fields, record),
    source: 'record',
    ...(type !== undefined ? { type } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(fields.group ? { group: g && typeof g === 'object' ? g.id : '', groupLabel: g && typeof g === 'object' ? (g.label ?? g.name) : '' } : {}),
    ...(version !== undefined ? { version } : {}),
  };
};

/** The groups the events fall in, in order of their labels (the group without a value last). */
export const eventGroups = (events: readonly CalendarEvent[]): { key: string; label: string }[] => {
  const seen = new Map<string, string>();
  for (const e of events) if (e.group !== undefined && !seen.has(e.group)) seen.set(e.group, e.groupLabel ?? '');
  return [...seen.entries()]
    .map(([key, label]) => ({ key, label }))
    .sort((a, b) => (a.key === '' ? 1 : b.key === '' ? -1 : a.label.localeCompare(b.label)));
};

/** The update a move or a resize sends: the new start and end with the version the event was read at (the server's version check). */
export const moveUpdate = (event: Pick<CalendarEvent, 'id' | 'version'>, fields: CalendarFields, span: { start: Date; end: Date }): EntityRecord => ({
  id: event.id,
  ...(event.version !== undefined ? { versionnumber: event.version } : {}),
  [fields.start]: span.start.toISOString(),
  [fields.end]: span.end.toISOString(),
});
