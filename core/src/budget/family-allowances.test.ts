import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CHILD_ALLOWANCE,
  childAllowance,
  familyAllowanceLines,
  isActiveEmployment,
  PARENTAL_ALLOWANCE,
  parentalAllowance,
} from './family-allowances.js';

const on = { year: 2024, month: 6, day: 15 };

describe('family budget allowances (spec 002 section 9)', () => {
  it('child allowance is 60 for a person under 17', () => {
    expect(CHILD_ALLOWANCE).toBe(60);
    expect(childAllowance({ id: 'p', birthday: '2007-06-16' }, on)).toBe(60); // 16 until tomorrow
    expect(childAllowance({ id: 'p', birthday: '2007-06-15' }, on)).toBe(0); // 17 today
  });

  it('or before the child bonus end (the end day itself no longer counts)', () => {
    expect(childAllowance({ id: 'p', birthday: '2000-01-01', child_bonus_end: '2024-06-16' }, on)).toBe(60);
    expect(childAllowance({ id: 'p', birthday: '2000-01-01', child_bonus_end: '2024-06-15' }, on)).toBe(0);
    expect(childAllowance({ id: 'p', child_bonus_end: '2025-01-01T00:00:00Z' }, on)).toBe(60);
    expect(childAllowance({ id: 'p' }, on)).toBe(0);
  });

  it('parental allowance is 351.80 with an active FamilyLeave employment', () => {
    expect(PARENTAL_ALLOWANCE).toBe(351.8);
    expect(parentalAllowance('p', [{ personid: 'p', type: 'FamilyLeave', enddate: null }], on)).toBe(351.8);
    expect(parentalAllowance('p', [{ personid: 'p', type: 'FamilyLeave', enddate: '2024-06-15' }], on)).toBe(351.8);
    expect(parentalAllowance('p', [{ personid: 'p', type: 'FamilyLeave', enddate: '2024-06-14' }], on)).toBe(0);
    expect(parentalAllowance('p', [{ personid: 'p', type: 'Employee' }], on)).toBe(0);
    expect(parentalAllowance('p', [{ personid: 'q', type: 'FamilyLeave' }], on)).toBe(0);
  });

  it('the allowance lines of a family are income lines per person', () => {
    const lines = familyAllowanceLines(
      [
        { id: 'mum', birthday: '1990-01-01' },
        { id: 'kid', birthday: '2015-05-05' },
      ],
      [{ personid: 'mum', type: 'FamilyLeave' }],
      on,
    );
    expect(lines).toEqual([
      { kind: 'parentalAllowance', type: 'in', personid: 'mum', amount: 351.8 },
      { kind: 'childAllowance', type: 'in', personid: 'kid', amount: 60 },
    ]);
  });

  it('property: the child allowance is 60 exactly when the person is under 17 or the day is before child_bonus_end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.boolean(), (years, bonus) => {
        const birthday = `${2024 - years}-06-15`;
        const person = { id: 'p', birthday, child_bonus_end: bonus ? '2024-06-16' : null };
        expect(childAllowance(person, on)).toBe(years < 17 || bonus ? 60 : 0);
      }),
    );
  });

  it('property: an employment without an end is active on every day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1801, max: 2199 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(isActiveEmployment({ personid: 'p', type: 'FamilyLeave' }, { year, month, day: 1 })).toBe(true);
      }),
    );
  });
});
