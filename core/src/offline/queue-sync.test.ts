import fc from 'fast-check';
import { right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { EntityRecord } from '../metadata/entity.js';
import type { ItemResult, WriteItem } from '../ports/record-store.js';
import { applyQueue, coalesce, enqueue, recordIdOf, recordKey, referencedIds, type QueuedChange, type QueueEntry } from './queue.js';
import { MAX_MERGES, chooseVersion, emptySyncState, nextBatch, rekeyRecords, resolveVersionConflict, runSync, type SyncState, type SyncTransport } from './sync.js';

/** Test helpers: random valid edit sequences over a few server records, and a fake server. */
const ENTITY = 'account';
const INITIAL: EntityRecord[] = ['s1', 's2', 's3'].map((id) => ({ id, name: `n-${id}`, city: 'Bratislava', versionnumber: 1 }));
const initialSet = (): Map<string, EntityRecord> => new Map(INITIAL.map((r) => [recordKey(ENTITY, r.id as string), r]));

type Cmd = { op: 'create' | 'update' | 'delete'; target: number; name: string; city?: string; ref?: number };
const cmd = fc.record(
  {
    op: fc.constantFrom<Cmd['op']>('create', 'update', 'update', 'delete'),
    target: fc.nat(20),
    name: fc.constantFrom('a', 'b', 'c'),
    city: fc.constantFrom('Brno', 'Wien', 'Kosice'),
    ref: fc.nat(20),
  },
  { requiredKeys: ['op', 'target', 'name'] },
);

/** Interprets commands into a valid raw queue: updates and deletes only address live records. */
const rawQueue = fc.array(cmd, { maxLength: 40 }).map((cmds) => {
  const live: string[] = INITIAL.map((r) => r.id as string);
  const fromServer = new Set(live);
  const current = new Map<string, EntityRecord>(INITIAL.map((r) => [r.id as string, r]));
  const out: QueuedChange[] = [];
  let n = 0;
  for (const c of cmds) {
    const lookup = c.ref !== undefined && live.length > 0 ? { parentid: { id: live[c.ref % live.length]!, name: ENTITY } } : {};
    if (c.op === 'create' || live.length === 0) {
      const clientId = `c${++n}`;
      const fields = { name: c.name, ...lookup };
      out.push({ kind: 'create', entity: ENTITY, clientId, fields });
      live.push(clientId);
      current.set(clientId, fields);
    } else if (c.op === 'update') {
      const id = live[c.target % live.length]!;
      const fields: EntityRecord = { name: c.name, ...(c.city ? { city: c.city } : {}), ...lookup };
      const before = current.get(id)!;
      const base = Object.fromEntries(Object.keys(fields).map((f) => [f, before[f] ?? null]));
      out.push({ kind: 'update', entity: ENTITY, id, fields, base, ...(fromServer.has(id) ? { versionnumber: 1 } : {}) });
      current.set(id, { ...before, ...fields });
    } else {
      const i = c.target % live.length;
      const id = live[i]!;
      // Deleting a record others point at is not modelled (the server would refuse or clear them).
      const pointedAt = [...current.entries()].some(([k, r]) => k !== id && (r.parentid as { id?: string } | undefined)?.id === id);
      if (pointedAt) continue;
      out.push({ kind: 'delete', entity: ENTITY, id, ...(fromServer.has(id) ? { versionnumber: 1 } : {}) });
      live.splice(i, 1);
      current.delete(id);
    }
  }
  return out;
});

/**
 * A fake server with versionnumbers: executemultiple not atomic, one answer per item. `failures`
 * says per call whether the request is lost before the server runs it.
 */
class FakeServer implements SyncTransport {
  readonly records = new Map<string, EntityRecord>(INITIAL.map((r) => [r.id as string, { ...r }]));
  creates = 0;
  calls = 0;
  private next = 0;
  constructor(private readonly fails: (call: number) => boolean = () => false) {}

  async executeMultiple(items: readonly WriteItem[]) {
    if (this.fails(this.calls++)) throw new Error('network down');
    return right<unknown, ItemResult[]>(items.map((i) => this.write(i)));
  }
  async retrieve(_entity: string, id: string) {
    const r = this.records.get(id);
    return r ? { ...r } : undefined;
  }
  write(i: WriteItem): ItemResult {
    const o = i.object;
    if (i.operation === 'create') {
      const id = `srv-${++this.next}`;
      this.creates++;
      this.records.set(id, { ...o, id, versionnumber: 1 });
      return { id };
    }
    const id = o.id as string;
    const r = this.records.get(id);
    if (!r) return { error: 'ERR_NOT_FOUND: gone' };
    if (o.versionnumber !== undefined && o.versionnumber !== r.versionnumber) return { error: 'ERR_8001: This record was modified by Eva' };
    if (i.operation === 'delete') this.records.delete(id);
    else {
      const { versionnumber: _v, ...fields } = o;
      this.records.set(id, { ...r, ...fields, versionnumber: (r.versionnumber as number) + 1 });
    }
    return { id };
  }
}

/** A record without its version, with lookups mapped through `idMap` (to compare client and server sides). */
const comparable = (r: EntityRecord, idMap: Readonly<Record<string, string>>): EntityRecord =>
  Object.fromEntries(
    Object.entries(r)
      .filter(([k]) => k !== 'versionnumber')
      .map(([k, v]) => [k, k === 'id' ? idMap[v as string] ?? v : typeof v === 'object' && v !== null ? { ...v, id: idMap[v.id] ?? v.id } : v]),
  );


const upd = (id: string, fields: Record<string, string>, versionnumber?: number) => ({
  kind: 'update' as const,
  entity: ENTITY,
  id,
  fields,
  base: Object.fromEntries(Object.keys(fields).map((f) => [f, 'old'])),
  ...(versionnumber === undefined ? {} : { versionnumber }),
});

describe('offline change queue (issue 21: changes made offline are queued)', () => {
  it('an update of a record created offline folds into its create', () => {
    const q = coalesce([{ kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'A' } }, upd('c1', { city: 'Brno' })]);
    expect(q).toEqual([{ kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'A', city: 'Brno' } }]);
  });

  it('a delete after a create removes both', () => {
    const q = coalesce([
      { kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'A' } },
      upd('c1', { city: 'Brno' }),
      { kind: 'delete', entity: ENTITY, id: 'c1' },
    ]);
    expect(q).toEqual([]);
  });

  it('two updates merge: the first version and base, the later values', () => {
    const q = coalesce([
      { ...upd('s1', { name: 'x', city: 'Brno' }, 3), base: { name: 'n0', city: 'c0' } },
      { ...upd('s1', { name: 'y', phone: '1' }, 3), base: { name: 'x', phone: null } },
    ]);
    expect(q).toEqual([{ kind: 'update', entity: ENTITY, id: 's1', versionnumber: 3, fields: { name: 'y', city: 'Brno', phone: '1' }, base: { name: 'n0', city: 'c0', phone: null } }]);
  });

  it('a delete after an update keeps the version the edit started from', () => {
    const q = coalesce([upd('s1', { name: 'x' }, 3), { kind: 'delete', entity: ENTITY, id: 's1', versionnumber: 3 }]);
    expect(q).toEqual([{ kind: 'delete', entity: ENTITY, id: 's1', versionnumber: 3 }]);
  });

  it('a change is not folded in front of the create of a record its lookup points at', () => {
    const q = coalesce([
      upd('s1', { name: 'x' }, 1),
      { kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'child' } },
      { ...upd('s1', {}, 1), fields: { parentid: { id: 'c1', name: ENTITY } }, base: { parentid: null } },
    ]);
    expect(q.map((e) => e.kind)).toEqual(['update', 'create', 'update']);
  });

  it('an entry waiting for the user is not changed by later edits', () => {
    const waiting: QueueEntry = { ...upd('s1', { name: 'x' }, 1), conflict: { message: 'm', modifier: 'Eva', fields: ['name'], server: {} } };
    expect(enqueue([waiting], upd('s1', { name: 'y' }, 1))).toHaveLength(2);
  });

  it('property: applying the coalesced queue to a store equals applying the raw queue', () => {
    fc.assert(
      fc.property(rawQueue, (raw) => {
        expect(applyQueue(initialSet(), coalesce(raw))).toEqual(applyQueue(initialSet(), raw));
      }),
      { numRuns: 300 },
    );
  });

  it('property: order per record is kept (nothing after a delete; lookups after the create they name); never longer', () => {
    fc.assert(
      fc.property(rawQueue, (raw) => {
        const q = coalesce(raw);
        expect(q.length).toBeLessThanOrEqual(raw.length);
        q.forEach((e, i) => {
          const later = q.slice(i + 1);
          if (e.kind === 'delete') expect(later.some((l) => recordIdOf(l) === e.id)).toBe(false);
          if (e.kind !== 'delete')
            for (const ref of referencedIds(e.fields)) expect(later.some((l) => l.kind === 'create' && l.clientId === ref)).toBe(false);
          if (e.kind !== 'create') expect(later.some((l) => l.kind === 'create' && l.clientId === e.id)).toBe(false);
        });
      }),
      { numRuns: 300 },
    );
  });
});


