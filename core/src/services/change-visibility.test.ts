import { describe, expect, it } from 'vitest';
import { left, right } from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.js';
import { packMask } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { ChangeVisibility } from './change-visible-to.js';

const reader = (userId: string): Caller => ({
  userId,
  teams: [],
  permissions: { permissions: { account: packMask({ create: 0, read: 1, update: 0, delete: 0 }) }, apps: [], owners: [], needsTeams: false },
});

/** A spy of the RecordStore port: counts the reads that decide visibility (by id, or a batch of ids). */
const spyStore = (readableBy: (userId: string) => boolean) => {
  const spy = {
    reads: 0,
    retrieveById: async (caller: Caller, _entity: string, id: string) => {
      spy.reads++;
      return readableBy(caller.userId) ? right({ id }) : left(notFound('no'));
    },
    retrieveMultiple: async (caller: Caller, request: { entity: { filter?: { conditions?: Array<{ value?: unknown }> } } }) => {
      spy.reads++;
      const ids = (request.entity.filter?.conditions?.[0]?.value ?? []) as string[];
      const records = readableBy(caller.userId) ? ids.map((id) => ({ id })) : [];
      return right({ records, count: null, page: 1, pageSize: ids.length, moreRecords: false });
    },
  };
  return spy as typeof spy & Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'>;
};
const change = (id: string, stamp = '2026-11-24T10:00:00.000Z') => ({ entity: 'account', id, operation: 'update' as const, stamp });

describe('issue 22 item 7: visibility of a change is decided once per user, not once per stream', () => {
  it('five streams of one user asking about one change run one check; another user gets their own', async () => {
    const store = spyStore((u) => u === 'eva');
    const v = new ChangeVisibility(store);
    const c = change('r1');
    const eva = await Promise.all(Array.from({ length: 5 }, () => v.visibleTo(reader('eva'), c)));
    expect(eva).toEqual([true, true, true, true, true]);
    expect(store.reads).toBe(1);
    const adam = await Promise.all(Array.from({ length: 5 }, () => v.visibleTo(reader('adam'), c)));
    expect(adam).toEqual([false, false, false, false, false]);
    expect(store.reads).toBe(2);
  });

  it('another change, or the same record changed again, is decided anew', async () => {
    const store = spyStore(() => true);
    const v = new ChangeVisibility(store);
    await v.visibleTo(reader('eva'), change('r1'));
    await v.visibleTo(reader('eva'), change('r2'));
    await v.visibleTo(reader('eva'), change('r1', '2026-11-24T10:00:01.000Z'));
    expect(store.reads).toBe(3);
  });

  it('only the latest decisions are kept: memory stays bounded, the oldest is decided again', async () => {
    const store = spyStore(() => true);
    const v = new ChangeVisibility(store, 2);
    for (const id of ['a', 'b', 'c']) await v.visibleTo(reader('eva'), change(id));
    await v.visibleTo(reader('eva'), change('c'));
    expect(store.reads).toBe(3);
    await v.visibleTo(reader('eva'), change('a'));
    expect(store.reads).toBe(4);
  });

  it('a check that fails is not remembered', async () => {
    let fail = true;
    const store = {
      reads: 0,
      read: async () => {
        store.reads++;
        if (fail) throw new Error('database gone');
        return right({ records: [{ id: 'r1' }], count: null, page: 1, pageSize: 1, moreRecords: false });
      },
    };
    const v = new ChangeVisibility({ retrieveById: store.read, retrieveMultiple: store.read } as unknown as Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'>);
    await expect(v.visibleTo(reader('eva'), change('r1'))).rejects.toThrow('database gone');
    fail = false;
    expect(await v.visibleTo(reader('eva'), change('r1'))).toBe(true);
    expect(store.reads).toBe(2);
  });
});
