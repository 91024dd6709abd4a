import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import { applyChanges, changeSet, updatePayload } from './change-set.js';
import { valuesEqual } from './values.js';

const value: fc.Arbitrary<FieldValue | undefined> = fc.oneof(
  fc.constantFrom<FieldValue | undefined>(null, undefined, '', 'a', 'b', 0, 1, true),
  fc.constantFrom('x1', 'X1', 'x2').map((id): FieldValue => ({ id, name: 'account', label: id })),
);
const rec = fc.dictionary(fc.constantFrom('name', 'city', 'amount', 'parentid'), value);

describe('changeSet: only changed fields are sent (spec 001 section 4)', () => {
  it('holds the edited fields whose values differ, nothing else', () => {
    const loaded = { id: 'r1', versionnumber: 'v1', name: 'Acme', city: 'Wien', parentid: { id: 'p1', name: 'account', label: 'Old' } };
    const edited = { ...loaded, city: 'Graz', parentid: { id: 'P1', name: 'account', label: 'Renamed' } };
    expect(changeSet(loaded, edited)).toEqual({ city: 'Graz' });
  });

  it('a cleared field is sent as null; undefined and null are the same value', () => {
    expect(changeSet({ name: 'Acme', city: 'Wien' }, { city: undefined })).toEqual({ city: null });
    expect(changeSet({ city: null }, { city: undefined })).toEqual({});
  });

  it('an update carries id, the loaded versionnumber and the changed fields', () => {
    expect(updatePayload({ id: 'r1', versionnumber: 'v1', name: 'A' }, { id: 'r1', versionnumber: 'v1', name: 'B' })).toEqual({
      id: 'r1',
      versionnumber: 'v1',
      name: 'B',
    });
  });

  it('applying the change set to the loaded record gives the edited values', () => {
    fc.assert(
      fc.property(rec, rec, (loaded: EntityRecord, edited: EntityRecord) => {
        const applied = applyChanges(loaded, changeSet(loaded, edited));
        for (const f of Object.keys(edited)) expect(valuesEqual(applied[f], edited[f])).toBe(true);
      }),
    );
  });

  it('an unedited record has an empty change set, and the change set never names an unchanged field', () => {
    fc.assert(
      fc.property(rec, rec, (loaded: EntityRecord, edited: EntityRecord) => {
        expect(changeSet(loaded, loaded)).toEqual({});
        for (const [f, v] of Object.entries(changeSet(loaded, edited))) expect(valuesEqual(loaded[f], v)).toBe(false);
      }),
    );
  });
});

describe('structural equality of field values', () => {
  it('compares lookups by id, instants by the moment, null as undefined', () => {
    expect(valuesEqual({ id: 'a', name: 'x', label: 'A' }, { id: 'A', name: 'x' })).toBe(true);
    expect(valuesEqual({ id: 'a', name: 'x' }, 'a')).toBe(false);
    expect(valuesEqual('2024-03-01T10:00:00Z', '2024-03-01T11:00:00+01:00')).toBe(true);
    expect(valuesEqual('2024-03-01', '2024-03-02')).toBe(false);
    expect(valuesEqual(null, undefined)).toBe(true);
    expect(valuesEqual('', null)).toBe(false);
    expect(valuesEqual(0, false)).toBe(false);
  });

  it('is an equivalence: reflexive and symmetric', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(valuesEqual(a, a)).toBe(true);
        expect(valuesEqual(a, b)).toBe(valuesEqual(b, a));
      }),
    );
  });
});
