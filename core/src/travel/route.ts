import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { LookupValue } from '../metadata/entity.js';
import { addDays, addMonths, daysBetween, formatCivil, parseCivil, type CivilDate } from '../dates/civil.js';
import { civilDateOf, instantAt, instantOfWallTime, startOfDayInstant, wallTimeOf } from '../dates/zoned.js';
import { scaledToNumber, toScaled } from '../money/decimal.js';
import { mealAllowance, MEAL_ALLOWANCE_DECREES, type MealAllowanceDecree } from './meal-allowance.js';

/** Transport choices (spec 002 section 9): no (car), bus, train. */
export const Transport = t.keyof({ no: null, bus: null, train: null }, 'Transport');
export type Transport = t.TypeOf<typeof Transport>;

const Num = t.union([t.number, t.string, t.null]);

/** A leg of a travel route (spec 002 section 3); the first leg is the start, the last the end point. Dates are ISO instants. */
export const Leg = t.intersection(
  [
    t.type({ id: t.string, startdate: t.string, enddate: t.string, masstransit: Transport }),
    t.partial({
      location: t.union([LookupValue, t.null]),
      latitude: t.union([t.number, t.null]),
      longitude: t.union([t.number, t.null]),
      address: t.union([t.string, t.null]),
      /** Distance in km, as text ("12.5", "12,5 km") or a number. */
      distance: Num,
      /** Travel time from the previous stop, in seconds. */
      duration: t.union([t.number, t.null]),
      custom_distance: Num,
      travel_cost: Num,
      food_cost: Num,
      sleep_cost: Num,
      other_cost: Num,
      required_cost: Num,
    }),
  ],
  'Leg',
);
export type Leg = t.TypeOf<typeof Leg>;

/** A diet (meal allowance) day of a route (spec 002 section 3). */
export const DietDay = t.type(
  { date: t.string, hours: t.number, meals: t.number, claim: t.number, maxClaim: t.number },
  'DietDay',
);
export type DietDay = t.TypeOf<typeof DietDay>;

/** Adding a stop starts it 3 hours (10800000 ms) after the previous leg's start. */
export const STOP_OFFSET_MS = 10_800_000;
/** New legs start at 08:00 and the last one ends at 18:00 local time. */
export const DAY_START = { hour: 8, minute: 0 } as const;
export const DAY_END = { hour: 18, minute: 0 } as const;

const iso = (d: Date): string => d.toISOString();
const ms = (text: string): number => new Date(text).getTime();

const toCivil = (d: CivilDate | string): E.Either<InputError, CivilDate> => (typeof d === 'string' ? parseCivil(d.slice(0, 10)) : E.right(d));

const sameMonth = (a: CivilDate, b: CivilDate): boolean => a.year === b.year && a.month === b.month;

/**
 * The two legs of a new report (spec 002 section 4), on the report date, or on today when today is
 * outside the report month: leg 1 08:00 to 08:00 and leg 2 08:00 to 18:00, distance 0, transport no.
 */
export const newReportLegs = (
  reportDate: CivilDate | string,
  today: CivilDate,
  timeZone: string,
  newId: () => string,
): E.Either<InputError, Leg[]> =>
  E.map((report: CivilDate) => {
    const day = sameMonth(report, today) ? report : today;
    const at8 = iso(instantAt(day, DAY_START.hour, DAY_START.minute, timeZone));
    const at18 = iso(instantAt(day, DAY_END.hour, DAY_END.minute, timeZone));
    return [
      { id: newId(), startdate: at8, enddate: at8, distance: 0, masstransit: 'no' as const },
      { id: newId(), startdate: at8, enddate: at18, distance: 0, masstransit: 'no' as const },
    ];
  })(toCivil(reportDate));

const checkIndex = (legs: readonly Leg[], index: number): E.Either<InputError, number> =>
  Number.isInteger(index) && index >= 0 && index < legs.length ? E.right(index) : E.left(inputError(`No leg ${index}`));

/**
 * Adds a stop after leg `afterIndex`: it starts 3 hours after that leg's start and ends at 18:00
 * of its start's day (or at its start, when that is already past 18:00, so no leg ends before it
 * starts), with distance 0 and the same transport.
 */
