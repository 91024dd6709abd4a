import { addDays, addMonths, compareCivil, startOfWeek, type CivilDate } from './civil.js';
import { civilDateOf, instantAt, wallTimeOf } from './zoned.js';

/**
 * The calendar's grids (spec 001 section 2, view mode 2): which days a view shows, how it steps
 * back and forward, and the 96 rows of 15 minutes of a day. Weeks start on Monday; the views span
 * 1, 3, 5 (the working week) or 7 days, and the month view shows the whole weeks of its month.
 */

export const CALENDAR_MODES = ['month', 'week', 'workweek', 'threeday', 'day'] as const;
export type CalendarMode = (typeof CALENDAR_MODES)[number];

export const isCalendarMode = (s: unknown): s is CalendarMode => typeof s === 'string' && (CALENDAR_MODES as readonly string[]).includes(s);

/** Spec 001 section 9: 96 rows a day, of 15 minutes. */
export const SLOT_MINUTES = 15;
export const SLOTS_PER_DAY = 96;
export const MINUTES_PER_DAY = 1440;
/** Spec 001 section 9: a month cell creates 09:00 to 10:00; a grid creates events of one hour. */
export const MONTH_EVENT_START_HOUR = 9;
export const DEFAULT_EVENT_MINUTES = 60;

/** How many days a time-grid view spans (the month view is drawn by weeks instead). */
export const spanOf = (mode: Exclude<CalendarMode, 'month'>): number => ({ day: 1, threeday: 3, workweek: 5, week: 7 })[mode];

/**
 * The days a view shows around the selected date: a day view the date; three days from it; the
 * working week (Monday to Friday) or the week (Monday to Sunday) holding it; for a month the whole
 * weeks from the Monday on or before the first to the Sunday on or after the last (4 to 6 weeks).
 */
export const daysShown = (mode: CalendarMode, selected: CivilDate): CivilDate[] => {
  if (mode === 'month') {
    const first = { year: selected.year, month: selected.month, day: 1 };
    const start = startOfWeek(first);
    const last = addDays(addMonths(first, 1), -1);
    const end = addDays(startOfWeek(last), 6);
    const out: CivilDate[] = [];
    for (let d = start; compareCivil(d, end) <= 0; d = addDays(d, 1)) out.push(d);
    return out;
  }
  const start = mode === 'week' || mode === 'workweek' ? startOfWeek(selected) : selected;
  return Array.from({ length: spanOf(mode) }, (_, i) => addDays(start, i));
};

/** Back (-1) or forward (+1) by the view's length: a month, a week (both week views), three days or a day. */
export const stepDate = (mode: CalendarMode, selected: CivilDate, direction: -1 | 1): CivilDate => {
  if (mode === 'month') return addMonths(selected, direction);
  return addDays(selected, direction * (mode === 'week' || mode === 'workweek' ? 7 : mode === 'threeday' ? 3 : 1));
};

/** Snaps minutes to the nearest 15-minute slot (half a slot rounds up). Idempotent. */
export const snapMinutes = (minutes: number, step = SLOT_MINUTES): number => Math.round(minutes / step) * step;

/**
 * Snaps an instant to the nearest 15 minutes. Every zone's offset from UTC is a whole number of
 * quarter hours, so a quarter hour of UTC is a quarter hour of the wall clock.
 */
export const snapInstant = (instant: Date, step = SLOT_MINUTES): Date => new Date(Math.round(instant.getTime() / (step * 60_000)) * step * 60_000);

/** The wall-clock minute of the day an instant shows at in a zone (0 to 1439). */
export const minuteOfDay = (instant: Date, timeZone: string): number => {
  const w = wallTimeOf(instant, timeZone);
  return w.hour * 60 + w.minute + w.second / 60;
};

/** The slot (row 0 to 95) a wall-clock minute falls in. */
export const slotOfMinute = (minute: number): number => Math.min(SLOTS_PER_DAY - 1, Math.max(0, Math.floor(minute / SLOT_MINUTES)));

/** The instant a slot of a day starts at, in a zone. */
export const slotStart = (day: CivilDate, slot: number, timeZone: string): Date => {
  const m = Math.max(0, Math.min(SLOTS_PER_DAY - 1, Math.floor(slot))) * SLOT_MINUTES;
  return instantAt(day, Math.floor(m / 60), m % 60, timeZone);
};

export type TimeSpan = { start: Date; end: Date };

/**
 * What a double click creates (spec 001 section 2): in a month cell 09:00 to 10:00 of that day; in
 * a time grid one hour from the slot clicked.
 */
