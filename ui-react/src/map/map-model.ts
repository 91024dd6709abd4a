import { batch, computed, effect, signal, untracked } from '@preact/signals-react';
import { mapFieldsOf, mapRequest, markerOf, type MapMarker } from '../core.js';
import type { EntityRecord } from '../core.js';
import type { ApiClient } from '../api/client.js';
import type { ListModel } from '../list/list-model.js';

/**
 * The map view as a model of signals (spec 001 section 2, view mode 1; issue 14). It follows the
 * list model: the list's fetch of the moment (`currentRequest()`: view query, quick filters, search)
 * with both coordinates present gives the markers. No DOM here: tested in vitest.
 */
export type MapApi = Pick<ApiClient, 'fetch'>;

export type MapModel = ReturnType<typeof mapModel>;

/** Pixels between the point and pins that share it. */
const SPREAD_PX = 22;

/**
 * Pins of records at the very same point (equipment at its customer's address) would hide each
 * other from the mouse: each of n > 1 at one point is drawn around it on a small circle, the
 * point itself unchanged. Answers a pixel offset per marker (0, 0 for a pin alone).
 */
export const spreadOffsets = (markers: readonly { lat: number; lon: number }[]): Array<[number, number]> => {
  const groups = new Map<string, number[]>();
  markers.forEach((m, i) => {
    const key = `${m.lat},${m.lon}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const offsets: Array<[number, number]> = markers.map(() => [0, 0]);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const radius = SPREAD_PX * Math.max(1, members.length / 6);
    members.forEach((index, k) => {
      const angle = (2 * Math.PI * k) / members.length - Math.PI / 2;
      offsets[index] = [Math.round(radius * Math.cos(angle)), Math.round(radius * Math.sin(angle))];
    });
  }
  return offsets;
};

export const mapModel = ({ api, list, refreshDelayMs = 300 }: { api: MapApi; list: ListModel; refreshDelayMs?: number }) => {
  const entity = list.entity;
  /** The coordinate fields of the view, or the one missing. */
  const fields = computed(() => mapFieldsOf(entity.value, list.view.value?.body));
  /** null before the first answer */
  const markers = signal<MapMarker[] | null>(null);
  /** records matching the list with coordinates (may exceed the markers read) */
  const count = signal<number | null>(null);
  const loading = signal(false);
  const loadError = signal<unknown>(null);

  let seq = 0;
  const load = async (): Promise<void> => {
    const f = fields.value;
    if (f._tag === 'MissingField') return;
    const n = ++seq;
    const current = list.currentRequest();
    if (current._tag === 'NoResults') {
      batch(() => {
        markers.value = [];
        count.value = 0;
        loadError.value = null;
      });
      return;
    }
    loading.value = true;
    try {
      const answer = await api.fetch(mapRequest(current.request, entity.value, f));
      if (n !== seq) return;
      batch(() => {
        markers.value = (answer.records as EntityRecord[]).flatMap((r) => markerOf(r, entity.value, f) ?? []);
        count.value = answer.count ?? null;
        loadError.value = null;
      });
    } catch (e) {
      if (n !== seq) return;
      batch(() => {
        loadError.value = e;
        markers.value = markers.value ?? [];
      });
    } finally {
      if (n === seq) loading.value = false;
    }
  };

  let refresh: ReturnType<typeof setTimeout> | undefined;
  /** A change on the server: reload after a short pause (a burst reloads once). */
  const serverChanged = () => {
    clearTimeout(refresh);
    refresh = setTimeout(() => void load(), refreshDelayMs);
  };

  /** Follows the list's fetch: loads now and on every change. Returns the stop function. */
  const start = (): (() => void) => {
    const stop = effect(() => {
      void [fields.value, list.currentRequest()];
      untracked(() => void load());
    });
    return () => {
      stop();
      clearTimeout(refresh);
      seq++;
    };
  };

  return { fields, markers, count, loading, loadError, load, start, serverChanged };
};
