import { batch, computed, signal } from '@preact/signals-react';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import {
  addStop as addStopRule,
  applyDirections,
  applyOwnerHome,
  changeLegDate,
  civilDateOf,
  clampToBounds,
  deleteLeg as deleteLegRule,
  dietDays,
  directionsUrl,
  followStart,
  newReportLegs,
  sameTimeOnDay,
  parseCivil,
  parseDiet,
  parseLegs,
  readDirectionsLegs,
  reportFields,
  routeDateBounds,
  routeStops,
  routeTotals,
  setLegEnd,
  setLegStart,
  stopText,
  toggleAllMeals,
  toggleMeal,
  type CivilDate,
  type DietDay,
  type EntityRecord,
  type FetchRequest,
  type FetchResult,
  type FieldValue,
  type GeocodeAnswer,
  type GeocodeRequest,
  type InputError,
  type Leg,
  type LookupValue,
  type Transport,
} from '../core.js';
import { FLASH_FAILED_MS, FLASH_OK_MS } from '../address/address-model.js';

/** The calls the travel report makes: directions, geocoding, and reads/writes of locations, addresses and users. */
export type JourneyApi = {
  distance(url: string, signal?: AbortSignal): Promise<unknown>;
  geocode(request: GeocodeRequest, signal?: AbortSignal): Promise<GeocodeAnswer>;
  fetch(request: FetchRequest): Promise<FetchResult>;
  update(operation: 'create' | 'update' | 'delete', name: string, object: EntityRecord): Promise<string>;
};

export type JourneyOptions = {
  api: JourneyApi;
  /** the record as the form loaded it (a new one has no legs_json) */
  record: EntityRecord;
  isNew: boolean;
  timeZone?: string;
  today?: () => CivilDate;
  newId?: () => string;
  /** may the user create route_address rows (an address found by the geocoder is kept) */
  mayCreateAddress?: () => boolean;
  /** the pause after a change of the stops before directions are asked */
  directionsDelayMs?: number;
  log?: (message: string) => void;
};

/** The costs of a leg (spec 002 section 3), each an amount of precision 2. */
export const COST_FIELDS = ['travel_cost', 'food_cost', 'sleep_cost', 'other_cost', 'required_cost'] as const;
export type CostField = (typeof COST_FIELDS)[number];
export const TRANSPORTS: readonly Transport[] = ['no', 'bus', 'train'];
/** Spec 002 section 5: route cost inputs use precision 2. */
export const COST_PRECISION = 2;

/** The state of the route's directions request. */
export type DirectionsState = 'idle' | 'loading' | 'failed';

const todayOf = (timeZone: string): CivilDate => {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date()).split('-').map(Number);
  return { year: y, month: m, day: d };
};

const civilOf = (v: FieldValue | undefined): CivilDate | null => {
  if (typeof v !== 'string' || v === '') return null;
  const c = parseCivil(v.slice(0, 10));
  return isLeft(c) ? null : c.right;
};

/** An amount typed with a comma or a point, kept at 2 decimals; blank is none; anything else is refused (null). */
export const parseAmount = (text: string): number | '' | null => {
  const s = text.trim().replace(/\s/g, '').replace(',', '.');
  if (s === '') return '';
  if (!/^-?\d*(\.\d*)?$/.test(s) || s === '.' || s === '-') return null;
  const n = Number(s);
  return Number.isFinite(n) ? Math.round(n * 10 ** COST_PRECISION) / 10 ** COST_PRECISION : null;
};

const idOf = (v: FieldValue | undefined): string | undefined => (v && typeof v === 'object' ? v.id : typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The travel report's state, shared by its two Custom panels (journey: the legs; journeydietary:
 * the allowance days). Every change goes through `commit`, which applies the spec's derived rules
 * (end location, diet days with the meals chosen, totals) and asks for road distances when the
 * stops changed. The record's fields are sent with the save (`fields`, a SaveParticipant patch).
 */
