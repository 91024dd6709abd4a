import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useNavigate } from 'react-router';
import type { CalendarEvent, CalendarMode, CivilDate, EntityRecord, TimeSpan } from '../core.js';
import { addDays, arrowStep, CALENDAR_MODES, civilDateOf, formatCivil, minuteOfDay, movedSpan, newEventSpan, overlapColumns, resizedSpan, segmentOnDay, SLOT_MINUTES, SLOTS_PER_DAY, snapMinutes } from '../core.js';
import { useApi } from '../api/context.js';
import { ServerError } from '../api/client.js';
import { useT } from '../i18n.js';
import { locale } from '../format.js';
import { caller } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { local, session } from '../state/storage.js';
import { alertDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { useQuickCreate } from '../form/quick-create.js';
import type { ViewBodyProps } from '../list/view-bodies.js';
import { calendarModel, type CalendarModel } from './calendar-model.js';

/**
 * The calendar body of the list screen (spec 001 section 2, view mode 2): month, week, working
 * week, three-day and day views of the view's records between its start and end fields. Week grids
 * have 96 rows of 15 minutes; a double click creates (a month cell 09:00-10:00, a grid one hour)
 * in the create-record dialog; an event the user may update is dragged to move it and by its
 * bottom edge to resize it (snapped to 15 minutes, saved with its version); a failed save puts it
 * back and says why in an error dialog. The red line is now.
 */

/** Pixels of one 15-minute row (an hour is four). */
const ROW_PX = 12;
/** Pixels the pointer moves before a press becomes a drag (a click still opens the event). */
const DRAG_START = 4;
const scrollKey = (entity: string) => `tessera.calendar.scroll.${entity}`;

/**
 * Items of the title bar before the mode (spec 001: "cloud calendars, when configured"). The cloud
 * calendar feature registers its picker here; its events come with `source: 'cloud'` and are never
 * editable (the model refuses to move them).
 */
import { CloudCalendarsButton } from './cloud-calendars-button.js';
import { cloudEvents } from './cloud-calendar-model.js';
export const CALENDAR_BAR_ITEMS: ComponentType<{ calendar: CalendarModel }>[] = [CloudCalendarsButton];

const MODE_LABELS = { month: 'LblCalMonth', week: 'LblCalWeek', workweek: 'LblCalWorkWeek', threeday: 'LblCalThreeDay', day: 'LblCalDay' } as const;

const CalendarView = ({ model: list, linkOf }: ViewBodyProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const calendar = useMemo(() => calendarModel({ api, list, caller: () => caller.value!, memory: session, lasting: local }), [api, list]);
  useEffect(() => calendar.start(), [calendar]);
  const name = list.entity.value.logicalName;
  useEffect(() => {
    const ev = objectChangedEvent(name);
    window.addEventListener(ev, calendar.serverChanged);
    return () => window.removeEventListener(ev, calendar.serverChanged);
  }, [name, calendar]);

  // Spec 001 section 10: a failed move shows an error dialog with the message, or 'Unkown error'.
  const failure = calendar.failure.value;
  useEffect(() => {
    if (!failure) return;
    const message = messageOf(failure.error) || t('MsgCalUnknownError');
    void alertDialog(message, t('CmdOk'), t('MsgCalMoveFailed', { name: failure.name })).then(calendar.dismissFailure);
  }, [failure, calendar, t]);

  const fields = calendar.fields.value;
  if (fields._tag === 'MissingField') {
    return (
      <p className="empty cal-problem" role="alert">
        {t('MsgCalNoField', { field: fields.field })}
      </p>
    );
  }
  return <Calendar calendar={calendar} list={list} linkOf={linkOf} />;
};
export default CalendarView;

/** What a failure says: a server's text (code and message), else the error's message. */
const messageOf = (e: unknown): string => (e instanceof ServerError ? e.text || e.message : e instanceof Error ? e.message : typeof e === 'string' ? e : '');

/** A civil date as a Date for Intl (noon UTC, formatted in UTC). */
const asDate = (d: CivilDate) => new Date(Date.UTC(d.year, d.month - 1, d.day, 12));
const sameDay = (a: CivilDate, b: CivilDate) => a.year === b.year && a.month === b.month && a.day === b.day;

type Drag = { id: string; kind: 'move' | 'resize'; pointerId: number; x: number; y: number; day: number; started: boolean; span: TimeSpan; month: boolean };

const Calendar = ({ calendar, list, linkOf }: { calendar: CalendarModel; list: ViewBodyProps['model']; linkOf: ViewBodyProps['linkOf'] }) => {
  useSignals();
  const t = useT();
  const navigate = useNavigate();
  const QuickCreate = useQuickCreate();
  const entity = list.entity.value;
  const tz = calendar.timeZone;
  const mode = calendar.mode.value;
  const days = calendar.days.value;
  const selected = calendar.selected.value;
  // Cloud calendar events (read-only, source 'cloud') beside the records' (issue 18).
  const events = [...calendar.shownEvents.value, ...cloudEvents.value];
  const groups = calendar.groups.value;
  const visibleGroups = calendar.visibleGroups.value;
  const fields = calendar.fields.value;
  const groupField = fields._tag === 'MissingField' ? undefined : fields.group;
  const [creating, setCreating] = useState<EntityRecord | null>(null);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [preview, setPreview] = useState<{ id: string; span: TimeSpan } | null>(null);
  const [announce, setAnnounce] = useState('');
  const drag = useRef<Drag | null>(null);
  const root = useRef<HTMLDivElement | null>(null);
  const now = useNow(calendar.now);

  const timeFmt = useMemo(() => new Intl.DateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit', timeZone: tz }), [tz, t]);
  const dayFmt = useMemo(() => new Intl.DateTimeFormat(locale(), { weekday: 'short', day: 'numeric', month: 'numeric', timeZone: 'UTC' }), [t]);
  const longDayFmt = useMemo(() => new Intl.DateTimeFormat(locale(), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }), [t]);
  const timeText = (e: Pick<CalendarEvent, 'start' | 'end'>) => {
    const sameDate = sameDay(civilDateOf(e.start, tz), civilDateOf(e.end, tz));
    const full = new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: tz });
    return sameDate ? `${full.format(e.start)} – ${timeFmt.format(e.end)}` : `${full.format(e.start)} – ${full.format(e.end)}`;
  };
  const title = useMemo(() => {
    if (mode === 'month') return new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(asDate(selected));
    const f = new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    return days.length === 1 ? longDayFmt.format(asDate(days[0])) : f.formatRange(asDate(days[0]), asDate(days[days.length - 1]));
  }, [mode, selected, days, longDayFmt, t]);

  const spanOf = (e: CalendarEvent): TimeSpan => (preview?.id === e.id ? preview.span : e);
  const open = (e: CalendarEvent) => {
    if (e.url) window.open(e.url, '_blank', 'noopener');
    else navigate(linkOf({ id: e.id }));
  };

  /** Double click: the create-record dialog with the new event's start and end (and the group's lookup). */
  const create = (day: CivilDate, slot: number | undefined, group?: string) => {
    if (!calendar.canCreate.value || fields._tag === 'MissingField') return;
    const span = newEventSpan(day, slot, tz);
    const init: EntityRecord = { [fields.start]: span.start.toISOString(), [fields.end]: span.end.toISOString() };
    const target = groupField ? entity.properties.find((p) => p.logicalName === groupField)?.targets?.[0] : undefined;
    const g = group !== undefined && group !== '' ? groups.find((x) => x.key === group) : undefined;
    if (groupField && target && g) init[groupField] = { id: g.key, name: target, label: g.label };
    setCreating(init);
  };

  // Dragging: pointer events (mouse, pen, finger), the column under the pointer is the day; Escape cancels.
  const dayUnder = (x: number, y: number): number | null => {
    for (const el of document.elementsFromPoint(x, y)) {
      const d = (el as HTMLElement).dataset?.dayIndex;
      if (d !== undefined) return Number(d);
    }
    return null;
  };
  const spanAt = (d: Drag, x: number, y: number): TimeSpan => {
    const minutes = d.month ? 0 : snapMinutes(((y - d.y) / ROW_PX) * SLOT_MINUTES);
    if (d.kind === 'resize') return resizedSpan(d.span, minutes);
    const over = dayUnder(x, y);
    return movedSpan(d.span, over === null ? 0 : over - d.day, minutes, tz);
  };
  /** A drag just ended: the click that follows the pointerup must not open the event. */
  const justDragged = useRef(false);
  // The window's listeners read the latest render's handlers (an event moving to another column is drawn anew).
  const handlers = useRef({ move: (_: PointerEvent) => {}, up: (_: PointerEvent) => {} });
  handlers.current = {
    move: (e) => {
      const d = drag.current;
      if (!d || d.pointerId !== e.pointerId) return;
      if (!d.started && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START) return;
      d.started = true;
      setPreview({ id: d.id, span: spanAt(d, e.clientX, e.clientY) });
    },
    up: (e) => {
      const d = drag.current;
      if (!d || d.pointerId !== e.pointerId) return;
      drag.current = null;
      if (!d.started) return;
      justDragged.current = true;
      setTimeout(() => (justDragged.current = false), 0);
      const span = spanAt(d, e.clientX, e.clientY);
      const ev = events.find((x) => x.id === d.id);
      void calendar.move(d.id, span).then((r) => {
        if (r === 'Moved' && ev) setAnnounce(t('MsgCalMoved', { name: ev.name, time: timeText(span) }));
      });
      setPreview(null);
    },
  };
  const onEventPointerDown = (e: ReactPointerEvent<HTMLElement>, ev: CalendarEvent, kind: 'move' | 'resize', dayIndex: number) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    if (!ev.canEdit || calendar.saving.value.has(ev.id)) return;
    e.preventDefault();
    drag.current = { id: ev.id, kind, pointerId: e.pointerId, x: e.clientX, y: e.clientY, day: dayIndex, started: false, span: { start: ev.start, end: ev.end }, month: mode === 'month' };
    const move = (pe: PointerEvent) => handlers.current.move(pe);
    const stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
    };
    const up = (pe: PointerEvent) => {
      stop();
      handlers.current.up(pe);
    };
    const cancel = () => {
      stop();
      drag.current = null;
      setPreview(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
  };
  useEffect(() => {
    const cancel = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && drag.current) {
        drag.current = null;
        setPreview(null);
      }
    };
    window.addEventListener('keydown', cancel);
    return () => window.removeEventListener('keydown', cancel);
  }, []);

  // Keyboard: arrows move the selected day (a week up and down in the month), Enter on a day opens it in the day view.
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('.cal-event')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const step = arrowStep(mode, e.key);
      if (step === 0) return;
      e.preventDefault();
      calendar.select(addDays(selected, step));
      requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('[data-selected="true"]')?.focus());
    } else if (e.key === 'Enter' && (e.target as HTMLElement).dataset.dayIndex !== undefined) {
      e.preventDefault();
      calendar.setMode('day');
    }
  };

  const eventProps = (ev: CalendarEvent, dayIndex: number) => ({
    'data-event-id': ev.id,
    role: 'button',
    tabIndex: 0,
    'aria-label': t('LblCalEvent', { name: ev.name || t('MsgUnknownTitle'), time: timeText(spanOf(ev)) }),
    title: `${ev.name}\n${timeText(spanOf(ev))}`,
    className: `cal-event cal-${ev.color}${ev.canEdit ? ' can-drag' : ''}${preview?.id === ev.id ? ' cal-dragging' : ''}${calendar.saving.value.has(ev.id) ? ' cal-saving' : ''}`,
    onPointerDown: (e: ReactPointerEvent<HTMLElement>) => onEventPointerDown(e, ev, 'move', dayIndex),
    onClick: (e: React.MouseEvent) => {
      e.stopPropagation();
      if (!justDragged.current) open(ev);
    },
    onDoubleClick: (e: React.MouseEvent) => e.stopPropagation(),
    onKeyDown: (e: ReactKeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(ev);
      }
    },
  });

  const loading = calendar.events.value === null;
  const loadError = calendar.loadError.value;
  return (
    <div className="calendar" ref={root} onKeyDown={onKeyDown} aria-busy={calendar.loading.value}>
      <span className="sr-only" aria-live="polite">
        {announce}
      </span>
      <div className="cal-bar" role="toolbar" aria-label={t('ModeCalendar')}>
        {CALENDAR_BAR_ITEMS.map((Item, i) => (
          <Item key={i} calendar={calendar} />
        ))}
        <label className="cal-mode">
          <span className="sr-only">{t('LblCalMode')}</span>
          <select value={mode} onChange={(e) => calendar.setMode(e.target.value as CalendarMode)} aria-label={t('LblCalMode')}>
            {CALENDAR_MODES.map((m) => (
              <option key={m} value={m}>
                {t(MODE_LABELS[m])}
              </option>
            ))}
          </select>
        </label>
        <div className="cal-nav">
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdCalBack')} title={t('CmdCalBack')} onClick={calendar.back}>
            <Icon name="chevronLeft" />
          </button>
          <button type="button" className="btn btn-plain" onClick={calendar.today}>
            {t('CmdCalToday')}
          </button>
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdCalForward')} title={t('CmdCalForward')} onClick={calendar.forward}>
            <Icon name="chevronRight" />
          </button>
        </div>
        <h2 className="cal-title" aria-live="polite">
          {title}
        </h2>
        {groups.length > 0 && (
          <button type="button" className="btn btn-plain cal-groups-btn" onClick={() => setGroupsOpen(true)}>
            <Icon name="filter" /> {t('CmdCalGroups')}
            {visibleGroups.length < groups.length && (
              <span className="badge" aria-label={`${visibleGroups.length}/${groups.length}`}>
                {visibleGroups.length}/{groups.length}
              </span>
            )}
          </button>
        )}
        {calendar.loading.value && <span className="spinner small" aria-hidden="true" />}
      </div>
      {loadError !== null && (
        <div className="kb-alert" role="alert">
          <Icon name="alert" />
          <span>{t('MsgListLoadFailed', { message: messageOf(loadError) || t('MsgCalUnknownError') })}</span>
          <button type="button" className="btn btn-plain" onClick={() => void calendar.load()}>
            <Icon name="refresh" /> {t('CmdRefresh')}
          </button>
        </div>
      )}
      {mode === 'month' ? (
        <MonthGrid
          days={days}
          selected={selected}
          today={civilDateOf(now, tz)}
          events={events}
          tz={tz}
          loading={loading}
          eventProps={eventProps}
          spanOf={spanOf}
          timeFmt={timeFmt}
          dayFmt={longDayFmt}
          onSelect={calendar.select}
          onCreate={(d) => create(d, undefined)}
          canCreate={calendar.canCreate.value}
          t={t}
        />
      ) : (
        <TimeGrid
          entity={entity.logicalName}
          days={days}
          selected={selected}
          now={now}
          tz={tz}
          events={events}
          groups={groupField ? visibleGroups : null}
          loading={loading}
          eventProps={eventProps}
          spanOf={spanOf}
          timeFmt={timeFmt}
          dayFmt={dayFmt}
          longDayFmt={longDayFmt}
          onSelect={calendar.select}
          onCreate={create}
          canCreate={calendar.canCreate.value}
          onResizeDown={onEventPointerDown}
          t={t}
        />
      )}
      {!loading && events.length === 0 && loadError === null && <p className="cal-empty muted small">{t('MsgCalNoEvents')}</p>}
      {creating && QuickCreate && (
        <Modal id="createRecordDialog" title={t('MsgNewRecord', { entity: entity.displayName })} onClose={() => setCreating(null)} wide>
          <Suspense fallback={<div className="spinner" />}>
            <QuickCreate
              entityName={entity.logicalName}
              formName=""
              init={creating}
              onClose={(created) => {
                setCreating(null);
                if (created) void calendar.load();
              }}
            />
          </Suspense>
        </Modal>
      )}
      {groupsOpen && <GroupsDialog calendar={calendar} onClose={() => setGroupsOpen(false)} />}
    </div>
  );
};

