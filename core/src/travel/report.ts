import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { EntityRecord } from '../metadata/entity.js';
import { compareCivil, formatCivil, type CivilDate } from '../dates/civil.js';
import { civilDateOf, instantOfWallTime, wallTimeOf } from '../dates/zoned.js';
import { changeLegDate, DietDay, Leg, routeTotals, syncReturnLocation } from './route.js';

/**
 * The travel report record and its JSON fields (spec 002 section 3): the legs and diet days are
 * stored as legs_json and diet_json on route_route, with the totals the list shows beside them.
 */

const parseJsonArray = <A>(codec: t.Type<A, unknown>, text: unknown, what: string): E.Either<InputError, A[]> => {
  if (text === undefined || text === null || text === '') return E.right([]);
  if (typeof text !== 'string') return E.left(inputError(`${what} is not JSON text`));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return E.left(inputError(`${what} is not JSON`));
  }
  const decoded = t.array(codec).decode(raw);
  return E.isLeft(decoded) ? E.left(inputError(`${what} is not a list of ${codec.name}`)) : E.right(decoded.right);
};

/** The legs of a stored report; empty text is no legs. */
export const parseLegs = (legsJson: unknown): E.Either<InputError, Leg[]> => parseJsonArray(Leg, legsJson, 'legs_json');
/** The diet days of a stored report; empty text is no days. */
export const parseDiet = (dietJson: unknown): E.Either<InputError, DietDay[]> => parseJsonArray(DietDay, dietJson, 'diet_json');

/**
 * The fields of route_route a change of the legs or the diet sets (saved with the record): the
 * JSON of both, the stops' names, the totals, the first start and last end, the start and end
 * locations.
 */
export const reportFields = (legs: readonly Leg[], diet: readonly DietDay[]): EntityRecord => {
  const totals = routeTotals(legs, diet);
  return {
    legs_json: JSON.stringify(legs),
    diet_json: JSON.stringify(diet),
    name_locations: totals.name_locations.slice(0, 1000),
    total_distance: totals.total_distance,
    total_expense: totals.total_expense,
    startdate: totals.startdate,
    enddate: totals.enddate,
    start_locationid: totals.start_locationid,
    end_locationid: totals.end_locationid,
  };
};

/** A day kept inside the route date picker's window (routeDateBounds). */
export const clampToBounds = (day: CivilDate, bounds: { min: CivilDate; max: CivilDate }): CivilDate =>
  compareCivil(day, bounds.min) < 0 ? bounds.min : compareCivil(day, bounds.max) > 0 ? bounds.max : day;

/**
 * Sets a leg's start to an instant: a start on another day moves the leg with changeLegDate (the
 * later legs of the same day move along), then the start takes the new time. No order of start and
 * end is imposed: under the spec's rule (a leg's end is the previous leg's start plus the travel
 * time) a leg's start is when the traveller leaves its stop and its end when they arrive there.
 */
export const setLegStart = (legs: readonly Leg[], index: number, startIso: string, timeZone: string): E.Either<InputError, Leg[]> => {
  const start = new Date(startIso);
  if (Number.isNaN(start.getTime())) return E.left(inputError(`Not a date: ${startIso}`));
  return E.map((moved: Leg[]) => moved.map((leg, j) => (j === index ? { ...leg, startdate: start.toISOString() } : leg)))(
    changeLegDate(legs, index, civilDateOf(start, timeZone), timeZone),
  );
};

/** Sets a leg's end. */
export const setLegEnd = (legs: readonly Leg[], index: number, endIso: string): E.Either<InputError, Leg[]> => {
  const end = new Date(endIso);
  if (!legs[index]) return E.left(inputError(`No leg ${index}`));
  if (Number.isNaN(end.getTime())) return E.left(inputError(`Not a date: ${endIso}`));
  return E.right(legs.map((l, j) => (j === index ? { ...l, enddate: end.toISOString() } : l)));
};

/** The same wall time on another local day (the picker's date part changing, its time kept). */
export const sameTimeOnDay = (iso: string, day: CivilDate, timeZone: string): string =>
  instantOfWallTime({ ...wallTimeOf(new Date(iso), timeZone), ...day }, timeZone).toISOString();

/**
 * While the end location is locked (spec 002 section 4, a round trip), the last leg takes the
 * first leg's location, address and coordinates; unlocked, only an equal location copies the rest.
 */
export const followStart = (legs: readonly Leg[], endLocked: boolean): Leg[] => {
  if (legs.length < 2 || !endLocked) return syncReturnLocation(legs);
  const first = legs[0];
  const last = legs[legs.length - 1];
  return [
    ...legs.slice(0, -1),
    { ...last, location: first.location ?? null, address: first.address ?? null, latitude: first.latitude ?? null, longitude: first.longitude ?? null },
  ];
};

/** The local day (YYYY-MM-DD) a leg starts on. */
export const legDay = (leg: Leg, timeZone: string): string => formatCivil(civilDateOf(new Date(leg.startdate), timeZone));
