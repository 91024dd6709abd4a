import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { left, right } from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.js';
import { packMask } from '../permissions/mask.js';
import type { Caller, Level } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { changesVisibleTo, changeVisibleTo, ChangeVisibility } from './change-visible-to.js';

const readingAt = (read: Level): Caller => ({
  userId: 'u',
  teams: [],
  permissions: { permissions: { account: packMask({ create: 0, read, update: 0, delete: 0 }) }, apps: [], owners: [], needsTeams: false },
});
const store = (readable: boolean): Pick<RecordStore, 'retrieveById'> => ({
  retrieveById: async () => (readable ? right({ id: 'r1' }) : left(notFound('no'))),
});
const change = (operation: 'create' | 'update' | 'delete') => ({ entity: 'account', id: 'r1', operation, stamp: '2026-11-24T10:00:00.000Z' });

describe('API.md Realtime: who may see a change', () => {
  it('a created or updated record goes to users who may read that record now', async () => {
    expect(await changeVisibleTo(store(true), readingAt(1), change('update'))).toBe(true);
    expect(await changeVisibleTo(store(false), readingAt(1), change('create'))).toBe(false);
  });

  it('no read level on the entity: no change of it at all', async () => {
    expect(await changeVisibleTo(store(true), readingAt(0), change('update'))).toBe(false);
  });

  it('a deletion goes only to users who read every record of the entity (organization level)', async () => {
    expect(await changeVisibleTo(store(false), readingAt(3), change('delete'))).toBe(true);
    for (const level of [1, 2] as const) expect(await changeVisibleTo(store(true), readingAt(level), change('delete'))).toBe(false);
  });
});

/** A store whose readable records are a set of ids; it counts its reads. */
const setStore = (readable: ReadonlySet<string>) => {
  const calls = { byId: 0, multiple: 0 };
  const s: Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'> = {
    retrieveById: async (_c, _e, id) => {
      calls.byId++;
      return readable.has(id) ? right({ id }) : left(notFound('no'));
    },
    retrieveMultiple: async (_c, request) => {
      calls.multiple++;
      const ids = (request.entity.filter?.conditions?.[0]?.value ?? []) as string[];
      const records = ids.filter((id) => readable.has(id)).map((id) => ({ id }));
      return right({ records, count: null, page: 1, pageSize: ids.length, moreRecords: false });
    },
  };
  return { store: s, calls };
};

describe('API.md Realtime: many changes at once (an import batch must not read each record once per subscriber)', () => {
  it('at the organization level a created or updated record is visible without reading it', async () => {
    const { store: s, calls } = setStore(new Set());
    expect(await changeVisibleTo(s, readingAt(3), change('update'))).toBe(true);
    expect(await changesVisibleTo(s, readingAt(3), [change('create'), change('update')])).toEqual([true, true]);
    expect(calls).toEqual({ byId: 0, multiple: 0 });
  });

  it('property: the decisions for a list of changes are those of each change alone, with one read per 500 ids', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Level>(0, 1, 2, 3),
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 1500 }).map((n) => `r${n}`), operation: fc.constantFrom('create' as const, 'update' as const, 'delete' as const) }), { maxLength: 1200 }),
        fc.integer({ min: 0, max: 1500 }),
        async (level, list, cut) => {
          const readable = new Set(Array.from({ length: cut }, (_, n) => `r${n}`));
          const changes = list.map((c) => ({ entity: 'account', ...c, stamp: '2026-11-24T10:00:00.000Z' }));
          const one = setStore(readable);
          const alone = await Promise.all(changes.map((c) => changeVisibleTo(one.store, readingAt(level), c)));
          const many = setStore(readable);
          expect(await changesVisibleTo(many.store, readingAt(level), changes)).toEqual(alone);
          const toRead = new Set(changes.filter((c) => c.operation !== 'delete').map((c) => c.id)).size;
          expect(many.calls.multiple).toBe(level === 1 || level === 2 ? Math.ceil(toRead / 500) : 0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('ChangeVisibility decides a batch with one read and remembers it for the next stream of the user', async () => {
    const { store: s, calls } = setStore(new Set(['r1', 'r3']));
    const v = new ChangeVisibility(s);
    const changes = ['r1', 'r2', 'r3'].map((id) => ({ entity: 'account', id, operation: 'update' as const, stamp: '2026-11-24T10:00:00.000Z' }));
    expect(await v.visibleToMany(readingAt(1), changes)).toEqual([true, false, true]);
    expect(await v.visibleTo(readingAt(1), changes[1])).toBe(false);
    expect(calls).toEqual({ byId: 0, multiple: 1 });
  });
});
