import { describe, expect, it } from 'vitest';
import type { EntityRecord, FetchRequest, GeocodeRequest, Leg } from '../core.js';
import { journeyModel, parseAmount, type JourneyApi } from './journey-model.js';

const tz = 'Europe/Bratislava';
const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const ids = () => {
  let n = 0;
  return () => `leg-${++n}`;
};
const BA = { latitude: 48.1486, longitude: 17.1077 };
const TT = { latitude: 48.3774, longitude: 17.5872 };
const home = { location: { id: 'loc-ba', name: 'route_location', label: 'Bratislava' }, address: 'Mlynské nivy 5, Bratislava', ...BA };

/** Google's documented directions answer for n legs of 47 km, 45 minutes each. */
const directionsAnswer = (n: number) => ({
  status: 'OK',
  routes: [{ legs: Array.from({ length: n }, () => ({ distance: { text: '47 km', value: 47_000 }, duration: { text: '45 mins', value: 2700 } })) }],
});

type Calls = { distance: string[]; geocode: GeocodeRequest[]; fetch: FetchRequest[]; update: Array<[string, string, EntityRecord]> };
const fakeApi = (over: Partial<JourneyApi> = {}): JourneyApi & { calls: Calls } => {
  const calls: Calls = { distance: [], geocode: [], fetch: [], update: [] };
  return {
    calls,
    distance: async (url) => {
      calls.distance.push(url);
      const stops = 1 + (new URL(url).searchParams.get('waypoints')?.split('|').length ?? 0) + 1;
      return directionsAnswer(stops - 1);
    },
    geocode: async (r) => {
      calls.geocode.push(r);
      return { match: { lat: TT.latitude, lon: TT.longitude, label: 'Hlavná 12, Trnava', address: { city: 'Trnava' } } };
    },
    fetch: async (r) => {
      calls.fetch.push(r);
      return { records: [], count: 0 } as never;
    },
    update: async (op, name, object) => {
      calls.update.push([op, name, object]);
      return 'new-id';
    },
    ...over,
  };
};

const stored = (): EntityRecord => {
  const legs: Leg[] = [
    { id: 'a', startdate: '2024-05-06T05:00:00.000Z', enddate: '2024-05-06T05:00:00.000Z', masstransit: 'no', distance: 0, ...home },
    { id: 'b', startdate: '2024-05-06T05:00:00.000Z', enddate: '2024-05-06T13:00:00.000Z', masstransit: 'no', distance: 47, address: 'Hlavná 12, Trnava', ...TT, travel_cost: 7.5 },
    { id: 'c', startdate: '2024-05-06T13:00:00.000Z', enddate: '2024-05-06T16:00:00.000Z', masstransit: 'no', distance: 47, ...home },
  ];
  return { id: 'r1', report_date: '2024-05-06', ownerid: { id: 'u1', name: 'systemuser' }, legs_json: JSON.stringify(legs), diet_json: JSON.stringify([{ date: '2024-05-06', hours: 11, meals: 2, claim: 1, maxClaim: 8.8 }]) };
};

describe('journey model: a new report (spec 002 section 4)', () => {
  it('starts with the two legs on the report date and is not dirty', () => {
    const m = journeyModel({ api: fakeApi(), record: { report_date: '2024-05-13' }, isNew: true, timeZone: tz, today: () => ({ year: 2024, month: 5, day: 20 }), newId: ids() });
    expect(m.legs.value.map((l) => [l.startdate, l.enddate, l.distance, l.masstransit])).toEqual([
      ['2024-05-13T06:00:00.000Z', '2024-05-13T06:00:00.000Z', 0, 'no'],
      ['2024-05-13T06:00:00.000Z', '2024-05-13T16:00:00.000Z', 0, 'no'],
    ]);
    expect(m.diet.value).toEqual([{ date: '2024-05-13', hours: 10, meals: 0, claim: 8.8, maxClaim: 8.8 }]);
    expect(m.dirty.value).toBe(false);
    expect(m.bounds.value).toEqual({ min: { year: 2024, month: 5, day: 1 }, max: { year: 2024, month: 6, day: 7 } });
  });

  it('a new report month moves the untouched legs to it', () => {
    const m = journeyModel({ api: fakeApi(), record: { report_date: '2024-05-13' }, isNew: true, timeZone: tz, today: () => ({ year: 2024, month: 6, day: 3 }), newId: ids() });
    m.reportDateChanged('2024-06-10');
    expect(m.legs.value[0].startdate).toBe('2024-06-10T06:00:00.000Z');
    expect(m.dirty.value).toBe(false);
  });
});