const serverView = (s: FakeServer): EntityRecord[] => [...s.records.values()].map((r) => comparable(r, {})).sort((a, b) => String(a.id).localeCompare(String(b.id)));
const modelView = (raw: Parameters<typeof applyQueue>[1], idMap: Record<string, string>): EntityRecord[] =>
  [...applyQueue(initialSet(), raw).values()].map((r) => comparable(r, idMap)).sort((a, b) => String(a.id).localeCompare(String(b.id)));

describe('Sync (issue 21: sent in order through executemultiple in batches)', () => {
  it('batches are at most the size limit, and a batch ends before an item needing an id created in it', () => {
    const queue: QueueEntry[] = [
      { kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'a' } },
      { kind: 'create', entity: ENTITY, clientId: 'c2', fields: { name: 'b' } },
      { kind: 'create', entity: ENTITY, clientId: 'c3', fields: { name: 'c', parentid: { id: 'c1', name: ENTITY } } },
    ];
    expect(nextBatch({ queue, idMap: {} }, 1).items).toHaveLength(1);
    expect(nextBatch({ queue, idMap: {} }).items).toHaveLength(2);
    // Once c1 is acknowledged, the lookup is rewritten to the server's id.
    const b = nextBatch({ queue: queue.slice(2), idMap: { c1: 'srv-9' } });
    expect(b.items[0]!.object.parentid).toEqual({ id: 'srv-9', name: ENTITY });
  });

  it('an entry refused before is sent again, but the later entries of its record wait for its answer', () => {
    const queue: QueueEntry[] = [
      { kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'a' }, base: { name: 'x' }, error: 'ERR_PERMISSION: no' },
      { kind: 'delete', entity: ENTITY, id: 's1', versionnumber: 1 },
      { kind: 'update', entity: ENTITY, id: 's2', versionnumber: 1, fields: { name: 'b' }, base: { name: 'x' } },
    ];
    expect(nextBatch({ queue, idMap: {} }).entries).toEqual([queue[0], queue[2]]);
    expect(nextBatch({ queue, idMap: {} }, 10, new Set([queue[0]!])).entries).toEqual([queue[2]]);
  });

  it('queued creates, updates and deletes arrive; the client ids map to server ids', async () => {
    const server = new FakeServer();
    const queue = coalesce([
      { kind: 'create', entity: ENTITY, clientId: 'c1', fields: { name: 'new' } },
      { kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'edited' }, base: { name: 'n-s1' } },
      { kind: 'update', entity: ENTITY, id: 's2', versionnumber: 1, fields: { parentid: { id: 'c1', name: ENTITY } }, base: { parentid: null } },
      { kind: 'delete', entity: ENTITY, id: 's3', versionnumber: 1 },
    ]);
    const out = await runSync({ queue, idMap: {} }, server);
    expect(out.complete).toBe(true);
    expect(out.state.idMap).toEqual({ c1: 'srv-1' });
    expect(server.records.get('s1')!.name).toBe('edited');
    expect(server.records.get('s2')!.parentid).toEqual({ id: 'srv-1', name: ENTITY });
    expect(server.records.has('s3')).toBe(false);
  });

  it('a record changed meanwhile on other fields merges automatically (ERR_8001 through the core merge)', async () => {
    const server = new FakeServer();
    server.write({ operation: 'update', name: ENTITY, object: { id: 's1', city: 'Wien', modifiedby: { id: 'u2', name: 'systemuser', label: 'Eva' } } });
    const queue: QueueEntry[] = [{ kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'mine' }, base: { name: 'n-s1' } }];
    const out = await runSync({ queue, idMap: {} }, server);
    expect(out.complete).toBe(true);
    expect(server.records.get('s1')).toMatchObject({ name: 'mine', city: 'Wien', versionnumber: 3 });
  });

  it("the same field changed meanwhile: 'This record was modified by {modifier}' with both versions, then the user's choice", async () => {
    const server = new FakeServer();
    server.write({ operation: 'update', name: ENTITY, object: { id: 's1', name: 'theirs', modifiedby: { id: 'u2', name: 'systemuser', label: 'Eva' } } });
    const queue: QueueEntry[] = [{ kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'mine' }, base: { name: 'n-s1' } }];
    const out = await runSync({ queue, idMap: {} }, server);
    expect(out.complete).toBe(false);
    const waiting = out.state.queue[0]!;
    expect(waiting.conflict).toMatchObject({ message: 'This record was modified by Eva', modifier: 'Eva', fields: ['name'] });
    expect(waiting.conflict!.server.name).toBe('theirs');
    expect(waiting.kind === 'update' && waiting.fields.name).toBe('mine');
    // Keep mine: sent again over the server's version.
    const again = await runSync({ ...out.state, queue: [chooseVersion(waiting, 'mine')!] }, server);
    expect(again.complete).toBe(true);
    expect(server.records.get('s1')!.name).toBe('mine');
    expect(chooseVersion(waiting, 'server')).toBeUndefined();
  });

  it('a merge that leaves nothing to send drops the entry', () => {
    const e: QueueEntry = { kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'same' }, base: { name: 'old' } };
    expect(resolveVersionConflict(e, { id: 's1', name: 'same', versionnumber: 2 })).toBeUndefined();
  });

  it('after a Sync the local records created offline take their server ids, lookups too', () => {
    const local = new Map<string, EntityRecord>([
      [recordKey(ENTITY, 'c1'), { id: 'c1', name: 'new' }],
      [recordKey('contact', 'k1'), { id: 'k1', parentid: { id: 'c1', name: ENTITY } }],
    ]);
    const out = rekeyRecords(local, { c1: 'srv-1' });
    expect(out.get(recordKey(ENTITY, 'srv-1'))).toEqual({ id: 'srv-1', name: 'new' });
    expect(out.has(recordKey(ENTITY, 'c1'))).toBe(false);
    expect(out.get(recordKey('contact', 'k1'))!.parentid).toEqual({ id: 'srv-1', name: ENTITY });
  });

  it('a record that keeps changing on the server stops merging after MAX_MERGES and waits with an error', async () => {
    const server = new FakeServer();
    const busy: SyncTransport = {
      executeMultiple: async (items) => {
        server.write({ operation: 'update', name: ENTITY, object: { id: 's1', city: `busy ${server.calls}` } });
        return server.executeMultiple(items);
      },
      retrieve: (e, id) => server.retrieve(e, id),
    };
    const queue: QueueEntry[] = [{ kind: 'update', entity: ENTITY, id: 's1', versionnumber: 1, fields: { name: 'mine' }, base: { name: 'n-s1' } }];
    const out = await runSync({ queue, idMap: {} }, busy);
    expect(out.complete).toBe(false);
    expect(out.state.queue[0]!.error).toMatch(/^ERR_8001/);
    expect(server.calls).toBe(MAX_MERGES + 1);
  });

  it('property: random failure points, retries resume: nothing lost, nothing applied twice', async () => {
    await fc.assert(
      fc.asyncProperty(rawQueue, fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), async (raw, failures, size) => {
        const server = new FakeServer((call) => failures[call % failures.length] === true && call < 60);
        const queue = coalesce(raw);
        let state: SyncState = { ...emptySyncState, queue };
        let persisted: SyncState = state;
        for (let attempt = 0; attempt < 200; attempt++) {
          const out = await runSync(persisted, server, async (s) => void (persisted = s), size);
          state = out.state;
          persisted = state;
          if (out.complete) break;
        }
        expect(state.queue).toEqual([]);
        expect(server.creates).toBe(queue.filter((e) => e.kind === 'create').length);
        expect(serverView(server)).toEqual(modelView(raw, state.idMap));
      }),
      { numRuns: 150 },
    );
  });
});
