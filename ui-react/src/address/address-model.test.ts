import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GeocodeAnswer, GeocodeRequest } from '../core.js';
import { addressModel, FLASH_FAILED_MS, FLASH_OK_MS, type AddressValues } from './address-model.js';

const empty: AddressValues = { street: '', city: '', zip: '', country: '', latitude: null, longitude: null };
const TRNAVA = { lat: 48.3774279, lon: 17.5872286, label: 'Hlavná 12, Trnava', address: { street: 'Hlavná', houseNumber: '12', city: 'Trnava', postcode: '917 01', country: 'Slovensko' } };

const setup = (answer: (r: GeocodeRequest) => GeocodeAnswer | Promise<GeocodeAnswer>, initial: Partial<AddressValues> = {}) => {
  const calls: GeocodeRequest[] = [];
  const logged: string[] = [];
  const model = addressModel({
    api: { geocode: async (r) => (calls.push(r), answer(r)) },
    initial: { ...empty, ...initial },
    position: async () => ({ lat: 48.1, lon: 17.1 }),
    log: (m) => logged.push(m),
  });
  return { model, calls, logged };
};

afterEach(() => vi.useRealTimers());

describe('address editor (spec 001 "Address and map editors", issue 14)', () => {
  it("Lookup location without street and city says 'Please provide street and city first' and asks nothing", async () => {
    const { model, calls } = setup(() => ({ match: TRNAVA }), { city: 'Trnava' });
    await model.lookupLocation();
    expect(model.message.value).toBe('MsgProvideStreetCity');
    expect(model.flash.value).toEqual({ button: 'location', ok: false });
    expect(calls).toEqual([]);
  });

  it('Lookup location fills the coordinates from the best match (the city asked for) and flashes green for 500 ms', async () => {
    vi.useFakeTimers();
    const { model, calls } = setup(() => ({ match: TRNAVA }), { street: 'Hlavná 12', city: 'Trnava', zip: '917 01', country: 'Slovensko' });
    await model.lookupLocation();
    expect(calls).toEqual([{ q: 'Hlavná 12, 917 01 Trnava, Slovensko', city: 'Trnava' }]);
    expect([model.values.value.latitude, model.values.value.longitude]).toEqual([48.377428, 17.587229]);
    expect(model.flash.value).toEqual({ button: 'location', ok: true });
    vi.advanceTimersByTime(FLASH_OK_MS);
    expect(model.flash.value).toBeNull();
  });

  it("an address nobody knows says 'Address not found'; a failed service is only logged; both flash red for 2 s", async () => {
    vi.useFakeTimers();
    const none = setup(() => ({ match: null }), { street: 'Nowhere 1', city: 'Atlantis' });
    await none.model.lookupLocation();
    expect(none.model.message.value).toBe('MsgAddressNotFound');
    expect(none.model.flash.value).toEqual({ button: 'location', ok: false });
    vi.advanceTimersByTime(FLASH_FAILED_MS - 1);
    expect(none.model.flash.value).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(none.model.flash.value).toBeNull();
    const broken = setup(() => Promise.reject(new Error('502')), { street: 'Hlavná 12', city: 'Trnava' });
    await broken.model.lookupLocation();
    expect(broken.model.message.value).toBeNull();
    expect(broken.logged).toEqual(['address lookup failed: 502']);
    expect(broken.model.flash.value).toEqual({ button: 'location', ok: false });
  });

  it('typing in the address looks the location up after a 3000 ms pause, once', async () => {
    vi.useFakeTimers();
    const { model, calls } = setup(() => ({ match: TRNAVA }));
    model.set('street', 'Hlavná 12');
    vi.advanceTimersByTime(2000);
    model.set('city', 'Trnava');
    vi.advanceTimersByTime(2999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(model.values.value.latitude).toBe(48.377428);
  });

  it('Lookup address fills street with house number, city, ZIP and country from the coordinates', async () => {
    const { model, calls } = setup(() => ({ match: TRNAVA }), { latitude: 48.3774, longitude: 17.5872 });
    await model.lookupAddress();
    expect(calls).toEqual([{ lat: 48.3774, lon: 17.5872 }]);
    expect(model.values.value).toMatchObject({ street: 'Hlavná 12', city: 'Trnava', zip: '917 01', country: 'Slovensko' });
  });

  it("'My Location' and a dragged marker set the coordinates", async () => {
    const { model } = setup(() => ({ match: null }));
    await model.myLocation();
    expect([model.values.value.latitude, model.values.value.longitude]).toEqual([48.1, 17.1]);
    model.moveTo(48.2000004, 17.3);
    expect([model.values.value.latitude, model.values.value.longitude]).toEqual([48.2, 17.3]);
  });

  it("'My Location' also fills street, city, ZIP and country from the address at the position (issue 14: the geocoder's reverse)", async () => {
    vi.useFakeTimers();
    const { model, calls } = setup(() => ({ match: TRNAVA }), { street: 'Old 1', city: 'Elsewhere' });
    await model.myLocation();
    expect(calls).toEqual([{ lat: 48.1, lon: 17.1 }]);
    expect(model.values.value).toEqual({ street: 'Hlavná 12', city: 'Trnava', zip: '917 01', country: 'Slovensko', latitude: 48.1, longitude: 17.1 });
    expect(model.flash.value).toEqual({ button: 'mine', ok: true });
    expect(model.busy.value).toBeNull();
  });

  it("'My Location' where no address is known keeps the coordinates and says 'Address not found'; no position flashes red, asks nobody", async () => {
    vi.useFakeTimers();
    const nowhere = setup(() => ({ match: null }), { street: 'Old 1', city: 'Elsewhere' });
    await nowhere.model.myLocation();
    expect(nowhere.model.values.value).toMatchObject({ street: 'Old 1', city: 'Elsewhere', latitude: 48.1, longitude: 17.1 });
    expect(nowhere.model.message.value).toBe('MsgAddressNotFound');
    expect(nowhere.model.flash.value).toEqual({ button: 'mine', ok: true });
    const calls: GeocodeRequest[] = [];
    const logged: string[] = [];
    const denied = addressModel({ api: { geocode: async (r) => (calls.push(r), { match: TRNAVA }) }, initial: empty, position: () => Promise.reject(new Error('denied')), log: (m) => logged.push(m) });
    await denied.myLocation();
    expect([denied.values.value.latitude, calls, logged]).toEqual([null, [], ['position unavailable: denied']]);
    expect(denied.flash.value).toEqual({ button: 'mine', ok: false });
  });
});
