import { batch, signal } from '@preact/signals-react';
import type { ApiClient } from '../api/client.js';

/**
 * The address editor dialog as a model of signals (spec 001 "Address and map editors",
 * "Geocoding", "Timing"; issue 14): street, city, ZIP, country, latitude and longitude; Lookup
 * location (address to coordinates), Lookup address (coordinates to address), My Location (the
 * browser's position and the address there), the marker dragged. Typing in the address looks the location up after a
 * 3000 ms pause; a button looks up at once. The button that looked up flashes green for 500 ms on
 * success and red for 2 s on failure; a failed geocoding is only logged (spec 001 "Errors").
 */
export const ADDRESS_DEBOUNCE_MS = 3000;
export const FLASH_OK_MS = 500;
export const FLASH_FAILED_MS = 2000;

export type AddressValues = { street: string; city: string; zip: string; country: string; latitude: number | null; longitude: number | null };
export type LookupButton = 'location' | 'address' | 'mine';
export type AddressMessage = 'MsgProvideStreetCity' | 'MsgAddressNotFound' | null;

export type AddressModelOptions = {
  api: Pick<ApiClient, 'geocode'>;
  initial: AddressValues;
  /** the browser's position (navigator.geolocation), injected for tests */
  position?: () => Promise<{ lat: number; lon: number }>;
  debounceMs?: number;
  log?: (message: string) => void;
};

export type AddressModel = ReturnType<typeof addressModel>;

const round = (n: number): number => Math.round(n * 1e6) / 1e6;

export const browserPosition = (): Promise<{ lat: number; lon: number }> =>
  new Promise((ok, fail) => {
    if (!('geolocation' in navigator)) return fail(new Error('no geolocation'));
    navigator.geolocation.getCurrentPosition((p) => ok({ lat: p.coords.latitude, lon: p.coords.longitude }), fail, { enableHighAccuracy: true, timeout: 15_000 });
  });

export const addressModel = ({ api, initial, position = browserPosition, debounceMs = ADDRESS_DEBOUNCE_MS, log = (m) => console.warn(m) }: AddressModelOptions) => {
  const values = signal<AddressValues>(initial);
  const message = signal<AddressMessage>(null);
  /** The button flashing now and how. */
  const flash = signal<{ button: LookupButton; ok: boolean } | null>(null);
  const busy = signal<LookupButton | null>(null);
  let flashTimer: ReturnType<typeof setTimeout> | undefined;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;

  const flashButton = (button: LookupButton, ok: boolean) => {
    clearTimeout(flashTimer);
    flash.value = { button, ok };
    flashTimer = setTimeout(() => (flash.value = null), ok ? FLASH_OK_MS : FLASH_FAILED_MS);
  };

  const addressText = (v: AddressValues): string => [v.street, [v.zip, v.city].filter((s) => s.trim() !== '').join(' '), v.country].map((s) => s.trim()).filter((s) => s !== '').join(', ');

  /** Address to coordinates. `explicit`: the button (says why nothing happens); otherwise the pause after typing (quiet). */
  const lookupLocation = async (explicit = true): Promise<void> => {
    clearTimeout(typingTimer);
    const v = values.value;
    if (v.street.trim() === '' || v.city.trim() === '') {
      if (explicit) {
        message.value = 'MsgProvideStreetCity';
        flashButton('location', false);
      }
      return;
    }
    const n = ++seq;
    busy.value = 'location';
    try {
      const { match } = await api.geocode({ q: addressText(v), city: v.city.trim() });
      if (n !== seq) return;
      if (!match) {
        message.value = 'MsgAddressNotFound';
        flashButton('location', false);
        return;
      }
      batch(() => {
        values.value = { ...values.value, latitude: round(match.lat), longitude: round(match.lon) };
        message.value = null;
      });
      flashButton('location', true);
    } catch (e) {
      if (n !== seq) return;
      log(`address lookup failed: ${e instanceof Error ? e.message : String(e)}`);
      flashButton('location', false);
    } finally {
      if (n === seq) busy.value = null;
    }
  };

  /**
   * The address at a point (the geocoder's reverse) into street (with the house number), city, ZIP
   * and country; parts the answer lacks stay. 'stale' when a newer lookup started meanwhile.
   */
  const fillAddressAt = async (lat: number, lon: number, n: number): Promise<'filled' | 'none' | 'failed' | 'stale'> => {
    try {
      const { match } = await api.geocode({ lat, lon });
      if (n !== seq) return 'stale';
      if (!match) {
        message.value = 'MsgAddressNotFound';
        return 'none';
      }
      const a = match.address;
      batch(() => {
        values.value = {
          ...values.value,
          street: [a.street, a.houseNumber].filter(Boolean).join(' ') || values.value.street,
          city: a.city ?? values.value.city,
          zip: a.postcode ?? values.value.zip,
          country: a.country ?? values.value.country,
        };
        message.value = null;
      });
      return 'filled';
    } catch (e) {
      if (n !== seq) return 'stale';
      log(`address lookup failed: ${e instanceof Error ? e.message : String(e)}`);
      return 'failed';
    }
  };

  /** Coordinates to address: fills street (with the house number), city, ZIP and country. */
  const lookupAddress = async (): Promise<void> => {
    const { latitude, longitude } = values.value;
    if (latitude === null || longitude === null) {
      flashButton('address', false);
      return;
    }
    const n = ++seq;
    busy.value = 'address';
    try {
      const filled = await fillAddressAt(latitude, longitude, n);
      if (filled !== 'stale') flashButton('address', filled === 'filled');
    } finally {
      if (n === seq) busy.value = null;
    }
  };

  /**
   * The browser's position as the coordinates, and the address there (issue 14: My Location fills
   * street, city, ZIP and country too). The button flashes green once the position came: the
   * coordinates are set even when no address is known there ('Address not found' says so); red when
   * the browser gives no position (denied, unavailable), which is only logged.
   */
  const myLocation = async (): Promise<void> => {
    const n = ++seq;
    busy.value = 'mine';
    try {
      let p: { lat: number; lon: number };
      try {
        p = await position();
      } catch (e) {
        if (n !== seq) return;
        log(`position unavailable: ${e instanceof Error ? e.message : String(e)}`);
        flashButton('mine', false);
        return;
      }
      if (n !== seq) return;
      const [lat, lon] = [round(p.lat), round(p.lon)];
      batch(() => {
        values.value = { ...values.value, latitude: lat, longitude: lon };
        message.value = null;
      });
      if ((await fillAddressAt(lat, lon, n)) !== 'stale') flashButton('mine', true);
    } finally {
      if (n === seq) busy.value = null;
    }
  };

  /** A typed change; an address part starts the 3 s pause before a quiet lookup. */
  const set = <K extends keyof AddressValues>(key: K, value: AddressValues[K]) => {
    values.value = { ...values.value, [key]: value };
    if (key === 'street' || key === 'city' || key === 'zip' || key === 'country') {
      message.value = null;
      clearTimeout(typingTimer);
      typingTimer = setTimeout(() => void lookupLocation(false), debounceMs);
    }
  };

  /** The marker dropped at a point. */
  const moveTo = (lat: number, lon: number) => {
    values.value = { ...values.value, latitude: round(lat), longitude: round(lon) };
  };

  const dispose = () => {
    clearTimeout(flashTimer);
    clearTimeout(typingTimer);
    seq++;
  };

  return { values, message, flash, busy, set, moveTo, lookupLocation, lookupAddress, myLocation, dispose };
};
