import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity } from '../metadata/entity.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { calendarFieldsOf, calendarRequest, CALENDAR_PAGE_SIZE, eventColor, eventGroups, eventOf, moveUpdate, type CalendarFields } from './calendar-events.js';

const appointment: Entity = {
  logicalName: 'appointment',
  displayName: 'Appointment',
  displayNamePlural: 'Appointments',
  properties: [
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'scheduledstart', displayName: 'Start', type: 'DateTime' },
    { logicalName: 'scheduledend', displayName: 'End', type: 'DateTime' },
    { logicalName: 'type', displayName: 'Type', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Meeting' }, { value: 2, label: 'Call' }] },
    { logicalName: 'status', displayName: 'Status', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Open' }, { value: 5, label: 'Canceled' }] },
    { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'teamid', displayName: 'Team', type: 'Lookup', targets: ['team'] },
  ],
};
const caller = (update: 0 | 1 | 3): Caller => ({
  userId: 'u1',
  teams: [],
  permissions: { permissions: { appointment: packMask({ create: 1, read: 3, update, delete: 1 }) }, apps: [], owners: [], needsTeams: false },
});
const fields: CalendarFields = { start: 'scheduledstart', end: 'scheduledend', group: 'ownerid' };

describe('event colour (spec 001 section 2)', () => {
  it('red when the type is Meeting and the status Canceled, grey for other types, blue by default', () => {
    expect(eventColor('Meeting', 'Canceled')).toBe('red');
    expect(eventColor('Meeting', 'Open')).toBe('blue');
    expect(eventColor('Call', 'Canceled')).toBe('grey');
    expect(eventColor(undefined, 'Canceled')).toBe('blue');
  });

  it('property: only a canceled meeting is red; any other type is grey', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.string()), (type, status) => {
        const c = eventColor(type ?? undefined, status ?? undefined);
        expect(c === 'red').toBe(type === 'Meeting' && status === 'Canceled');
        if (type && type !== 'Meeting') expect(c).toBe('grey');
      }),
    );
  });
});

describe('records as events', () => {
  const record = {
    id: 'a1',
    versionnumber: '7',
    name: 'Kick-off',
    scheduledstart: '2024-03-13T08:00:00Z',
    scheduledend: '2024-03-13T09:30:00Z',
    type: 1,
    status: 5,
    ownerid: { id: 'u1', name: 'systemuser', label: 'Anna' },
  };

  it('carries the spec event fields: id, start, end, name, duration, type, status, colour, canEdit, and the group', () => {
    expect(eventOf(record, appointment, fields, caller(1))).toEqual({
      id: 'a1',
      start: new Date('2024-03-13T08:00:00Z'),
      end: new Date('2024-03-13T09:30:00Z'),
      name: 'Kick-off',
      color: 'red',
      duration: 90,
      canEdit: true,
      source: 'record',
      type: 'Meeting',
      status: 'Canceled',
      group: 'u1',
      groupLabel: 'Anna',
      version: '7',
    });
  });

  it('moving needs update permission on the record (spec 001 section 8)', () => {
    expect(eventOf(record, appointment, fields, caller(0))?.canEdit).toBe(false);
    expect(eventOf({ ...record, ownerid: { id: 'u2', name: 'systemuser' } }, appointment, fields, caller(1))?.canEdit).toBe(false);
    expect(eventOf({ ...record, ownerid: { id: 'u2', name: 'systemuser' } }, appointment, fields, caller(3))?.canEdit).toBe(true);
  });

  it('a record without a start is no event; without an end it lasts an hour', () => {
    expect(eventOf({ ...record, scheduledstart: null }, appointment, fields, caller(1))).toBeNull();
    expect(eventOf({ ...record, scheduledend: null }, appointment, fields, caller(1))?.duration).toBe(60);
  });

  it('groups by the lookup, named by label, the group without a value last', () => {
    const evs = [
      eventOf({ ...record, id: 'a', ownerid: { id: 'u2', name: 'systemuser', label: 'Zoe' } }, appointment, fields, caller(1))!,
      eventOf({ ...record, id: 'b', ownerid: null }, appointment, fields, caller(1))!,
      eventOf(record, appointment, fields, caller(1))!,
    ];
    expect(eventGroups(evs)).toEqual([
      { key: 'u1', label: 'Anna' },
      { key: 'u2', label: 'Zoe' },
      { key: '', label: '' },
    ]);
  });

  it('a move sends the new start and end with the version read (the version check)', () => {
    expect(moveUpdate({ id: 'a1', version: 7 }, fields, { start: new Date('2024-03-13T10:00:00Z'), end: new Date('2024-03-13T11:30:00Z') })).toEqual({
      id: 'a1',
      versionnumber: 7,
      scheduledstart: '2024-03-13T10:00:00.000Z',
      scheduledend: '2024-03-13T11:30:00.000Z',
    });
  });
});

describe('the calendar fetch (spec 001 section 9)', () => {
  it("the view's fields: start and end must be date fields, a group only a lookup", () => {
    expect(calendarFieldsOf(appointment, { calendarStartField: 'scheduledstart', calendarEndField: 'scheduledend', calendarGroupField: 'ownerid' })).toEqual({ _tag: 'Fields', ...fields });
    expect(calendarFieldsOf(appointment, { calendarStartField: 'name', calendarEndField: 'scheduledend' })).toEqual({ _tag: 'MissingField', field: 'name' });
    expect(calendarFieldsOf(appointment, { calendarGroupField: 'status' })).toEqual({ _tag: 'Fields', start: 'scheduledstart', end: 'scheduledend' });
  });

  it("narrows the list's fetch to the month's window, 500 a page, by start, reading what the events need", () => {
    const list = {
      entity: { name: 'appointment', attributes: [{ attribute: 'name' }], filter: { type: 'and' as const, conditions: [{ attribute: 'status', operator: 'eq' as const, value: 1 }] } },
      page: 3,
      pageSize: 50,
    };
    const r = calendarRequest(list, appointment, fields, caller(1), new Date('2024-03-13T09:30:00Z'), 'UTC');
    expect(r.pageSize).toBe(CALENDAR_PAGE_SIZE);
    expect(r.page).toBe(1);
    expect(r.orders).toEqual([{ attribute: 'scheduledstart', descending: false }]);
    expect(r.entity.filter).toEqual({
      type: 'and',
      filters: [
        list.entity.filter,
        {
          type: 'and',
          conditions: [
            { attribute: 'scheduledend', operator: 'ge', value: '2024-02-20T00:00:00.000Z' },
            { attribute: 'scheduledstart', operator: 'le', value: '2024-04-10T00:00:00.000Z' },
          ],
        },
      ],
    });
    expect(r.entity.attributes?.map((a) => a.attribute)).toEqual(['name', 'id', 'versionnumber', 'scheduledstart', 'scheduledend', 'ownerid', 'type', 'status', 'teamid']);
  });
});