export const journeyModel = ({
  api,
  record,
  isNew,
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  today = () => todayOf(timeZone),
  newId = () => crypto.randomUUID(),
  mayCreateAddress = () => false,
  directionsDelayMs = 300,
  log = (m) => console.warn(m),
}: JourneyOptions) => {
  const legs = signal<Leg[]>([]);
  const diet = signal<DietDay[]>([]);
  /** The end location stays the start's (a round trip) until the user confirms unlocking it. */
  const endLocked = signal(true);
  /** legs_json or diet_json of the stored record could not be read: shown, and nothing is overwritten unasked. */
  const loadError = signal('');
  const directions = signal<DirectionsState>('idle');
  /** The address button of a leg flashing after a lookup: green on success, red for 2 s on failure. */
  const flash = signal<{ legId: string; ok: boolean } | null>(null);
  const busyLeg = signal<string | null>(null);
  const reportDate = signal<CivilDate | null>(civilOf(record.report_date));
  /** What was loaded or saved last: the panel is dirty when the legs or diet differ from it. */
  const baseline = signal('');
  /** The stops the distances were last computed (or loaded) for. */
  let measuredStops = '';
  let directionsTimer: ReturnType<typeof setTimeout> | undefined;
  let directionsAbort: AbortController | undefined;
  let flashTimer: ReturnType<typeof setTimeout> | undefined;
  let ownerId: string | undefined = idOf(record.ownerid);
  let ownerSeq = 0;
  /** The form's setValue: the totals the form shows follow each change at once. */
  let onFields: ((fields: EntityRecord) => void) | undefined;
  const notify = (): void => {
    if (!onFields) return;
    const { legs_json: _legs, diet_json: _diet, ...shown } = reportFields(legs.value, diet.value);
    onFields(shown);
  };

  const snapshot = (): string => JSON.stringify([legs.value, diet.value]);
  const dirty = computed(() => JSON.stringify([legs.value, diet.value]) !== baseline.value);
  const totals = computed(() => routeTotals(legs.value, diet.value));
  const allowance = computed(() => totals.value.total_allowance);
  /** The route date picker's window (spec 002 section 2). */
  const bounds = computed(() => {
    const first = legs.value[0];
    const d = reportDate.value ?? (first ? civilOf(first.startdate.slice(0, 10)) : null);
    return d ? routeDateBounds(d) : null;
  });
  const stopsKey = (ls: readonly Leg[]): string => routeStops(ls)?.map(stopText).join('|') ?? '';

  /** The one way a change lands: derived rules, diet days (meals kept), then directions when the stops changed. */
  const commit = (next: readonly Leg[]): void => {
    const shaped = followStart(next, endLocked.value);
    batch(() => {
      legs.value = shaped;
      diet.value = dietDays(shaped, timeZone, diet.value);
    });
    notify();
    scheduleDirections();
  };

  const scheduleDirections = (): void => {
    const key = stopsKey(legs.value);
    if (key === '' || key === measuredStops) return;
    clearTimeout(directionsTimer);
    directionsTimer = setTimeout(() => void measure(key), directionsDelayMs);
  };

  /** Road distances from /api/distance for the stops now on the route; a later change of the stops wins. */
  const measure = async (key: string): Promise<void> => {
    const stops = routeStops(legs.value);
    if (!stops || stopsKey(legs.value) !== key) return;
    directionsAbort?.abort();
    const abort = new AbortController();
    directionsAbort = abort;
    directions.value = 'loading';
    try {
      const body = await api.distance(directionsUrl(stops), abort.signal);
      if (abort.signal.aborted || stopsKey(legs.value) !== key) return;
      const read = readDirectionsLegs(body);
      const applied = isLeft(read) ? read : applyDirections(legs.value, read.right);
      if (isLeft(applied)) {
        log(`route distances: ${applied.left.message}`);
        directions.value = 'failed';
        return;
      }
      measuredStops = key;
      directions.value = 'idle';
      commit(applied.right);
    } catch (e) {
      if (abort.signal.aborted) return;
      // Spec 002 section 8: directions failures are logged only; the distances stay as they were.
      log(`route distances failed: ${e instanceof Error ? e.message : String(e)}`);
      directions.value = 'failed';
    }
  };

  /** Reads the stored record (or starts a new report with the spec's two legs); clean afterwards. */
  const load = (r: EntityRecord): void => {
    reportDate.value = civilOf(r.report_date);
    ownerId = idOf(r.ownerid);
    const parsedLegs = parseLegs(r.legs_json);
    const parsedDiet = parseDiet(r.diet_json);
    let next: Leg[] = [];
    let error = '';
    if (isLeft(parsedLegs)) error = parsedLegs.left.message;
    else next = parsedLegs.right;
    if (isLeft(parsedDiet)) error = error || parsedDiet.left.message;
    if (next.length === 0 && !error) {
      const fresh = newReportLegs(reportDate.value ?? today(), today(), timeZone, newId);
      next = isLeft(fresh) ? [] : fresh.right;
    }
    const stored = isLeft(parsedDiet) ? [] : parsedDiet.right;
    batch(() => {
      loadError.value = error;
      legs.value = next;
      // The days follow the legs; the meals stored for a day are kept.
      diet.value = dietDays(next, timeZone, stored);
      const last = next[next.length - 1];
      // A stored report whose end is elsewhere than its start was unlocked before.
      endLocked.value = next.length < 2 || isNew || (last.location?.id ?? last.address ?? '') === (next[0].location?.id ?? next[0].address ?? '');
      baseline.value = snapshot();
    });
    measuredStops = stopsKey(next);
  };

  /** A rule's answer lands, or its message goes to `onError` (nothing changes). */
  const change = (f: (ls: readonly Leg[]) => Either<InputError, Leg[]>, onError?: (m: string) => void): boolean => {
    const out = f(legs.value);
    if (isLeft(out)) {
      onError?.(out.left.message);
      return false;
    }
    commit(out.right);
    return true;
  };
  const patchLeg = (index: number, patch: Partial<Leg>): void => commit(legs.value.map((l, i) => (i === index ? { ...l, ...patch } : l)));

  const flashLeg = (legId: string, ok: boolean): void => {
    clearTimeout(flashTimer);
    flash.value = { legId, ok };
    flashTimer = setTimeout(() => (flash.value = null), ok ? FLASH_OK_MS : FLASH_FAILED_MS);
  };

  /** A saved address like the text, with coordinates (route_address is looked up by like on address). */
  const savedAddress = async (text: string): Promise<{ latitude: number; longitude: number } | null> => {
    const res = await api.fetch({
      entity: {
        name: 'route_address',
        attributes: [{ attribute: 'address' }, { attribute: 'latitude' }, { attribute: 'longitude' }],
        filter: { type: 'and', conditions: [{ attribute: 'address', operator: 'like', value: `%${text}%` }, { attribute: 'latitude', operator: 'not-null' }] },
      },
      page: 1,
      pageSize: 1,
    });
    const hit = res.records[0] as EntityRecord | undefined;
    return hit && typeof hit.latitude === 'number' && typeof hit.longitude === 'number' ? { latitude: hit.latitude, longitude: hit.longitude } : null;
  };

  /**
   * The address button: coordinates for the leg's address from the saved addresses, else the
   * geocoder (the best match prefers the leg's location label); a geocoded address is saved as a
   * route_address. Failures are logged only and the button flashes red (spec 002 section 8).
   */
  const lookupAddress = async (index: number): Promise<void> => {
    const leg = legs.value[index];
    if (!leg) return;
    const text = (leg.address ?? '').trim();
    if (text === '') return flashLeg(leg.id, false);
    busyLeg.value = leg.id;
    try {
      let found = await savedAddress(text).catch((e: unknown) => {
        log(`saved addresses: ${e instanceof Error ? e.message : String(e)}`);
        return null;
      });
      if (!found) {
        const label = leg.location?.label ?? undefined;
        const { match } = await api.geocode(label ? { q: text, city: label } : { q: text });
        if (!match) {
          log(`address not found: ${text}`);
          return flashLeg(leg.id, false);
        }
        found = { latitude: match.lat, longitude: match.lon };
        if (mayCreateAddress()) {
          await api.update('create', 'route_address', { name: text.slice(0, 200), address: text.slice(0, 500), ...found }).catch((e: unknown) => log(`saving the address: ${e instanceof Error ? e.message : String(e)}`));
        }
      }
      const at = legs.value.findIndex((l) => l.id === leg.id);
      if (at >= 0) patchLeg(at, found);
      flashLeg(leg.id, true);
    } catch (e) {
      log(`address lookup failed: ${e instanceof Error ? e.message : String(e)}`);
      flashLeg(leg.id, false);
    } finally {
      if (busyLeg.value === leg.id) busyLeg.value = null;
    }
  };

  /** A location picked for a leg: its coordinates come along (route_location latitude, longitude). */
  const setLocation = async (index: number, location: LookupValue | null): Promise<void> => {
    const leg = legs.value[index];
    if (!leg) return;
    patchLeg(index, { location });
    if (!location) return;
    try {
      const res = await api.fetch({
        entity: { name: 'route_location', attributes: [{ attribute: 'latitude' }, { attribute: 'longitude' }], filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: location.id }] } },
        page: 1,
        pageSize: 1,
      });
      const hit = res.records[0] as EntityRecord | undefined;
      const at = legs.value.findIndex((l) => l.id === leg.id);
      if (at >= 0 && hit && typeof hit.latitude === 'number' && typeof hit.longitude === 'number' && legs.value[at].location?.id === location.id) {
        patchLeg(at, { latitude: hit.latitude, longitude: hit.longitude });
      }
    } catch (e) {
      log(`location coordinates: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  /** Spec 002 section 4: a new owner's home location goes to the first and last legs. */
  const ownerChanged = async (owner: FieldValue | undefined): Promise<void> => {
    const id = idOf(owner);
    if (id === ownerId) return;
    ownerId = id;
    if (!id) return;
    const n = ++ownerSeq;
    try {
      const users = await api.fetch({
        entity: {
          name: 'systemuser',
          attributes: [{ attribute: 'home_location' }, { attribute: 'address_street' }, { attribute: 'latitude' }, { attribute: 'longitude' }],
          filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: id }] },
        },
        page: 1,
        pageSize: 1,
      });
      const user = users.records[0] as EntityRecord | undefined;
      if (n !== ownerSeq || !user) return;
      const location = user.home_location && typeof user.home_location === 'object' ? user.home_location : null;
      let latitude = typeof user.latitude === 'number' ? user.latitude : null;
      let longitude = typeof user.longitude === 'number' ? user.longitude : null;
      if (location && (latitude === null || longitude === null)) {
        const res = await api.fetch({
          entity: { name: 'route_location', attributes: [{ attribute: 'latitude' }, { attribute: 'longitude' }], filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: location.id }] } },
          page: 1,
          pageSize: 1,
        });
        const loc = res.records[0] as EntityRecord | undefined;
        latitude = typeof loc?.latitude === 'number' ? loc.latitude : null;
        longitude = typeof loc?.longitude === 'number' ? loc.longitude : null;
      }
      if (n !== ownerSeq || (!location && user.address_street == null && latitude === null)) return;
      commit(applyOwnerHome(legs.value, { location, address: typeof user.address_street === 'string' ? user.address_street : null, latitude, longitude }));
    } catch (e) {
      log(`owner's home location: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  /**
   * The report month changed: the picker's window moves; an untouched new report moves its two
   * legs to the new month's day (spec 002 section 4).
   */
  const reportDateChanged = (v: FieldValue | undefined): void => {
    const d = civilOf(v);
    if (JSON.stringify(d) === JSON.stringify(reportDate.value)) return;
    reportDate.value = d;
    if (isNew && !dirty.value && d) {
      const fresh = newReportLegs(d, today(), timeZone, newId);
      if (!isLeft(fresh)) {
        commit(fresh.right);
        baseline.value = snapshot();
      }
    }
  };

  /** A picked start kept inside the route date picker's window (its day clamped, its time kept). */
  const inWindow = (iso: string): string => {
    const at = new Date(iso);
    if (!bounds.value || Number.isNaN(at.getTime())) return iso;
    const day = civilDateOf(at, timeZone);
    const kept = clampToBounds(day, bounds.value);
    return kept === day ? iso : sameTimeOnDay(iso, kept, timeZone);
  };

  const setMeals = (date: string, f: (mask: number) => number): void => {
    diet.value = dietDays(legs.value, timeZone, diet.value.map((d) => (d.date === date ? { ...d, meals: f(d.meals) } : d)));
    notify();
  };

  load(record);

  return {
    legs,
    diet,
    endLocked,
    loadError,
    directions,
    flash,
    busyLeg,
    dirty,
    totals,
    allowance,
    bounds,
    load,
    ownerChanged,
    reportDateChanged,
    /** Adds a stop after leg `index` (3 h after its start, ending 18:00, same transport). */
    addStop: (index: number) => change((ls) => addStopRule(ls, index, timeZone, newId)),
    /** Deletes leg `index`; the first leg stays. */
    deleteLeg: (index: number) => change((ls) => deleteLegRule(ls, index)),
    /** A start picked in the grid: another day moves the later legs of that day; kept inside the picker's window. */
    setStart: (index: number, iso: string, onError?: (m: string) => void) => change((ls) => setLegStart(ls, index, inWindow(iso), timeZone), onError),
    setEnd: (index: number, iso: string, onError?: (m: string) => void) => change((ls) => setLegEnd(ls, index, iso), onError),
    /** Moves a leg to a day (kept inside the picker's window), with the later legs of that day. */
    setDay: (index: number, day: CivilDate) => change((ls) => changeLegDate(ls, index, bounds.value ? clampToBounds(day, bounds.value) : day, timeZone)),
    setTransport: (index: number, masstransit: Transport) => patchLeg(index, { masstransit }),
    /** A cost typed: precision 2; text that is no amount is refused (false). */
    setCost: (index: number, field: CostField | 'custom_distance', text: string): boolean => {
      const v = parseAmount(text);
      if (v === null) return false;
      patchLeg(index, { [field]: v === '' ? null : v });
      return true;
    },
    /** The typed address drops the coordinates of the old one until it is looked up. */
    setAddress: (index: number, address: string) => patchLeg(index, { address, latitude: null, longitude: null }),
    setLocation,
    lookupAddress,
    /** The user confirmed unlocking the end location. */
    unlockEnd: () => {
      endLocked.value = false;
    },
    /** One meal of a day provided or not (the bitmask 1 breakfast, 2 lunch, 4 dinner); the claim follows. */
    toggleMeal: (date: string, meal: number) => setMeals(date, (m) => toggleMeal(m, meal)),
    /** All meals of a day: all provided becomes none, anything else all provided. */
    toggleAllMeals: (date: string) => setMeals(date, toggleAllMeals),
    /** The form's setValue for the shown totals (the panel binds it on mount). */
    bindFields: (f: ((fields: EntityRecord) => void) | undefined) => {
      onFields = f;
    },
    /** The record's fields the save sends (legs_json, diet_json, name_locations, totals, dates, locations). */
    fields: (): EntityRecord => reportFields(legs.value, diet.value),
    /** After the save: what is stored now is the baseline. */
    saved: () => {
      baseline.value = snapshot();
    },
    dispose: () => {
      clearTimeout(directionsTimer);
      clearTimeout(flashTimer);
      directionsAbort?.abort();
    },
  };
};

export type JourneyModel = ReturnType<typeof journeyModel>;