export const addStop = (legs: readonly Leg[], afterIndex: number, timeZone: string, newId: () => string): E.Either<InputError, Leg[]> =>
  E.map((i: number) => {
    const previous = legs[i];
    const start = ms(previous.startdate) + STOP_OFFSET_MS;
    const end = instantAt(civilDateOf(new Date(start), timeZone), DAY_END.hour, DAY_END.minute, timeZone).getTime();
    const stop: Leg = {
      id: newId(),
      startdate: iso(new Date(start)),
      enddate: iso(new Date(Math.max(start, end))),
      distance: 0,
      masstransit: previous.masstransit,
    };
    return [...legs.slice(0, i + 1), stop, ...legs.slice(i + 1)];
  })(checkIndex(legs, afterIndex));

/** Any leg except the first can be deleted. */
export const deleteLeg = (legs: readonly Leg[], index: number): E.Either<InputError, Leg[]> =>
  index === 0
    ? E.left(inputError('The first leg cannot be deleted'))
    : E.map((i: number) => legs.filter((_, j) => j !== i))(checkIndex(legs, index));

const shiftDays = (isoText: string, days: number, timeZone: string): string => {
  const wall = wallTimeOf(new Date(isoText), timeZone);
  return iso(instantOfWallTime({ ...wall, ...addDays(wall, days) }, timeZone));
};

/**
 * Moves leg `index` to another day, keeping its local times; the later legs that were on the same
 * day move with it (spec 002 section 4).
 */
export const changeLegDate = (legs: readonly Leg[], index: number, date: CivilDate, timeZone: string): E.Either<InputError, Leg[]> =>
  E.map((i: number) => {
    const oldDay = civilDateOf(new Date(legs[i].startdate), timeZone);
    const days = daysBetween(oldDay, date);
    if (days === 0) return [...legs];
    const oldKey = formatCivil(oldDay);
    return legs.map((leg, j) =>
      j === i || (j > i && formatCivil(civilDateOf(new Date(leg.startdate), timeZone)) === oldKey)
        ? { ...leg, startdate: shiftDays(leg.startdate, days, timeZone), enddate: shiftDays(leg.enddate, days, timeZone) }
        : leg,
    );
  })(checkIndex(legs, index));

/** A leg's enddate is the previous leg's start plus the leg's travel duration (seconds), for legs that have one. */
export const applyTravelDurations = (legs: readonly Leg[]): Leg[] =>
  legs.map((leg, i) =>
    i === 0 || leg.duration === undefined || leg.duration === null
      ? leg
      : { ...leg, enddate: iso(new Date(ms(legs[i - 1].startdate) + leg.duration * 1000)) },
  );

/** When the first and last locations are the same, the last leg's address and coordinates copy the first's. */
export const syncReturnLocation = (legs: readonly Leg[]): Leg[] => {
  if (legs.length < 2) return [...legs];
  const first = legs[0];
  const last = legs[legs.length - 1];
  if (!first.location || !last.location || first.location.id !== last.location.id) return [...legs];
  return [...legs.slice(0, -1), { ...last, address: first.address, latitude: first.latitude, longitude: first.longitude }];
};

/** A user's home: the place the first and last legs take when the report owner changes. */
export type HomeLocation = {
  readonly location?: LookupValue | null;
  readonly address?: string | null;
  readonly latitude?: number | null;
  readonly longitude?: number | null;
};

/** When the record owner changes, the first and last legs take the owner's home location. */
export const applyOwnerHome = (legs: readonly Leg[], home: HomeLocation): Leg[] =>
  legs.map((leg, i) =>
    i === 0 || i === legs.length - 1
      ? { ...leg, location: home.location ?? null, address: home.address ?? null, latitude: home.latitude ?? null, longitude: home.longitude ?? null }
      : leg,
  );

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Kilometres of a distance text ("12.5", "12,5 km") at 2 decimals (10 m), exact; unreadable text counts 0. */
const kmHundredths = (v: string | number | null | undefined): bigint => {
  if (blank(v)) return 0n;
  if (typeof v === 'number') return toScaled(v, 2) ?? 0n;
  const m = /[-+]?\d+(?:[.,]\d+)?/.exec(String(v));
  return m === null ? 0n : toScaled(m[0].replace(',', '.'), 2) ?? 0n;
};

const COSTS = ['travel_cost', 'food_cost', 'sleep_cost', 'other_cost', 'required_cost'] as const;