export const newEventSpan = (day: CivilDate, slot: number | undefined, timeZone: string): TimeSpan => {
  const start = slot === undefined ? instantAt(day, MONTH_EVENT_START_HOUR, 0, timeZone) : slotStart(day, slot, timeZone);
  return { start, end: new Date(start.getTime() + DEFAULT_EVENT_MINUTES * 60_000) };
};

/**
 * A drag that moves an event: `days` whole days (a column change, wall clock kept) and `minutes`
 * within the day, the new start snapped to 15 minutes. The duration is kept.
 */
export const movedSpan = (span: TimeSpan, days: number, minutes: number, timeZone: string): TimeSpan => {
  const w = wallTimeOf(span.start, timeZone);
  const day = addDays({ year: w.year, month: w.month, day: w.day }, days);
  const sameWall = instantAt(day, w.hour, w.minute, timeZone).getTime() + w.second * 1000 + w.millisecond;
  const start = snapInstant(new Date(sameWall + minutes * 60_000));
  return { start, end: new Date(start.getTime() + (span.end.getTime() - span.start.getTime())) };
};

/** A drag of the bottom edge: the end moves by `minutes`, snapped to 15 minutes, and stays at least one slot after the start. */
export const resizedSpan = (span: TimeSpan, minutes: number): TimeSpan => {
  const end = snapInstant(new Date(span.end.getTime() + minutes * 60_000));
  const min = span.start.getTime() + SLOT_MINUTES * 60_000;
  return { start: span.start, end: new Date(Math.max(end.getTime(), min)) };
};

/** The part of an event inside one day of the grid, in minutes of the wall clock (an event over midnight shows on each day). */
export type DaySegment = { top: number; bottom: number; startsBefore: boolean; endsAfter: boolean };

export const segmentOnDay = (span: TimeSpan, day: CivilDate, timeZone: string): DaySegment | null => {
  const dayStart = instantAt(day, 0, 0, timeZone).getTime();
  const dayEnd = instantAt(addDays(day, 1), 0, 0, timeZone).getTime();
  const s = span.start.getTime();
  // A zero-length event still shows on its day (as one slot).
  const e = Math.max(span.end.getTime(), s + 1);
  if (e <= dayStart || s >= dayEnd) return null;
  const startsBefore = s < dayStart;
  const endsAfter = e > dayEnd;
  const top = startsBefore ? 0 : minuteOfDay(span.start, timeZone);
  const end = e >= dayEnd ? MINUTES_PER_DAY : minuteOfDay(new Date(e), timeZone);
  // At least one slot high, so a short event can still be seen and grabbed.
  const bottom = Math.min(MINUTES_PER_DAY, Math.max(end, top + SLOT_MINUTES));
  return { top: Math.min(top, MINUTES_PER_DAY - SLOT_MINUTES), bottom, startsBefore, endsAfter };
};

/** Whether an event touches a day (the month view lists it there). */
export const onDay = (span: TimeSpan, day: CivilDate, timeZone: string): boolean => segmentOnDay(span, day, timeZone) !== null;

/**
 * Side-by-side columns for the events of one day column: events that overlap share the width.
 * Answers, per input index, its column and the column count of its cluster (overlapping chain).
 */
export const overlapColumns = (segments: readonly { top: number; bottom: number }[]): { column: number; columns: number }[] => {
  const order = segments.map((s, i) => ({ ...s, i })).sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const out: { column: number; columns: number }[] = segments.map(() => ({ column: 0, columns: 1 }));
  let cluster: { i: number; column: number }[] = [];
  let ends: number[] = [];
  let clusterEnd = -1;
  const close = () => {
    for (const c of cluster) out[c.i] = { column: c.column, columns: ends.length };
    cluster = [];
    ends = [];
  };
  for (const s of order) {
    if (s.top >= clusterEnd) close();
    let column = ends.findIndex((end) => end <= s.top);
    if (column === -1) column = ends.push(s.bottom) - 1;
    else ends[column] = s.bottom;
    cluster.push({ i: s.i, column });
    clusterEnd = Math.max(clusterEnd, s.bottom);
  }
  close();
  return out;
};

/** The date the keyboard selection lands on after an arrow key: left/right a day, up/down a week in the month view. */
export const arrowStep = (mode: CalendarMode, key: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown'): number =>
  key === 'ArrowLeft' ? -1 : key === 'ArrowRight' ? 1 : mode === 'month' ? (key === 'ArrowUp' ? -7 : 7) : 0;

/** Today in the zone, as the grid's civil date. */
export const todayIn = (now: Date, timeZone: string): CivilDate => civilDateOf(now, timeZone);
