import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight, left, right } from 'fp-ts/lib/Either.js';
import { inputError } from '../errors.js';
import { STATE_ACTIVE, STATE_INACTIVE } from '../metadata/system-fields.js';
import { systemCaller, type ItemResult, type RecordStore, type WriteItem } from '../ports/record-store.js';
import { applyWrite, applyWrites, usersSignedOutBy, withWriteEffects } from './apply-writes.js';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';
const now = new Date('2026-11-24T10:00:00Z');
const caller = systemCaller();

/** The SessionStore calls the write use cases make, recorded. */
const sessionLog = () => {
  const ended: Array<[string, string]> = [];
  const touched: string[] = [];
  return {
    ended,
    touched,
    sessions: {
      touchModified: async (name: string) => void touched.push(name),
      endForUser: async (org: string, userId: string) => (ended.push([org, userId]), 1),
    },
  };
};

/** A store that answers every item with an id, or the error chosen for an item's index. */
const storeAnswering = (errors: Record<number, string> = {}): Pick<RecordStore, 'create' | 'update' | 'delete' | 'executeMultiple' | 'retrieveMultiple'> => ({
  create: async () => right('new-id'),
  update: async (_c, _e, o) => right(String(o.id)),
  delete: async (_c, _e, o) => (errors[0] ? left(inputError(errors[0])) : right(String(o.id))),
  executeMultiple: async (_c, items) => right(items.map((i, n): ItemResult => (errors[n] ? { error: errors[n] } : { id: String(i.object.id ?? 'new') }))),
  retrieveMultiple: async () => right({ records: [], count: null, page: 1, pageSize: 50, moreRecords: false }),
});

const deactivate = (id: string): WriteItem => ({ operation: 'update', name: 'systemuser', object: { id, statecode: STATE_INACTIVE } });

describe('issue 6: deactivating or deleting a user ends their sessions, on every write path', () => {
  it('usersSignedOutBy: a systemuser deleted or set Inactive; not other entities, not activation', () => {
    expect(
      usersSignedOutBy([
        deactivate(U1),
        { operation: 'delete', name: 'systemuser', object: { id: U2.toUpperCase() } },
        { operation: 'update', name: 'systemuser', object: { id: 'keep-1', statecode: STATE_ACTIVE } },
        { operation: 'delete', name: 'account', object: { id: 'keep-2' } },
        { operation: 'update', name: 'contact', object: { id: 'keep-3', statecode: STATE_INACTIVE } },
      ]),
    ).toEqual([U1, U2]);
  });

  it('property: only systemuser items that delete or deactivate sign anybody out, each user once', () => {
    const item = fc.record({
      operation: fc.constantFrom<WriteItem['operation']>('create', 'update', 'delete'),
      name: fc.constantFrom('systemuser', 'account'),
      object: fc.record({ id: fc.constantFrom(U1, U2), statecode: fc.constantFrom(STATE_ACTIVE, STATE_INACTIVE) }),
    });
    fc.assert(
      fc.property(fc.array(item), (items) => {
        const out = usersSignedOutBy(items);
        expect(new Set(out).size).toBe(out.length);
        const expected = new Set(items.filter((i) => i.name === 'systemuser' && (i.operation === 'delete' || i.object.statecode === STATE_INACTIVE)).map((i) => i.object.id));
        expect(new Set(out)).toEqual(expected);
      }),
    );
  });

  it('applyWrite (/api/update): a deactivation ends the user\'s sessions and marks the writing session', async () => {
    const log = sessionLog();
    const r = await applyWrite({ store: storeAnswering(), sessions: log.sessions, clock: { now: () => now } }, { caller, orgName: 'acme', sessionName: 's1' }, deactivate(U1));
    expect(r).toEqual(right(U1));
    expect(log.ended).toEqual([['acme', U1]]);
    expect(log.touched).toEqual(['s1']);
  });

  it('applyWrite: a refused write ends nothing and marks nothing', async () => {
    const log = sessionLog();
    const r = await applyWrite(
      { store: storeAnswering({ 0: 'no' }), sessions: log.sessions, clock: { now: () => now } },
      { caller, orgName: 'acme', sessionName: 's1' },
      { operation: 'delete', name: 'systemuser', object: { id: U1 } },
    );
    expect(isRight(r)).toBe(false);
    expect([log.ended, log.touched]).toEqual([[], []]);
  });

  it('applyWrites (/api/executemultiple): only the items that were written end sessions', async () => {
    const log = sessionLog();
    const r = await applyWrites({ store: storeAnswering({ 1: 'ERR_PERMISSION: no' }), sessions: log.sessions, clock: { now: () => now } }, { caller, orgName: 'acme' }, [
      deactivate(U1),
      deactivate(U2),
    ]);
    expect(isRight(r) && r.right.map((x) => 'id' in x)).toEqual([true, false]);
    expect(log.ended).toEqual([['acme', U1]]);
    expect(log.touched).toEqual([]); // no session wrote (the CLI)
  });

  it('withWriteEffects (imports, HTTP and `tessera import`): batch writes of the wrapped store sign users out', async () => {
    const log = sessionLog();
    const store = withWriteEffects(storeAnswering(), { sessions: log.sessions, clock: { now: () => now } }, { orgName: 'acme' });
    await store.executeMultiple(caller, [deactivate(U2)], { atomic: true });
    expect(log.ended).toEqual([['acme', U2]]);
  });
});
