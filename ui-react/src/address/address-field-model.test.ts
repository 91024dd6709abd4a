import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entity, GeocodeAnswer, GeocodeRequest } from '../core.js';
import { ADDRESS_FIELD_DELAY_MS, addressFieldModel, addressFieldParameters } from './address-field-model.js';

const TRNAVA = { lat: 48.3774279, lon: 17.5872286, label: 'Hlavná 12, Trnava', address: { street: 'Hlavná', houseNumber: '12', city: 'Trnava' } };

const entity = {
  logicalName: 'route_address',
  displayName: 'Address',
  properties: [
    { logicalName: 'address', displayName: 'Address', type: 'String' },
    { logicalName: 'lat', displayName: 'Latitude', type: 'Float' },
    { logicalName: 'lon', displayName: 'Longitude', type: 'Decimal' },
    { logicalName: 'latitude', displayName: 'Latitude', type: 'Float' },
    { logicalName: 'longitude', displayName: 'Longitude', type: 'Float' },
  ],
} as unknown as Entity;

const setup = (answer: (r: GeocodeRequest) => GeocodeAnswer | Promise<GeocodeAnswer>) => {
  const calls: GeocodeRequest[] = [];
  const located: Array<[number, number]> = [];
  const logged: string[] = [];
  const model = addressFieldModel({
    api: { geocode: async (r) => (calls.push(r), answer(r)) },
    onLocated: (lat, lon) => located.push([lat, lon]),
    log: (m) => logged.push(m),
  });
  return { model, calls, located, logged };
};

afterEach(() => vi.useRealTimers());

describe('the address-with-map field parameters (issue 14: customComponentParameters { latitudeField, longitudeField })', () => {
  it('name the coordinate fields; without them `latitude` and `longitude`, as a map view', () => {
    expect(addressFieldParameters({ customComponentParameters: { latitudeField: 'lat', longitudeField: 'lon' } }, entity)).toEqual({ _tag: 'Fields', latitudeField: 'lat', longitudeField: 'lon' });
    expect(addressFieldParameters({}, entity)).toEqual({ _tag: 'Fields', latitudeField: 'latitude', longitudeField: 'longitude' });
  });

  it('a field that is missing or not a number, or a parameter that is not a text, is named', () => {
    expect(addressFieldParameters({ customComponentParameters: { latitudeField: 'nope', longitudeField: 'lon' } }, entity)).toEqual({ _tag: 'Invalid', field: 'nope' });
    expect(addressFieldParameters({ customComponentParameters: { latitudeField: 'lat', longitudeField: 'address' } }, entity)).toEqual({ _tag: 'Invalid', field: 'address' });
    expect(addressFieldParameters({ customComponentParameters: { latitudeField: 7 } }, entity)).toEqual({ _tag: 'Invalid', field: 'latitudeField' });
  });
});

describe('the address-with-map field lookups (spec 001 section 9: "reminder typing delay 1000 ms in the address-with-map field")', () => {
  it('typing looks the address up once typing pauses for 1000 ms; the match sets the coordinates (rounded to 6 decimals)', async () => {
    vi.useFakeTimers();
    const { model, calls, located } = setup(() => ({ match: TRNAVA }));
    model.typed('Hlavná');
    vi.advanceTimersByTime(600);
    model.typed('Hlavná 12, Trnava');
    vi.advanceTimersByTime(ADDRESS_FIELD_DELAY_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ q: 'Hlavná 12, Trnava' }]);
    expect(located).toEqual([[48.377428, 17.587229]]);
    expect(model.busy.value).toBe(false);
  });

  it("an address nobody knows says 'Address not found' and leaves the coordinates; typing again clears it", async () => {
    vi.useFakeTimers();
    const { model, located } = setup(() => ({ match: null }));
    model.typed('Atlantis');
    await vi.advanceTimersByTimeAsync(ADDRESS_FIELD_DELAY_MS);
    expect(model.message.value).toBe('MsgAddressNotFound');
    expect(located).toEqual([]);
    model.typed('Atlantis 2');
    expect(model.message.value).toBeNull();
  });

  it('Enter asks at once (no pause), and leaving the field sends a lookup still waiting; the same text again asks nobody', async () => {
    vi.useFakeTimers();
    const { model, calls } = setup(() => ({ match: TRNAVA }));
    model.typed('Hlavná 12, Trnava');
    await model.lookupNow('Hlavná 12, Trnava');
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ADDRESS_FIELD_DELAY_MS); // the pause's lookup was replaced
    expect(calls).toHaveLength(1);
    model.typed('Hlavná, Boleráz');
    model.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => ('q' in c ? c.q : ''))).toEqual(['Hlavná 12, Trnava', 'Hlavná, Boleráz']);
    model.flush(); // nothing waiting
    await model.lookupNow('Hlavná, Boleráz');
    await model.lookupNow('   ');
    expect(calls).toHaveLength(2);
  });

  it('only the newest lookup counts: an older answer arriving late is dropped (its request aborted)', async () => {
    const pending: Array<(a: GeocodeAnswer) => void> = [];
    const signals: Array<AbortSignal | undefined> = [];
    const located: Array<[number, number]> = [];
    const model = addressFieldModel({
      api: { geocode: (_r, signal) => (signals.push(signal), new Promise<GeocodeAnswer>((ok) => pending.push(ok))) },
      onLocated: (lat, lon) => located.push([lat, lon]),
    });
    const first = model.lookupNow('Piešťany');
    const second = model.lookupNow('Trnava');
    expect(signals[0]?.aborted).toBe(true);
    pending[1]!({ match: TRNAVA });
    await second;
    pending[0]!({ match: { ...TRNAVA, lat: 1, lon: 2 } });
    await first;
    expect(located).toEqual([[48.377428, 17.587229]]);
  });

  it('typing on while a lookup is on its way drops its answer (it was for an older text)', async () => {
    const pending: Array<(a: GeocodeAnswer) => void> = [];
    const located: Array<[number, number]> = [];
    const model = addressFieldModel({ api: { geocode: () => new Promise<GeocodeAnswer>((ok) => pending.push(ok)) }, onLocated: (lat, lon) => located.push([lat, lon]) });
    const asked = model.lookupNow('Hlavná 12, Trnava');
    expect(model.busy.value).toBe(true);
    model.typed('Hlavná 12, Trnava, Slovensko');
    expect(model.busy.value).toBe(false);
    pending[0]!({ match: TRNAVA });
    await asked;
    expect(located).toEqual([]);
    model.dispose();
  });

  it('a failed service is only logged (spec 001 "Errors"), no message; dispose stops a waiting lookup', async () => {
    vi.useFakeTimers();
    const { model, calls, logged } = setup(() => Promise.reject(new Error('502')));
    await model.lookupNow('Hlavná 12, Trnava');
    expect(logged).toEqual(['address lookup failed: 502']);
    expect(model.message.value).toBeNull();
    model.typed('Hlavná, Piešťany');
    model.dispose();
    await vi.advanceTimersByTimeAsync(ADDRESS_FIELD_DELAY_MS);
    expect(calls).toHaveLength(1);
  });
});