const expenseCents = (leg: Leg): bigint => COSTS.reduce((sum, k) => sum + (blank(leg[k]) ? 0n : toScaled(leg[k] as string | number, 2) ?? 0n), 0n);

/** A leg's expense: travel + food + sleep + other + required costs (precision 2, exact). */
export const legExpense = (leg: Leg): number => scaledToNumber(expenseCents(leg), 2);

/** The distance a leg counts towards total_distance: custom_distance when given, else distance; only for transport no. */
export const legDistance = (leg: Leg): number =>
  leg.masstransit !== 'no' ? 0 : scaledToNumber(kmHundredths(blank(leg.custom_distance) ? leg.distance : leg.custom_distance), 2);

export type RouteTotals = {
  /** km of the legs with transport no (custom_distance overriding distance), 2 decimals. */
  readonly total_distance: number;
  /** Sum of the legs' expenses (travel + food + sleep + other + required), 2 decimals. */
  readonly total_expense: number;
  /** Sum of the diet days' claims, when diet days are given. */
  readonly total_allowance: number;
  readonly startdate: string | null;
  readonly enddate: string | null;
  readonly start_locationid: LookupValue | null;
  readonly end_locationid: LookupValue | null;
  /** The stops' names (location label, else address) joined by ' - '. */
  readonly name_locations: string;
};

/** routeTotals: the report's totals, recomputed after every change of its legs (spec 002 section 4). */
export const routeTotals = (legs: readonly Leg[], diet: readonly DietDay[] = []): RouteTotals => {
  const first = legs[0];
  const last = legs[legs.length - 1];
  return {
    total_distance: scaledToNumber(
      legs.reduce((s, l) => s + (l.masstransit === 'no' ? kmHundredths(blank(l.custom_distance) ? l.distance : l.custom_distance) : 0n), 0n),
      2,
    ),
    total_expense: scaledToNumber(legs.reduce((s, l) => s + expenseCents(l), 0n), 2),
    total_allowance: scaledToNumber(diet.reduce((s, d) => s + (toScaled(d.claim, 2) ?? 0n), 0n), 2),
    startdate: first?.startdate ?? null,
    enddate: last?.enddate ?? null,
    start_locationid: first?.location ?? null,
    end_locationid: last?.location ?? null,
    name_locations: legs
      .map((l) => l.location?.label ?? l.address ?? '')
      .filter((n) => n !== '')
      .join(' - '),
  };
};

/** The route date picker: min the first day of the report month, max the 7th of the following month. */
export const routeDateBounds = (reportDate: CivilDate): { min: CivilDate; max: CivilDate } => {
  const first = { year: reportDate.year, month: reportDate.month, day: 1 };
  return { min: first, max: { ...addMonths(first, 1), day: 7 } };
};

/**
 * The days of a route as diet entries: for each local day between the first leg's start and the
 * last leg's end, the hours spent travelling on it (real elapsed time, so a DST day counts 23 or 25
 * hours; cut down to 2 decimals so the shown hours never pass a band the claim does not), the meals
 * kept from the previous entries of the same date, the claim and the claim with no meal provided.
 */
export const dietDays = (
  legs: readonly Leg[],
  timeZone: string,
  previous: readonly DietDay[] = [],
  decrees: readonly MealAllowanceDecree[] = MEAL_ALLOWANCE_DECREES,
): DietDay[] => {
  if (legs.length === 0) return [];
  const start = ms(legs[0].startdate);
  const end = ms(legs[legs.length - 1].enddate);
  if (!(end > start)) return [];
  const meals = new Map(previous.map((d) => [d.date, d.meals]));
  const out: DietDay[] = [];
  for (let day = civilDateOf(new Date(start), timeZone); ; day = addDays(day, 1)) {
    const dayStart = startOfDayInstant(day, timeZone).getTime();
    if (dayStart >= end) break;
    const dayEnd = startOfDayInstant(addDays(day, 1), timeZone).getTime();
    const spent = Math.min(end, dayEnd) - Math.max(start, dayStart);
    const hours = spent / 3_600_000;
    const date = formatCivil(day);
    const m = meals.get(date) ?? 0;
    out.push({
      date,
      hours: Math.floor(spent / 36_000) / 100,
      meals: m,
      claim: mealAllowance(hours, m, day, decrees),
      maxClaim: mealAllowance(hours, 0, day, decrees),
    });
  }
  return out;
};