describe('journey model: changes recompute the totals and the allowance, and save with the record', () => {
  it('a stored report loads clean; add a stop, delete it; the fields follow', () => {
    const shown: EntityRecord[] = [];
    const m = journeyModel({ api: fakeApi(), record: stored(), isNew: false, timeZone: tz, newId: ids() });
    m.bindFields((f) => shown.push(f));
    expect(m.dirty.value).toBe(false);
    expect(m.endLocked.value).toBe(true);
    expect(m.diet.value[0].meals).toBe(2);
    m.addStop(1);
    expect(m.legs.value).toHaveLength(4);
    expect(m.legs.value[2]).toMatchObject({ startdate: '2024-05-06T08:00:00.000Z', enddate: '2024-05-06T16:00:00.000Z', distance: 0, masstransit: 'no' });
    expect(m.dirty.value).toBe(true);
    expect(JSON.parse(String(m.fields().legs_json))).toHaveLength(4);
    expect(shown.at(-1)).toMatchObject({ total_distance: 94, total_expense: 7.5 });
    expect(shown.at(-1)).not.toHaveProperty('legs_json');
    expect(m.deleteLeg(0)).toBe(false);
    m.deleteLeg(2);
    expect(m.dirty.value).toBe(false);
  });

  it('toggling a meal changes the claim and the allowance (1 breakfast, 2 lunch, 4 dinner, 7 all)', () => {
    const m = journeyModel({ api: fakeApi(), record: stored(), isNew: false, timeZone: tz });
    expect(m.allowance.value).toBe(1); // 11 h, lunch provided: 8.8 - 7.8
    m.toggleMeal('2024-05-06', 2);
    expect(m.diet.value[0]).toMatchObject({ meals: 0, claim: 8.8, maxClaim: 8.8 });
    expect(m.allowance.value).toBe(8.8);
    m.toggleAllMeals('2024-05-06');
    expect(m.diet.value[0]).toMatchObject({ meals: 7, claim: 0 });
    expect(JSON.parse(String(m.fields().diet_json))[0].meals).toBe(7);
    m.saved();
    expect(m.dirty.value).toBe(false);
  });

  it('costs take precision 2; text that is no amount is refused', () => {
    const m = journeyModel({ api: fakeApi(), record: stored(), isNew: false, timeZone: tz });
    expect(m.setCost(1, 'food_cost', '12,345')).toBe(true);
    expect(m.legs.value[1].food_cost).toBe(12.35);
    expect(m.totals.value.total_expense).toBe(19.85);
    expect(m.setCost(1, 'food_cost', '12 eur')).toBe(false);
    m.setCost(1, 'custom_distance', '50');
    expect(m.totals.value.total_distance).toBe(97);
    expect(parseAmount('')).toBe('');
  });

  it('a leg start moved to another day shifts the later legs of that day', () => {
    const m = journeyModel({ api: fakeApi(), record: stored(), isNew: false, timeZone: tz });
    m.setStart(1, '2024-05-07T05:00:00.000Z');
    expect(m.legs.value.map((l) => l.startdate.slice(0, 10))).toEqual(['2024-05-06', '2024-05-07', '2024-05-07']);
    expect(m.diet.value.map((d) => d.date)).toEqual(['2024-05-06', '2024-05-07']);
    let error = '';
    m.setEnd(1, 'later', (e) => (error = e));
    expect(error).toMatch(/Not a date/);
  });
});

