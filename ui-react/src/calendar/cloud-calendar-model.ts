import { batch, signal } from '@preact/signals-react';
import type { CalendarEvent, CloudCalendarAnswer } from '@tessera/core/internal';

/**
 * The cloud calendars of the calendar view (spec 001 "Calendar": title bar command "cloud
 * calendars"; section 6: "events of the cloud calendar feed cannot be edited"). Shown on demand
 * (kept in session storage); the window is the view's: the selected month's first day -10/+40
 * days. Events come as `source: 'cloud'`, `canEdit: false`: the view neither drags nor resizes
 * them, and a click opens the event in Outlook (its webLink).
 */

export type CloudCalendarApi = { cloudCalendar(start: string, end: string, signal?: AbortSignal): Promise<CloudCalendarAnswer> };
export type Memory = { get(key: string): string | null; set(key: string, value: string | null): void };

export const CLOUD_CALENDARS_KEY = 'tessera.calendar.cloud';
const DAY = 86_400_000;

/** The events the calendar view draws beside its records' (one user, one set: not per entity). */
export const cloudEvents = signal<CalendarEvent[]>([]);

/** Spec 001 section 7: the calendar fetch window, the first of the month -10 / +40 days. */
export const cloudWindow = (year: number, month: number): { start: string; end: string } => {
  const first = Date.UTC(year, month - 1, 1);
  return { start: new Date(first - 10 * DAY).toISOString(), end: new Date(first + 40 * DAY).toISOString() };
};

/** A cloud event as the view's event: never editable, its id kept apart from record ids. */
export const calendarEventOf = (e: CloudCalendarAnswer['events'][number]): CalendarEvent => {
  const start = new Date(e.start);
  const end = new Date(e.end);
  return {
    id: `cloud:${e.calendarId}:${e.id}`,
    start,
    end,
    name: e.name,
    ...(e.url ? { url: e.url } : {}),
    color: 'grey',
    duration: Math.max(0, Math.round((end.getTime() - start.getTime()) / 60_000)),
    canEdit: false,
    source: 'cloud',
  };
};

const message = (e: unknown): string => {
  const o = e as { text?: unknown; message?: unknown };
  const text = typeof o?.text === 'string' && o.text ? o.text : typeof o?.message === 'string' ? o.message : String(e);
  // The server's code before the spec's text: 'ERR_UPSTREAM: Unable to find user calendars: ...'.
  return text.replace(/^ERR_[A-Z_]+: /, '');
};

export const cloudCalendarModel = (api: CloudCalendarApi, memory: Memory) => {
  const shown = signal(memory.get(CLOUD_CALENDARS_KEY) === '1');
  const loading = signal(false);
  const error = signal('');
  let seq = 0;
  let abort: AbortController | null = null;

  const load = async (year: number, month: number): Promise<void> => {
    const n = ++seq;
    abort?.abort();
    if (!shown.value) {
      batch(() => {
        cloudEvents.value = [];
        error.value = '';
        loading.value = false;
      });
      return;
    }
    abort = new AbortController();
    const w = cloudWindow(year, month);
    loading.value = true;
    try {
      const answer = await api.cloudCalendar(w.start, w.end, abort.signal);
      if (n !== seq) return;
      batch(() => {
        cloudEvents.value = answer.events.map(calendarEventOf);
        error.value = '';
      });
    } catch (e) {
      if (n !== seq) return;
      batch(() => {
        cloudEvents.value = [];
        error.value = message(e);
      });
    } finally {
      if (n === seq) loading.value = false;
    }
  };

  const toggle = (year: number, month: number): Promise<void> => {
    shown.value = !shown.value;
    memory.set(CLOUD_CALENDARS_KEY, shown.value ? '1' : null);
    return load(year, month);
  };

  /** The view is gone: its events go with it. */
  const stop = (): void => {
    seq++;
    abort?.abort();
    cloudEvents.value = [];
  };

  return { shown, loading, error, load, toggle, stop };
};
