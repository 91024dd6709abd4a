import * as E from 'fp-ts/lib/Either.js';
import { ageInYears, compareCivil, parseCivil, type CivilDate } from '../dates/civil.js';

/** Child allowance (euro, spec 002 section 9) for a person under 17, or before their child bonus end. */
export const CHILD_ALLOWANCE = 60;
export const CHILD_ALLOWANCE_AGE_LIMIT = 17;
/** Parental allowance (euro) while the person has an active FamilyLeave employment. */
export const PARENTAL_ALLOWANCE = 351.8;
export const FAMILY_LEAVE = 'FamilyLeave';

/** A person (fi_osoba): birthday and child_bonus_end as YYYY-MM-DD (or ISO) texts. */
export type BudgetPerson = {
  readonly id: string;
  readonly name?: string | null;
  readonly birthday?: string | null;
  readonly child_bonus_end?: string | null;
};

/** An employment: its type, and the day it ends (none: open-ended). */
export type Employment = { readonly personid: string; readonly type: string; readonly enddate?: string | null };

const day = (text: string | null | undefined): CivilDate | undefined =>
  text === undefined || text === null || text === '' ? undefined : E.getOrElseW(() => undefined)(parseCivil(text.slice(0, 10)));

/**
 * Whether a person gets the child allowance on a day: under 17 years old then, or the day is
 * before their child_bonus_end (the end day itself no longer counts).
 */
export const getsChildAllowance = (person: BudgetPerson, on: CivilDate): boolean => {
  const birthday = day(person.birthday);
  const bonusEnd = day(person.child_bonus_end);
  return (
    (birthday !== undefined && ageInYears(birthday, on) < CHILD_ALLOWANCE_AGE_LIMIT) ||
    (bonusEnd !== undefined && compareCivil(on, bonusEnd) < 0)
  );
};

/** The child allowance of a person on a day: 60 or 0. */
export const childAllowance = (person: BudgetPerson, on: CivilDate): number => (getsChildAllowance(person, on) ? CHILD_ALLOWANCE : 0);

/** An employment is active on a day when it has no end day or ends on that day or later. */
export const isActiveEmployment = (e: Employment, on: CivilDate): boolean => {
  const end = day(e.enddate);
  return end === undefined || compareCivil(end, on) >= 0;
};

/** The parental allowance of a person on a day: 351.80 with an active FamilyLeave employment, else 0. */
export const parentalAllowance = (personId: string, employments: readonly Employment[], on: CivilDate): number =>
  employments.some((e) => e.personid === personId && e.type === FAMILY_LEAVE && isActiveEmployment(e, on)) ? PARENTAL_ALLOWANCE : 0;

/** A proposed income line of the family budget; the UI labels it by `kind` through the i18n catalogue. */
export type AllowanceLine = {
  readonly kind: 'childAllowance' | 'parentalAllowance';
  readonly type: 'in';
  readonly personid: string;
  readonly amount: number;
};

/** The allowance income lines of a family's members on a day. */
export const familyAllowanceLines = (members: readonly BudgetPerson[], employments: readonly Employment[], on: CivilDate): AllowanceLine[] =>
  members.flatMap((p) => [
    ...(getsChildAllowance(p, on) ? [{ kind: 'childAllowance' as const, type: 'in' as const, personid: p.id, amount: CHILD_ALLOWANCE }] : []),
    ...(parentalAllowance(p.id, employments, on) > 0
      ? [{ kind: 'parentalAllowance' as const, type: 'in' as const, personid: p.id, amount: PARENTAL_ALLOWANCE }]
      : []),
  ]);
