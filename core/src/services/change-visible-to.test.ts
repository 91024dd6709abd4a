import { describe, expect, it } from 'vitest';
import { left, right } from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.js';
import { packMask } from '../permissions/mask.js';
import type { Caller, Level } from '../permissions/types.js';
import type { RecordStore } from '../ports/record-store.js';
import { changeVisibleTo } from './change-visible-to.js';

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
