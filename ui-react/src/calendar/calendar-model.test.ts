import { afterEach, describe, expect, it } from 'vitest';
import type { Entity, FetchRequest } from '../core.js';
import { formatCivil } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { listModel, type ListMemory } from '../list/list-model.js';
import type { NamedView } from '../list/list-query.js';
import { calendarDateKey, calendarModel, calendarModeKey, hiddenGroupsKey } from './calendar-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const visit: Entity = {
  logicalName: 'visit',
  displayName: 'Visit',
  displayNamePlural: 'Visits',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'scheduledstart', displayName: 'Start', type: 'DateTime' },
    { logicalName: 'scheduledend', displayName: 'End', type: 'DateTime' },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
  ],
};
const systemuser: Entity = { logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [{ logicalName: 'id', displayName: 'Id', type: 'Guid' }, { logicalName: 'name', displayName: 'Name', type: 'String' }] };
const schedule: NamedView = {
  name: 'schedule',
  label: 'Schedule',
  body: { query: { name: 'visit' }, columns: [{ name: 'name' }], viewMode: 'calendar', calendarStartField: 'scheduledstart', calendarEndField: 'scheduledend', calendarGroupField: 'ownerid' },
};
const memory = (): ListMemory & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v) };
};
const settled = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
};
let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

const NOW = new Date('2024-03-13T10:00:00Z');
const setup = async (visits: Array<[string, string]>, options: { session?: ReturnType<typeof memory>; lasting?: ReturnType<typeof memory> } = {}) => {
  const api = new StoreClient([visit, systemuser], fullCaller(ME, ['visit', 'systemuser']));
  for (const [i, [start, end]] of visits.entries()) await api.update('create', 'visit', { name: `Visit ${i}`, scheduledstart: start, scheduledend: end, ownerid: { id: ME, name: 'systemuser' } });
  const requests: FetchRequest[] = [];
  const fetch = api.fetch.bind(api);
  api.fetch = (r) => {
    requests.push(r);
    return fetch(r);
  };
  const list = listModel({ api: { fetch: api.fetch, executeMultiple: api.executeMultiple.bind(api) }, entity: () => visit, views: () => [schedule], filters: () => [], caller: () => api.caller, memory: memory() });
  const session = options.session ?? memory();
  const lasting = options.lasting ?? memory();
  const model = calendarModel({ api, list, caller: () => api.caller, memory: session, lasting, now: () => NOW, timeZone: 'UTC', refreshDelayMs: 5 });
  stops.push(model.start());
  await settled();
  return { api, model, requests, session, lasting };
};

describe('calendar model (issue 14 "Calendar")', () => {
  it("reads the selected month's window (-10 / +40 days, 500 a page) and keeps the events inside it", async () => {
    const { model, requests } = await setup([
      ['2024-03-12T08:00:00Z', '2024-03-12T09:00:00Z'],
      ['2024-02-15T08:00:00Z', '2024-02-15T09:00:00Z'],
      ['2024-04-09T08:00:00Z', '2024-04-09T09:00:00Z'],
    ]);
    expect(model.events.value?.map((e) => e.name).sort()).toEqual(['Visit 0', 'Visit 2']);
    const r = requests.at(-1)!;
    expect(r.pageSize).toBe(500);
    expect(JSON.stringify(r.entity.filter)).toContain('2024-02-20T00:00:00.000Z');
    expect(model.mode.value).toBe('week');
    expect(model.days.value.map(formatCivil)[0]).toBe('2024-03-11');
  });

  it('keeps the selected date and mode in session storage, and reads them back', async () => {
    const { model, session } = await setup([]);
    model.setMode('month');
    model.forward();
    await settled();
    expect([session.map.get(calendarModeKey('visit')), session.map.get(calendarDateKey('visit'))]).toEqual(['month', '2024-04-13']);
    const again = await setup([], { session });
    expect([again.model.mode.value, formatCivil(again.model.selected.value)]).toEqual(['month', '2024-04-13']);
  });

  it('a move takes its new time at once and saves it with the version read; the next move saves too', async () => {
    const { api, model } = await setup([['2024-03-12T08:00:00Z', '2024-03-12T09:00:00Z']]);
    const ev = model.events.value![0];
    const span = { start: new Date('2024-03-12T10:00:00Z'), end: new Date('2024-03-12T11:00:00Z') };
    const pending = model.move(ev.id, span);
    expect(model.events.value![0].start).toEqual(span.start);
    expect(await pending).toBe('Moved');
    const [saved] = (await api.fetch({ entity: { name: 'visit', allattrs: true } })).records;
    expect(saved.scheduledstart).toBe('2024-03-12T10:00:00.000Z');
    expect(await model.move(ev.id, { start: new Date('2024-03-12T12:00:00Z'), end: new Date('2024-03-12T13:00:00Z') })).toBe('Moved');
  });

  it('a move that fails (a stale version) returns the event to its old time and keeps the error', async () => {
    const { api, model } = await setup([['2024-03-12T08:00:00Z', '2024-03-12T09:00:00Z']]);
    const ev = model.events.value![0];
    await api.update('update', 'visit', { id: ev.id, versionnumber: ev.version, name: 'Changed elsewhere' });
    expect(await model.move(ev.id, { start: new Date('2024-03-12T10:00:00Z'), end: new Date('2024-03-12T11:00:00Z') })).toBe('Failed');
    expect(model.failure.value?.id).toBe(ev.id);
    expect(model.events.value![0].start).toEqual(new Date('2024-03-12T08:00:00Z'));
  });

  it('hidden groups are kept in local storage and leave the calendar', async () => {
    const { model, lasting } = await setup([['2024-03-12T08:00:00Z', '2024-03-12T09:00:00Z']]);
    expect(model.groups.value.map((g) => g.key)).toEqual([ME]);
    model.setHidden(new Set([ME]));
    expect(model.shownEvents.value).toEqual([]);
    expect(JSON.parse(lasting.map.get(hiddenGroupsKey('visit')) ?? '[]')).toEqual([ME]);
  });
});
