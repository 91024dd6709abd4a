import { describe, expect, it } from 'vitest';
import { ServerError } from '../api/client.js';
import { calendarEventOf, cloudCalendarModel, cloudEvents, cloudWindow, type CloudCalendarApi } from './cloud-calendar-model.js';

const memory = () => {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string | null) => (v === null ? m.delete(k) : m.set(k, v)), m };
};

describe('cloud calendars in the calendar view (spec 001 "Calendar", section 6)', () => {
  it('the window is the first of the month -10/+40 days (spec 001 section 9)', () => {
    expect(cloudWindow(2026, 11)).toEqual({ start: '2026-10-22T00:00:00.000Z', end: '2026-12-11T00:00:00.000Z' });
  });

  it('events of the cloud calendar feed cannot be edited: canEdit false, source cloud, ids apart from records', () => {
    const e = calendarEventOf({ id: 'AAMk', calendarId: 'c1', name: 'Board', start: '2026-11-12T09:00:00.000Z', end: '2026-11-12T10:30:00.000Z', url: 'https://outlook/x' });
    expect(e).toMatchObject({ id: 'cloud:c1:AAMk', canEdit: false, source: 'cloud', duration: 90, url: 'https://outlook/x' });
  });

  it('shown on demand (kept in session storage): loads the window, hides again', async () => {
    const asked: Array<[string, string]> = [];
    const api: CloudCalendarApi = {
      cloudCalendar: async (start, end) => {
        asked.push([start, end]);
        return { calendars: [{ id: 'c1', name: 'Calendar', color: null }], events: [{ id: 'e', calendarId: 'c1', name: 'Board', start: '2026-11-12T09:00:00Z', end: '2026-11-12T10:00:00Z', url: null }] };
      },
    };
    const mem = memory();
    const m = cloudCalendarModel(api, mem);
    await m.load(2026, 11);
    expect([asked.length, cloudEvents.value.length]).toEqual([0, 0]);
    await m.toggle(2026, 11);
    expect([asked.length, cloudEvents.value.map((e) => e.name), mem.m.get('tessera.calendar.cloud')]).toEqual([1, ['Board'], '1']);
    expect(cloudCalendarModel(api, mem).shown.value).toBe(true);
    await m.toggle(2026, 11);
    expect([cloudEvents.value.length, mem.m.has('tessera.calendar.cloud')]).toEqual([0, false]);
  });

  it("a failure shows the spec's text: 'Unable to find user calendars: ...' or 'User has no outlook calendars'", async () => {
    const api: CloudCalendarApi = { cloudCalendar: async () => Promise.reject(new ServerError(404, 'Not Found', 'ERR_NOT_FOUND: User has no outlook calendars')) };
    const m = cloudCalendarModel(api, memory());
    await m.toggle(2026, 11);
    expect(m.error.value).toBe('User has no outlook calendars');
    expect(cloudEvents.value).toEqual([]);
  });
});
