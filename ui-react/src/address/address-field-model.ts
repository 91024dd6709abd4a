import { batch, signal } from '@preact/signals-react';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { ApiClient } from '../api/client.js';
import type { Entity, FormField } from '../core.js';
import { mapFieldsOf } from '../core.js';

/**
 * The address-with-map field (spec 001 "Address and map editors": "An address-with-map field exists
 * as well", zoom 9; section 9: "reminder typing delay 1000 ms in the address-with-map field";
 * issue 14). A form field `{ name, customComponent: "addressWithMap", customComponentParameters:
 * { latitudeField, longitudeField } }` on a String field holding a one-line address: when typing
 * pauses 1000 ms the text is looked up through POST /api/geocode and the match's coordinates go into
 * the two fields (set in the form like any edit, saved with the record). No DOM and no Leaflet here.
 */
export const ADDRESS_WITH_MAP = 'addressWithMap';
export const ADDRESS_FIELD_DELAY_MS = 1000;

const Parameters = t.partial({ latitudeField: t.string, longitudeField: t.string }, 'addressWithMap parameters');

export type AddressFieldParameters =
  | { _tag: 'Fields'; latitudeField: string; longitudeField: string }
  /** `field`: the parameter or field that is wrong (a configuration mistake the form shows). */
  | { _tag: 'Invalid'; field: string };

/**
 * The coordinate fields of an address-with-map field: its `latitudeField` and `longitudeField`
 * (default `latitude` and `longitude`, as a map view's), both number fields of the entity.
 */
export const addressFieldParameters = (f: Pick<FormField, 'customComponentParameters'>, entity: Entity): AddressFieldParameters => {
  const decoded = Parameters.decode(f.customComponentParameters ?? {});
  if (isLeft(decoded)) {
    const bad = decoded.left[0]?.context.find((c) => c.key === 'latitudeField' || c.key === 'longitudeField')?.key;
    return { _tag: 'Invalid', field: bad ?? 'customComponentParameters' };
  }
  const fields = mapFieldsOf(entity, decoded.right);
  return fields._tag === 'Fields' ? { _tag: 'Fields', latitudeField: fields.lat, longitudeField: fields.lon } : { _tag: 'Invalid', field: fields.field };
};

export type AddressFieldOptions = {
  api: Pick<ApiClient, 'geocode'>;
  /** The match's point, rounded to 6 decimals (about 10 cm): the form sets the coordinate fields. */
  onLocated: (lat: number, lon: number) => void;
  delayMs?: number;
  log?: (message: string) => void;
};

export type AddressFieldModel = ReturnType<typeof addressFieldModel>;

const round = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * The field's lookups as signals: `typed` restarts the 1000 ms pause, `lookupNow` asks at once
 * (Enter, or leaving the field with a lookup pending). Only the newest question's answer counts
 * (an older one still on its way is aborted). Not found: 'Address not found' under the map, the
 * coordinates stay (the user is probably still typing; the spec's dialog keeps them too). A failed
 * service is only logged (spec 001 "Errors": address lookup failure is logged only).
 */
export const addressFieldModel = ({ api, onLocated, delayMs = ADDRESS_FIELD_DELAY_MS, log = (m) => console.warn(m) }: AddressFieldOptions) => {
  const message = signal<'MsgAddressNotFound' | null>(null);
  const busy = signal(false);
  /** The text of the last answered lookup: the same text again asks nobody. */
  let answered: string | null = null;
  let pending: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | null = null;
  let seq = 0;

  const lookupNow = async (text: string = pending ?? ''): Promise<void> => {
    clearTimeout(timer);
    pending = null;
    const q = text.trim();
    if (q === '' || q === answered) return;
    const n = ++seq;
    inFlight?.abort();
    const abort = new AbortController();
    inFlight = abort;
    busy.value = true;
    try {
      const { match } = await api.geocode({ q }, abort.signal);
      if (n !== seq) return;
      answered = q;
      if (!match) {
        message.value = 'MsgAddressNotFound';
        return;
      }
      batch(() => {
        message.value = null;
        onLocated(round(match.lat), round(match.lon));
      });
    } catch (e) {
      if (n !== seq) return;
      log(`address lookup failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      if (n === seq) {
        busy.value = false;
        inFlight = null;
      }
    }
  };

  /** A typed change: the lookup waits for a 1000 ms pause; one still on its way is for an old text (dropped). */
  const typed = (text: string) => {
    seq++;
    inFlight?.abort();
    inFlight = null;
    batch(() => {
      message.value = null;
      busy.value = false;
    });
    clearTimeout(timer);
    pending = text;
    timer = setTimeout(() => void lookupNow(text), delayMs);
  };

  /** Leaving the field: a lookup still waiting for its pause goes now (the user may press Save next). */
  const flush = () => {
    if (pending !== null) void lookupNow(pending);
  };

  const dispose = () => {
    clearTimeout(timer);
    inFlight?.abort();
    seq++;
  };

  return { message, busy, typed, lookupNow, flush, dispose };
};
