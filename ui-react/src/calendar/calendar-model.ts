import { batch, computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import type { CalendarEvent, CalendarMode, Caller, CivilDate, TimeSpan } from '../core.js';
import {
  calendarFieldsOf,
  calendarRequest,
  civilDateOf,
  daysShown,
  eventGroups,
  eventOf,
  formatCivil,
  instantAt,
  isCalendarMode,
  moveUpdate,
  parseCivil,
  stepDate,
} from '../core.js';
import type { ApiClient } from '../api/client.js';
import type { ListModel, ListMemory } from '../list/list-model.js';

/**
 * The calendar as a model of signals (spec 001 section 2, view mode 2). It follows the list model:
 * the list's fetch of the moment (`currentRequest()`: view query, quick filters, search) narrowed
 * to the window of the selected month (-10 / +40 days, 500 events) gives the events. The selected
 * date and the view mode last for the browser session; hidden groups are kept in local storage.
 * A move or resize is optimistic and carries the event's version: a failed save (a stale version
 * too) puts the event back and keeps the error for the error dialog. No DOM: tested in vitest.
 */

export type CalendarApi = Pick<ApiClient, 'fetch' | 'update'>;

/** A move that failed: the event (back at its old time) and why. */
export type CalendarFailure = { id: string; name: string; error: unknown };

export type CalendarModelOptions = {
  api: CalendarApi;
  list: ListModel;
  caller: () => Caller;
  /** session storage (selected date, mode) */
  memory: ListMemory;
  /** local storage (hidden groups) */
  lasting: ListMemory;
  now?: () => Date;
  timeZone?: string;
  refreshDelayMs?: number;
};

export type CalendarModel = ReturnType<typeof calendarModel>;

export const calendarModeKey = (entity: string) => `tessera.calendar.mode.${entity}`;
export const calendarDateKey = (entity: string) => `tessera.calendar.date.${entity}`;
export const hiddenGroupsKey = (entity: string) => `tessera.calendar.hiddenGroups.${entity}`;

export const calendarModel = ({
  api,
  list,
  caller,
  memory,
  lasting,
  now = () => new Date(),
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  refreshDelayMs = 300,
}: CalendarModelOptions) => {
  const entity = list.entity;
  const name = untracked(() => entity.value.logicalName);
  const fields = computed(() => calendarFieldsOf(entity.value, list.view.value?.body));

  const storedMode = memory.get(calendarModeKey(name));
  const mode = signal<CalendarMode>(isCalendarMode(storedMode) ? storedMode : 'week');
  const storedDate = parseCivil(memory.get(calendarDateKey(name)) ?? '');
  const selected = signal<CivilDate>(storedDate._tag === 'Right' ? storedDate.right : civilDateOf(now(), timeZone));
  const readHidden = (): ReadonlySet<string> => {
    try {
      const v = JSON.parse(lasting.get(hiddenGroupsKey(name)) ?? '[]') as unknown;
      return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  };
  const hidden = signal<ReadonlySet<string>>(readHidden());
  const events = signal<CalendarEvent[] | null>(null);
  const loading = signal(false);
  const loadError = signal<unknown>(null);
  const failure = signal<CalendarFailure | null>(null);
  const saving = signal<ReadonlySet<string>>(new Set());

  const days = computed(() => daysShown(mode.value, selected.value));
  /** The month whose window is fetched: the selected date's (every day of every view lies in it). */
  const monthKey = computed(() => `${selected.value.year}-${selected.value.month}`);
  const groups = computed(() => (fields.value._tag === 'MissingField' || !('group' in fields.value) || !fields.value.group ? [] : eventGroups(events.value ?? [])));
  const visibleGroups = computed(() => groups.value.filter((g) => !hidden.value.has(g.key)));
  const shownEvents = computed(() => (events.value ?? []).filter((e) => e.group === undefined || !hidden.value.has(e.group)));
  const canCreate = computed(() => list.canNew.value && fields.value._tag !== 'MissingField');

  let seq = 0;
  let wanted = false;
  const load = async (): Promise<void> => {
    const f = fields.value;
    if (f._tag === 'MissingField') return;
    if (saving.value.size > 0) {
      wanted = true; // a reload while a move saves would show the old time: load once it settles
      return;
    }
    const n = ++seq;
    const current = list.currentRequest();
    if (current._tag === 'NoResults') {
      batch(() => {
        events.value = [];
        loadError.value = null;
      });
      return;
    }
    const s = selected.value;
    const shown = instantAt({ year: s.year, month: s.month, day: 1 }, 12, 0, timeZone);
    loading.value = true;
    try {
      const answer = await api.fetch(calendarRequest(current.request, entity.value, f, caller(), shown, timeZone));
      if (n !== seq) return;
      batch(() => {
        events.value = answer.records.flatMap((r) => {
          const e = eventOf(r as never, entity.value, f, caller());
          return e ? [e] : [];
        });
        loadError.value = null;
      });
    } catch (e) {
      if (n !== seq) return;
      batch(() => {
        loadError.value = e;
        events.value = events.value ?? [];
      });
    } finally {
      if (n === seq) loading.value = false;
    }
  };

  /**
   * Moves or resizes an event (spec 001 section 2): it takes its new time at once; the save sends
   * the new start and end with the version read. On failure it returns to its old time and
   * `failure` holds the error. Either way the calendar reads its events again (the new version).
   */
  const move = async (id: string, span: TimeSpan): Promise<'Moved' | 'Failed' | 'Refused'> => {
    const f = fields.value;
    const before = events.value?.find((e) => e.id === id);
    if (f._tag === 'MissingField' || !before || !before.canEdit || before.source !== 'record' || saving.value.has(id)) return 'Refused';
    if (before.start.getTime() === span.start.getTime() && before.end.getTime() === span.end.getTime()) return 'Refused';
    const duration = Math.round((span.end.getTime() - span.start.getTime()) / 60_000);
    batch(() => {
      events.value = (events.value ?? []).map((e) => (e.id === id ? { ...e, start: span.start, end: span.end, duration } : e));
      failure.value = null;
      saving.value = new Set([...saving.value, id]);
    });
    let result: 'Moved' | 'Failed' = 'Moved';
    try {
      await api.update('update', name, moveUpdate(before, f, span));
    } catch (error) {
      result = 'Failed';
      batch(() => {
        events.value = (events.value ?? []).map((e) => (e.id === id ? before : e));
        failure.value = { id, name: before.name, error };
      });
    } finally {
      const rest = new Set(saving.value);
      rest.delete(id);
      saving.value = rest;
    }
    wanted = false;
    await load();
    return result;
  };

  let refresh: ReturnType<typeof setTimeout> | undefined;
  const serverChanged = () => {
    clearTimeout(refresh);
    refresh = setTimeout(() => void load(), refreshDelayMs);
  };

  /** Follows the list's fetch and the selected month: loads now and on every change; remembers date and mode. Returns the stop function. */
  const start = (): (() => void) => {
    const stopLoading = effect(() => {
      void [fields.value, monthKey.value, list.currentRequest()];
      untracked(() => void load());
    });
    const stopRemembering = effect(() => {
      memory.set(calendarModeKey(name), mode.value);
      memory.set(calendarDateKey(name), formatCivil(selected.value));
    });
    const stopWanted = effect(() => {
      if (saving.value.size === 0 && wanted) {
        wanted = false;
        untracked(() => void load());
      }
    });
    return () => {
      stopLoading();
      stopRemembering();
      stopWanted();
      clearTimeout(refresh);
      seq++;
    };
  };

  return {
    fields,
    mode: mode as ReadonlySignal<CalendarMode>,
    selected: selected as ReadonlySignal<CivilDate>,
    days,
    events: events as ReadonlySignal<CalendarEvent[] | null>,
    shownEvents,
    groups,
    visibleGroups,
    hidden: hidden as ReadonlySignal<ReadonlySet<string>>,
    loading: loading as ReadonlySignal<boolean>,
    loadError: loadError as ReadonlySignal<unknown>,
    failure: failure as ReadonlySignal<CalendarFailure | null>,
    saving: saving as ReadonlySignal<ReadonlySet<string>>,
    canCreate,
    timeZone,
    now,
    setMode: (m: CalendarMode) => (mode.value = m),
    select: (d: CivilDate) => (selected.value = d),
    back: () => (selected.value = stepDate(mode.value, selected.value, -1)),
    forward: () => (selected.value = stepDate(mode.value, selected.value, 1)),
    today: () => (selected.value = civilDateOf(now(), timeZone)),
    /** Shows or hides groups (kept in local storage). */
    setHidden: (keys: ReadonlySet<string>) => {
      hidden.value = new Set(keys);
      lasting.set(hiddenGroupsKey(name), JSON.stringify([...keys]));
    },
    load,
    move,
    serverChanged,
    start,
    dismissFailure: () => (failure.value = null),
  };
};
