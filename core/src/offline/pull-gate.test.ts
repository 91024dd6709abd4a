import { describe, expect, it } from 'vitest';
import { AUDIT_DELETE } from '../store/audit.js';
import { goOffline, NO_USER_CONTEXT } from './offline-gate.js';
import { applyPull, deletionsOf, nextLastSync, pullRequests } from './pull.js';
import { recordKey } from './queue.js';

describe('pull (issue 21: fresh data since the last sync: changes by modifiedon, deletions from the audit entity)', () => {
  it('asks per kept list for modifiedon after the last sync, within the list filter, and the audit deletions', () => {
    const listFilter = { conditions: [{ attribute: 'city', operator: 'eq' as const, value: 'Brno' }] };
    const { changed, deleted } = pullRequests([{ entity: 'account', filter: listFilter }, { entity: 'contact' }], '2026-11-25T05:00:00.000Z');
    expect(changed).toHaveLength(2);
    expect(changed[0]!.entity.filter).toEqual({
      type: 'and',
      conditions: [{ attribute: 'modifiedon', operator: 'gt', value: '2026-11-25T05:00:00.000Z' }],
      filters: [listFilter],
    });
    expect(deleted!.entity.name).toBe('audit');
    expect(deleted!.entity.filter!.conditions).toEqual([
      { attribute: 'operation', operator: 'eq', value: AUDIT_DELETE },
      { attribute: 'createdon', operator: 'gt', value: '2026-11-25T05:00:00.000Z' },
      { attribute: 'logicalname', operator: 'in', value: ['account', 'contact'] },
    ]);
  });

  it('the first pull (no last sync) loads the lists whole and asks no deletions', () => {
    const { changed, deleted } = pullRequests([{ entity: 'account' }], undefined);
    expect(changed[0]!.entity.filter).toEqual({ type: 'and', conditions: [] });
    expect(deleted).toBeUndefined();
  });

  it('applies changes and deletions; local queued changes win until synced', () => {
    const local = new Map([
      [recordKey('account', 'a'), { id: 'a', name: 'old' }],
      [recordKey('account', 'b'), { id: 'b', name: 'mine, queued' }],
      [recordKey('account', 'c'), { id: 'c', name: 'to delete' }],
      [recordKey('account', 'd'), { id: 'd', name: 'queued, deleted on server' }],
    ]);
    const pull = {
      changed: [{ entity: 'account', records: [{ id: 'a', name: 'new', modifiedon: '2026-11-25T05:10:00.000Z' }, { id: 'b', name: 'server' }, { id: 'e', name: 'added' }] }],
      deleted: deletionsOf([{ logicalname: 'account', objectid: 'c' }, { logicalname: 'account', objectid: 'd' }]),
    };
    const queue = [
      { kind: 'update' as const, entity: 'account', id: 'b', fields: { name: 'mine, queued' }, base: { name: 'x' }, versionnumber: 1 },
      { kind: 'update' as const, entity: 'account', id: 'd', fields: { name: 'queued, deleted on server' }, base: { name: 'x' }, versionnumber: 1 },
    ];
    const out = applyPull(local, pull, queue);
    expect(out.get(recordKey('account', 'a'))!.name).toBe('new');
    expect(out.get(recordKey('account', 'b'))!.name).toBe('mine, queued');
    expect(out.has(recordKey('account', 'c'))).toBe(false);
    expect(out.get(recordKey('account', 'd'))!.name).toBe('queued, deleted on server');
    expect(out.get(recordKey('account', 'e'))!.name).toBe('added');
    expect(nextLastSync('2026-11-25T05:00:00.000Z', pull)).toBe('2026-11-25T05:10:00.000Z');
  });
});

describe("going offline (spec 002: 'No user context, cannot work offline')", () => {
  it('needs a cached user context', () => {
    expect(goOffline(undefined)).toEqual({ _tag: 'Left', left: { _tag: 'InputError', code: 'ERR_INPUT', message: NO_USER_CONTEXT } });
    expect(NO_USER_CONTEXT).toBe('No user context, cannot work offline');
    expect(goOffline({ user: { id: 'u1' } })).toEqual({ _tag: 'Right', right: { user: { id: 'u1' } } });
  });
});