describe('journey model: road distances from /api/distance (spec 002 sections 4 and 7)', () => {
  it('asks when all legs have coordinates and 2 distinct stops, then sets distances, durations and ends', async () => {
    const api = fakeApi();
    const m = journeyModel({ api, record: stored(), isNew: false, timeZone: tz, directionsDelayMs: 0, newId: ids() });
    m.addStop(1);
    await tick();
    expect(api.calls.distance).toEqual([]); // the new stop has no coordinates yet
    m.setAddress(2, 'Hlavná 12, Trnava');
    await m.lookupAddress(2);
    await tick();
    expect(api.calls.geocode).toEqual([{ q: 'Hlavná 12, Trnava' }]);
    expect(api.calls.distance).toHaveLength(1);
    const url = new URL(api.calls.distance[0]);
    expect(url.searchParams.get('waypoints')).toBe('48.3774,17.5872|48.3774,17.5872');
    expect(m.legs.value.map((l) => l.distance)).toEqual([0, 47, 47, 47]);
    expect(m.totals.value.total_distance).toBe(141);
    // each end is the previous leg's start plus 45 minutes
    expect(m.legs.value[3].enddate).toBe('2024-05-06T08:45:00.000Z');
    expect(m.flash.value).toEqual({ legId: 'leg-1', ok: true });
  });

  it('a failing directions call is logged only; the distances stay', async () => {
    const logs: string[] = [];
    const api = fakeApi({
      distance: async () => Promise.reject(new Error('Server Error: 502')),
      geocode: async () => ({ match: { lat: 48.3069, lon: 18.0864, label: 'Nitra', address: {} } }),
    });
    const m = journeyModel({ api, record: stored(), isNew: false, timeZone: tz, directionsDelayMs: 0, log: (l) => logs.push(l) });
    m.setAddress(1, 'Štefánikova 1, Nitra');
    await m.lookupAddress(1);
    await tick();
    expect(m.directions.value).toBe('failed');
    expect(logs.join()).toMatch(/502/);
    expect(m.legs.value[1].distance).toBe(47);
  });

  it('an address not found flashes the button red and logs', async () => {
    const logs: string[] = [];
    const m = journeyModel({ api: fakeApi({ geocode: async () => ({ match: null }) }), record: stored(), isNew: false, timeZone: tz, log: (l) => logs.push(l) });
    await m.lookupAddress(1);
    expect(m.flash.value).toEqual({ legId: 'b', ok: false });
    expect(logs.join()).toMatch(/not found/);
  });

  it('a geocoded address is saved as a route_address when the user may create one', async () => {
    const api = fakeApi();
    const m = journeyModel({ api, record: stored(), isNew: false, timeZone: tz, mayCreateAddress: () => true });
    m.setAddress(1, 'Hlavná 12, Trnava');
    await m.lookupAddress(1);
    expect(api.calls.fetch[0].entity.name).toBe('route_address');
    expect(api.calls.update).toEqual([['create', 'route_address', { name: 'Hlavná 12, Trnava', address: 'Hlavná 12, Trnava', ...TT }]]);
  });
});

describe('journey model: end location and owner (spec 002 section 4)', () => {
  it('locked, the end follows the start; unlocked it is the user’s', async () => {
    const m = journeyModel({ api: fakeApi(), record: stored(), isNew: false, timeZone: tz });
    m.setAddress(0, 'Office');
    expect(m.legs.value[2].address).toBe('Office');
    m.unlockEnd();
    await m.setLocation(2, null);
    m.setAddress(0, 'Home');
    expect(m.legs.value[2].address).toBe('Office');
  });

  it("a new owner's home location goes to the first and last legs", async () => {
    const api = fakeApi({
      fetch: async (r) =>
        (r.entity.name === 'systemuser'
          ? { records: [{ id: 'u2', home_location: { id: 'loc-tt', name: 'route_location', label: 'Trnava' }, address_street: 'Hlavná 1' }] }
          : { records: [{ id: 'loc-tt', ...TT }] }) as never,
    });
    const m = journeyModel({ api, record: stored(), isNew: false, timeZone: tz });
    await m.ownerChanged({ id: 'u1', name: 'systemuser' });
    expect(m.dirty.value).toBe(false);
    await m.ownerChanged({ id: 'u2', name: 'systemuser' });
    for (const i of [0, 2]) expect(m.legs.value[i]).toMatchObject({ location: { id: 'loc-tt' }, address: 'Hlavná 1', ...TT });
    expect(m.legs.value[1].address).toBe('Hlavná 12, Trnava');
  });
});
