import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import { changeSet } from './change-set.js';
import { mergeOnConflict } from './merge.js';
import { changedFields, valuesEqual } from './values.js';

const FIELDS = ['name', 'city', 'amount', 'ownerid', 'due', 'done'];
const value: fc.Arbitrary<FieldValue | undefined> = fc.oneof(
  fc.constantFrom<FieldValue | undefined>(null, undefined, '', 'Bratislava', 'Wien', 0, 12.5, true, false, '2024-03-01T10:00:00Z', '2024-03-01T10:00:00.000Z'),
  fc.constantFrom('u1', 'U1', 'u2').map((id): FieldValue => ({ id, name: 'systemuser', label: id === 'u2' ? 'Eva' : 'Jan' })),
);
const recordArb = fc.dictionary(fc.constantFrom(...FIELDS), value).map((r): EntityRecord => ({ ...r, id: 'r1', versionnumber: 'v1' }));
const changesArb = (fields: string[]) => fc.dictionary(fc.constantFrom(...(fields.length ? fields : ['name'])), value);

const eva = { id: 'u2', name: 'systemuser', label: 'Eva' };

describe('mergeOnConflict (spec 001 section 4, 002 section 4)', () => {
  it('merges when the server changed only fields not changed locally, keeping local changes and adopting the server versionnumber', () => {
    const loaded = { id: 'r1', versionnumber: 'v1', name: 'Acme', city: 'Wien', modifiedby: eva };
    const server = { ...loaded, versionnumber: 'v2', city: 'Graz' };
    const r = mergeOnConflict(loaded, { name: 'Acme Ltd' }, server);
    expect(r).toEqual({
      _tag: 'Right',
      right: { _tag: 'Merged', record: { ...server, name: 'Acme Ltd' }, changes: { name: 'Acme Ltd' }, versionnumber: 'v2' },
    });
  });

  it('merges when both sides set the same value; nothing is left to send for that field', () => {
    const loaded = { id: 'r1', versionnumber: 'v1', name: 'Acme' };
    const r = mergeOnConflict(loaded, { name: 'Acme Ltd' }, { ...loaded, versionnumber: 'v2', name: 'Acme Ltd' });
    expect(r._tag === 'Right' && r.right.changes).toEqual({});
    expect(r._tag === 'Right' && r.right.record.name).toBe('Acme Ltd');
  });

  it("fails with 'This record was modified by {modifier}', the server's modifiedby label, when both changed a field differently", () => {
    const loaded = { id: 'r1', versionnumber: 'v1', name: 'Acme', modifiedby: { id: 'u1', name: 'systemuser', label: 'Jan' } };
    const r = mergeOnConflict(loaded, { name: 'Mine' }, { ...loaded, versionnumber: 'v2', name: 'Theirs', modifiedby: eva });
    expect(r).toEqual({
      _tag: 'Left',
      left: { _tag: 'VersionConflict', code: 'ERR_8001', message: 'This record was modified by Eva', modifier: 'Eva', fields: ['name'] },
    });
  });

  it('lookups are compared by id: a renamed label is no change, another id is', () => {
    const loaded = { id: 'r1', versionnumber: 'v1', ownerid: { id: 'u1', name: 'systemuser', label: 'Jan' } };
    const relabelled = { ...loaded, versionnumber: 'v2', ownerid: { id: 'U1', name: 'systemuser', label: 'Jan Novak' } };
    expect(mergeOnConflict(loaded, { ownerid: eva }, relabelled)._tag).toBe('Right');
    expect(mergeOnConflict(loaded, { ownerid: { id: 'u3', name: 'systemuser' } }, { ...relabelled, ownerid: eva })._tag).toBe('Left');
  });

  it('a field set back to its loaded value is not a local change: the server value wins', () => {
    const loaded = { id: 'r1', versionnumber: 'v1', city: 'Wien' };
    const r = mergeOnConflict(loaded, { city: 'Wien' }, { ...loaded, versionnumber: 'v2', city: 'Graz' });
    expect(r._tag === 'Right' && r.right.record.city).toBe('Graz');
  });

  it('no local change is ever dropped', () => {
    fc.assert(
      fc.property(recordArb, recordArb, changesArb(FIELDS), (loaded, server, local) => {
        const r = mergeOnConflict(loaded, local, server);
        if (r._tag === 'Right') for (const [f, v] of Object.entries(changeSet(loaded, local))) expect(valuesEqual(r.right.record[f], v)).toBe(true);
      }),
    );
  });

  it('no server change is ever overwritten silently: merged records hold every server change, else it is a conflict on exactly the fields both changed differently', () => {
    fc.assert(
      fc.property(recordArb, recordArb, changesArb(FIELDS), (loaded, server, local) => {
        const r = mergeOnConflict(loaded, local, server);
        const mine = changeSet(loaded, local);
        const both = changedFields(loaded, server).filter((f) => f in mine && !valuesEqual(mine[f], server[f]));
        if (r._tag === 'Right') {
          expect(both).toEqual([]);
          for (const f of changedFields(loaded, server)) expect(valuesEqual(r.right.record[f], server[f])).toBe(true);
          expect(r.right.record.versionnumber).toBe(server.versionnumber);
        } else {
          expect(r.left.fields).toEqual(both);
          expect(r.left.fields.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('with no server change the merge is the identity: the loaded record with the local changes', () => {
    fc.assert(
      fc.property(recordArb, changesArb(FIELDS), (loaded, local) => {
        const r = mergeOnConflict(loaded, local, loaded);
        expect(r._tag).toBe('Right');
        if (r._tag === 'Right') {
          expect(r.right.record).toEqual({ ...loaded, ...changeSet(loaded, local) });
          expect(r.right.changes).toEqual(changeSet(loaded, local));
        }
      }),
    );
  });

  it('disjoint changes always merge', () => {
    const disjoint = fc.subarray(FIELDS).chain((serverFields) => {
      const localFields = FIELDS.filter((f) => !serverFields.includes(f));
      return fc.record({
        serverChanges: serverFields.length ? changesArb(serverFields) : fc.constant({}),
        localChanges: localFields.length ? changesArb(localFields) : fc.constant({}),
      });
    });
    fc.assert(
      fc.property(recordArb, disjoint, (loaded, { serverChanges, localChanges }) => {
        const server = { ...loaded, ...serverChanges, versionnumber: 'v2' };
        expect(mergeOnConflict(loaded, localChanges, server)._tag).toBe('Right');
      }),
    );
  });
});