/** The current time, moved on every half minute (the red now-line follows). */
const useNow = (now: () => Date): Date => {
  const [value, setValue] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setValue(now()), 30_000);
    return () => clearInterval(timer);
  }, [now]);
  return value;
};

type Translate = ReturnType<typeof useT>;
type EventProps = (ev: CalendarEvent, dayIndex: number) => Record<string, unknown>;

const MonthGrid = ({
  days,
  selected,
  today,
  events,
  tz,
  loading,
  eventProps,
  spanOf,
  timeFmt,
  dayFmt,
  onSelect,
  onCreate,
  canCreate,
  t,
}: {
  days: CivilDate[];
  selected: CivilDate;
  today: CivilDate;
  events: readonly CalendarEvent[];
  tz: string;
  loading: boolean;
  eventProps: EventProps;
  spanOf: (e: CalendarEvent) => TimeSpan;
  timeFmt: Intl.DateTimeFormat;
  dayFmt: Intl.DateTimeFormat;
  onSelect: (d: CivilDate) => void;
  onCreate: (d: CivilDate) => void;
  canCreate: boolean;
  t: Translate;
}) => {
  const weekdays = new Intl.DateTimeFormat(locale(), { weekday: 'short', timeZone: 'UTC' });
  const byDay = days.map((d) =>
    events
      .filter((e) => segmentOnDay(spanOf(e), d, tz) !== null)
      .sort((a, b) => spanOf(a).start.getTime() - spanOf(b).start.getTime()),
  );
  return (
    <div className="cal-month" role="grid" aria-readonly={!canCreate}>
      <div className="cal-month-head" role="row">
        {days.slice(0, 7).map((d) => (
          <span key={formatCivil(d)} role="columnheader" className="cal-wd">
            {weekdays.format(asDate(d))}
          </span>
        ))}
      </div>
      <div className="cal-month-body">
        {days.map((d, i) => {
          const isSelected = sameDay(d, selected);
          const other = d.month !== selected.month;
          return (
            <div
              key={formatCivil(d)}
              role="gridcell"
              className={`cal-cell${other ? ' cal-other' : ''}${sameDay(d, today) ? ' cal-today' : ''}${isSelected ? ' cal-selected' : ''}`}
              data-day-index={i}
              data-date={formatCivil(d)}
              data-selected={isSelected}
              tabIndex={isSelected ? 0 : -1}
              aria-label={dayFmt.format(asDate(d))}
              aria-selected={isSelected}
              onClick={() => onSelect(d)}
              onDoubleClick={() => onCreate(d)}
            >
              <span className="cal-daynum" aria-hidden="true">
                {d.day}
              </span>
              {loading ? (
                i % 5 === 2 && <span className="skeleton short" />
              ) : (
                <div className="cal-cell-events">
                  {byDay[i].map((e) => (
                    <div key={e.id} {...eventProps(e, i)}>
                      <span className="cal-time">{timeFmt.format(spanOf(e).start)}</span> <span className="cal-name">{e.name || t('MsgUnknownTitle')}</span>
                    </div>
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
};

const TimeGrid = ({
  entity,
  days,
  selected,
  now,
  tz,
  events,
  groups,
  loading,
  eventProps,
  spanOf,
  timeFmt,
  dayFmt,
  longDayFmt,
  onSelect,
  onCreate,
  canCreate,
  onResizeDown,
  t,
}: {
  entity: string;
  days: CivilDate[];
  selected: CivilDate;
  now: Date;
  tz: string;
  events: readonly CalendarEvent[];
  groups: { key: string; label: string }[] | null;
  loading: boolean;
  eventProps: EventProps;
  spanOf: (e: CalendarEvent) => TimeSpan;
  timeFmt: Intl.DateTimeFormat;
  dayFmt: Intl.DateTimeFormat;
  longDayFmt: Intl.DateTimeFormat;
  onSelect: (d: CivilDate) => void;
  onCreate: (d: CivilDate, slot: number, group?: string) => void;
  canCreate: boolean;
  onResizeDown: (e: ReactPointerEvent<HTMLElement>, ev: CalendarEvent, kind: 'move' | 'resize', dayIndex: number) => void;
  t: Translate;
}) => {
  const body = useRef<HTMLDivElement | null>(null);
  // The scroll position is restored (spec 001 section 2); the first time the grid opens at 07:00.
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const stored = Number(session.get(scrollKey(entity)));
    el.scrollTop = Number.isFinite(stored) && session.get(scrollKey(entity)) !== null ? stored : 7 * 4 * ROW_PX;
  }, [entity]);
  const today = civilDateOf(now, tz);
  const nowMinute = minuteOfDay(now, tz);
  // A column per day, or per day and shown group when the view groups (a day header per group).
  const lanes = groups && groups.length > 0 ? groups : [null];
  const hours = Array.from({ length: 24 }, (_, h) => h);
  const hourFmt = new Intl.DateTimeFormat(locale(), { hour: 'numeric', timeZone: 'UTC' });
  return (
    <div className={`cal-grid cal-days-${days.length}${lanes.length > 1 ? ' cal-grouped' : ''}`} style={{ ['--cal-cols' as string]: days.length * lanes.length, ['--cal-row' as string]: `${ROW_PX}px` }}>
      <div className="cal-grid-head">
        <span className="cal-gutter" />
        {days.map((d, i) => {
          const isSelected = sameDay(d, selected);
          return (
            <div key={formatCivil(d)} className="cal-dayhead-wrap" style={{ gridColumn: `span ${lanes.length}` }}>
              <button
                type="button"
                className={`cal-dayhead${sameDay(d, today) ? ' cal-today' : ''}${isSelected ? ' cal-selected' : ''}`}
                data-day-index={i}
                data-selected={isSelected}
                tabIndex={isSelected ? 0 : -1}
                aria-label={longDayFmt.format(asDate(d))}
                aria-pressed={isSelected}
                onClick={() => onSelect(d)}
              >
                {dayFmt.format(asDate(d))}
              </button>
              {lanes.length > 1 && (
                <div className="cal-grouphead">
                  {lanes.map((g) => (
                    <span key={g?.key ?? ''} title={g?.label || t('LblNone')}>
                      {g?.label || t('LblNone')}
                    </span>
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </div>
      <div
        className="cal-grid-body"
        ref={body}
        onScroll={(e) => session.set(scrollKey(entity), String(Math.round(e.currentTarget.scrollTop)))}
      >
        <div className="cal-grid-inner" style={{ height: SLOTS_PER_DAY * ROW_PX }}>
          <div className="cal-gutter cal-hours" aria-hidden="true">
            {hours.map((h) => (
              <span key={h} style={{ top: h * 4 * ROW_PX }}>
                {h === 0 ? '' : hourFmt.format(new Date(Date.UTC(2000, 0, 1, h)))}
              </span>
            ))}
          </div>
          {days.flatMap((d, i) =>
            lanes.map((g) => {
              const mine = events
                // Cloud events belong to no group: they show in the first lane.
                .filter((e) => g === null || (e.source === 'cloud' ? g === lanes[0] : (e.group ?? '') === g.key))
                .flatMap((e) => {
                  const seg = segmentOnDay(spanOf(e), d, tz);
                  return seg ? [{ e, seg }] : [];
                });
              const cols = overlapColumns(mine.map((m) => m.seg));
              return (
                <div
                  key={`${formatCivil(d)}|${g?.key ?? ''}`}
                  className={`cal-col${sameDay(d, today) ? ' cal-today' : ''}`}
                  data-day-index={i}
                  data-date={formatCivil(d)}
                  data-group={g?.key}
                  onDoubleClick={(ev) => {
                    if (!canCreate) return;
                    const r = ev.currentTarget.getBoundingClientRect();
                    onCreate(d, Math.floor((ev.clientY - r.top) / ROW_PX), g?.key);
                  }}
                >
                  {loading && i === 0 && <span className="skeleton cal-skeleton" style={{ top: 9 * 4 * ROW_PX }} />}
                  {mine.map(({ e, seg }, k) => (
                    <div
                      key={e.id}
                      {...eventProps(e, i)}
                      style={{
                        top: (seg.top / SLOT_MINUTES) * ROW_PX,
                        height: Math.max(ROW_PX, ((seg.bottom - seg.top) / SLOT_MINUTES) * ROW_PX - 1),
                        left: `calc(${(cols[k].column / cols[k].columns) * 100}% + 1px)`,
                        width: `calc(${100 / cols[k].columns}% - 3px)`,
                      }}
                    >
                      <span className="cal-name">{e.name || t('MsgUnknownTitle')}</span>
                      <span className="cal-time">
                        {timeFmt.format(spanOf(e).start)} – {timeFmt.format(spanOf(e).end)}
                      </span>
                      {e.canEdit && !seg.endsAfter && (
                        <span className="cal-resize" aria-hidden="true" onPointerDown={(pe) => onResizeDown(pe, e, 'resize', i)} />
                      )}
                    </div>
                  ))}
                  {sameDay(d, today) && <div className="cal-now" style={{ top: (nowMinute / SLOT_MINUTES) * ROW_PX }} aria-hidden="true" />}
                </div>
              );
            }),
          )}
        </div>
      </div>
    </div>
  );
};

/** The dialog that chooses which groups show (hidden groups are kept in local storage). */
const GroupsDialog = ({ calendar, onClose }: { calendar: CalendarModel; onClose: () => void }) => {
  useSignals();
  const t = useT();
  const [hidden, setHidden] = useState<Set<string>>(() => new Set(calendar.hidden.value));
  const groups = calendar.groups.value;
  const toggle = (key: string) => {
    const next = new Set(hidden);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setHidden(next);
  };
  return (
    <Modal id="calendarGroupsDialog" title={t('LblCalGroupsTitle')} onClose={onClose}>
      <fieldset className="cal-groups">
        <legend className="sr-only">{t('LblCalGroupsTitle')}</legend>
        {groups.map((g) => (
          <label key={g.key} className="check">
            <input type="checkbox" checked={!hidden.has(g.key)} onChange={() => toggle(g.key)} /> {g.label || t('LblNone')}
          </label>
        ))}
      </fieldset>
      <div className="modal-actions">
        <button type="button" className="btn btn-plain" onClick={() => setHidden(new Set())}>
          {t('CmdCalShowAllGroups')}
        </button>
        <button type="button" className="btn btn-plain" onClick={onClose}>
          {t('CmdCancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            calendar.setHidden(hidden);
            onClose();
          }}
        >
          {t('CmdApply')}
        </button>
      </div>
    </Modal>
  );
};
