import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, Property } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller } from '../ports/record-store.js';
import { isoStamp, recordToCreate, storedFields } from './record-rules.js';

const user: Caller = { userId: '0f8fad5b-d9cb-469f-a165-70867728950e', teams: [], permissions: { permissions: {}, apps: [], owners: [], needsTeams: false } };
const base: Property[] = [
  { logicalName: 'id', displayName: 'Id', type: 'Guid' },
  { logicalName: 'name', displayName: 'Name', type: 'String', max: 10 },
  { logicalName: 'qty', displayName: 'Quantity', type: 'Integer' },
  { logicalName: 'statuscode', displayName: 'Status', type: 'Integer', defaultValue: 1 },
  { logicalName: 'pin', displayName: 'Pin', type: 'String', secret: true },
  { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
  { logicalName: 'versionnumber', displayName: 'Version', type: 'VersionNumber' },
];
const entity = (properties: Property[] = base): Entity => ({ logicalName: 'item', displayName: 'Item', displayNamePlural: 'Items', properties });
const now = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
let n = 0;
const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

describe('issue 5 section 3: the rules of a write hold for every record of a bulk write', () => {
  it('property: a stamp is the ISO text of its time, however many records share a millisecond', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 50 }), (steps) => {
        let t = Date.UTC(2026, 0, 1);
        for (const s of steps) {
          t += s;
          expect(isoStamp(new Date(t))).toBe(new Date(t).toISOString());
        }
      }),
    );
  });

  it('a created record has the id, the defaults of fields not given, the given fields and the system fields', () => {
    const e = entity();
    const a = recordToCreate(e, { name: 'A', qty: 2 }, systemCaller(), now, newId);
    const b = recordToCreate(e, { name: 'B', statuscode: 3, createdon: '1999-01-01T00:00:00.000Z' }, systemCaller(), now, newId);
    expect(isRight(a) && a.right).toEqual({ id: expect.stringMatching(/^0{8}-/), statuscode: 1, name: 'A', qty: 2, createdon: now.toISOString(), versionnumber: 1 });
    expect(isRight(b) && b.right).toEqual({ id: expect.stringMatching(/^0{8}-/), statuscode: 3, name: 'B', createdon: now.toISOString(), versionnumber: 1 });
  });

  it('each record of the same fields is checked again: a bad value or an unknown field is still ERR_INPUT', () => {
    const e = entity();
    for (let i = 0; i < 3; i++) expect(isRight(storedFields(e, { name: `n${i}`, qty: i }, systemCaller()))).toBe(true);
    const tooLong = storedFields(e, { name: 'far too long a name', qty: 1 }, systemCaller());
    const unknown = storedFields(e, { name: 'x', shoe: 1 }, systemCaller());
    expect(isLeft(tooLong) && tooLong.left.code).toBe('ERR_INPUT');
    expect(isLeft(unknown) && unknown.left.message).toBe('Field not found:item.shoe');
  });

  it('a secret field is written by the system only, also right after the system wrote the same fields', () => {
    const e = entity();
    expect(isRight(storedFields(e, { name: 'x', pin: '1234' }, systemCaller()))).toBe(true);
    const byUser = storedFields(e, { name: 'x', pin: '1234' }, user);
    expect(isLeft(byUser) && byUser.left.message).toBe('Field not found:item.pin');
  });

  it('a changed entity (a new object, or a new property list) is read again', () => {
    const before = entity();
    expect(isLeft(storedFields(before, { name: 'x', city: 'Wien' }, systemCaller()))).toBe(true);
    const after = entity([...base, { logicalName: 'city', displayName: 'City', type: 'String' }]);
    expect(isRight(storedFields(after, { name: 'x', city: 'Wien' }, systemCaller()))).toBe(true);
    const created = recordToCreate(after, { name: 'x' }, systemCaller(), now, newId);
    expect(isRight(created) && created.right.statuscode).toBe(1);
  });
});
