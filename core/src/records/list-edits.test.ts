import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EntityRecord, FieldValue } from '../metadata/entity.js';
import {
  addRow,
  buildBatch,
  deleteRow,
  emptyEdits,
  failedItem,
  hasEdits,
  isCellModified,
  membership,
  rebaseRow,
  revertCell,
  revertRow,
  rowState,
  setCell,
  setCellOnRows,
  toggleLink,
  undeleteRow,
  type LinkColumn,
  type LinkRow,
  type ListEdits,
} from './list-edits.js';

const ROLES: LinkColumn = { link: 'systemuserroles', parentField: 'systemuserid', otherField: 'roleid' };
const LINKS = { 'systemuserroles.systemuserid': ROLES };
const COL = 'systemuserroles.systemuserid';

const loaded: Record<string, EntityRecord> = {
  a: { id: 'a', versionnumber: 3, name: 'Acme', city: 'Wien' },
  b: { id: 'b', versionnumber: 1, name: 'Beta', city: 'Brno' },
  c: { id: 'c', versionnumber: 7, name: 'Cyan', city: null },
};
const links: Record<string, LinkRow[]> = {
  a: [{ id: 'l1', other: 'r1', versionnumber: 1 }],
  b: [],
  c: [{ id: 'l2', other: 'r2', versionnumber: 4 }],
};

describe('list edits and the batch (spec 001 section 2: row operations collected and saved in one batch)', () => {
  it('an update sends only the changed fields with the loaded version', () => {
    const e = setCell(setCell(emptyEdits, 'a', 'city', 'Praha', loaded.a), 'a', 'name', 'Acme', loaded.a);
    expect(buildBatch(e, 'account', LINKS)).toEqual({
      items: [{ operation: 'update', name: 'account', object: { city: 'Praha', id: 'a', versionnumber: 3 } }],
      keys: ['a'],
    });
    expect(isCellModified(e, 'a', 'city')).toBe(true);
    expect(isCellModified(e, 'a', 'name')).toBe(false);
  });

  it('a cell set back to its loaded value, or reverted with Escape, is no change', () => {
    const set = setCell(emptyEdits, 'a', 'city', 'Praha', loaded.a);
    expect(setCell(set, 'a', 'city', 'Wien', loaded.a)).toEqual(emptyEdits);
    expect(revertCell(set, 'a', 'city')).toEqual(emptyEdits);
    expect(hasEdits(revertCell(set, 'a', 'city'))).toBe(false);
  });

  it('a row created then deleted is dropped from the batch (spec 001 section 2)', () => {
    let e = addRow(emptyEdits, 'n1', { name: 'New' });
    e = setCell(e, 'n1', 'city', 'Linz', {});
    e = deleteRow(e, 'n1', {});
    expect(buildBatch(e, 'account', LINKS).items).toEqual([]);
    expect(e).toEqual(emptyEdits);
  });

  it('orders creates, updates, link rows, deletes; a create carries its client id and only non-empty values', () => {
    let e = addRow(emptyEdits, 'n1', { name: 'New', city: '' });
    e = setCell(e, 'b', 'city', 'Graz', loaded.b);
    e = toggleLink(e, 'n1', COL, 'r5', []);
    e = toggleLink(e, 'a', COL, 'r1', links.a);
    e = deleteRow(e, 'c', loaded.c);
    const batch = buildBatch(e, 'account', LINKS);
    expect(batch.items.map((i) => `${i.operation} ${i.name}`)).toEqual([
      'create account',
      'update account',
      'create systemuserroles',
      'delete systemuserroles',
      'delete account',
    ]);
    expect(batch.items[0].object).toEqual({ id: 'n1', name: 'New' });
    expect(batch.items[2].object).toEqual({ systemuserid: 'n1', roleid: 'r5' });
    expect(batch.items[3].object).toEqual({ id: 'l1', versionnumber: 1 });
    expect(batch.items[4].object).toEqual({ id: 'c', versionnumber: 7 });
    expect(batch.keys).toEqual(['n1', 'b', 'n1', 'a', 'c']);
  });

  it('many-to-many: a toggle marks the cell modified, toggling back clears it (spec 001 section 4)', () => {
    const on = toggleLink(emptyEdits, 'b', COL, 'r1', links.b);
    expect(isCellModified(on, 'b', COL)).toBe(true);
    expect(membership(on, 'b', COL, links.b)).toEqual(['r1']);
    expect(toggleLink(on, 'b', COL, 'r1', links.b)).toEqual(emptyEdits);
    const off = toggleLink(emptyEdits, 'a', COL, 'r1', links.a);
    expect(membership(off, 'a', COL, links.a)).toEqual([]);
    expect(revertCell(off, 'a', COL)).toEqual(emptyEdits);
  });

  it("a deleted row's link toggles are not written; undelete keeps its other edits", () => {
    let e = toggleLink(setCell(emptyEdits, 'a', 'city', 'Graz', loaded.a), 'a', COL, 'r9', links.a);
    e = deleteRow(e, 'a', loaded.a);
    expect(rowState(e, 'a')).toBe('deleted');
    expect(buildBatch(e, 'account', LINKS).items).toEqual([
      { operation: 'delete', name: 'account', object: { id: 'a', versionnumber: 3 } },
    ]);
    e = undeleteRow(e, 'a');
    expect(rowState(e, 'a')).toBe('updated');
    expect(buildBatch(e, 'account', LINKS).items).toHaveLength(2);
  });

  it('the base is the row as first edited: a reload in between does not move the version of the update', () => {
    let e = setCell(emptyEdits, 'a', 'city', 'Graz', loaded.a);
    e = setCell(e, 'a', 'name', 'Acme 2', { ...loaded.a, versionnumber: 4 });
    expect(buildBatch(e, 'account', LINKS).items[0].object.versionnumber).toBe(3);
  });

  it('rebaseRow after a merge: the server record is the base, the changes still differing are the values', () => {
    const e = setCell(emptyEdits, 'a', 'city', 'Graz', loaded.a);
    const server = { ...loaded.a, versionnumber: 4, name: 'Acme AG' };
    const r = rebaseRow(e, 'a', server, { city: 'Graz' });
    expect(buildBatch(r, 'account', LINKS).items[0].object).toEqual({ city: 'Graz', id: 'a', versionnumber: 4 });
  });

  it('mass edit sets a field on every selected row on the page (super edit)', () => {
    const e = setCellOnRows(emptyEdits, ['a', 'b', 'x'], 'city', 'Graz', (k) => loaded[k]);
    expect(buildBatch(e, 'account', LINKS).keys).toEqual(['a', 'b']);
  });

  it('failedItem names the item that failed an atomic batch, not the rolled-back ones', () => {
    const results = [
      { error: 'ERR_8001: Rolled back: item 1 failed: stale' },
      { error: 'ERR_8001: stale' },
      { error: 'ERR_8001: Rolled back: item 1 failed: stale' },
    ];
    expect(failedItem(results, ['a', 'b', 'c'])).toEqual({ index: 1, key: 'b', error: 'ERR_8001: stale' });
    expect(failedItem([{ id: 'a' }], ['a'])).toBeUndefined();
  });
});

/** Random edit sequences over three loaded rows, new rows n0..n2, two fields and a link column. */
type Op =
  | { op: 'set'; key: string; field: string; value: FieldValue }
  | { op: 'revert'; key: string; field: string }
  | { op: 'add'; key: string }
  | { op: 'delete'; key: string }
  | { op: 'undelete'; key: string }
  | { op: 'toggle'; key: string; other: string }
  | { op: 'revertRow'; key: string };
const keyArb = fc.constantFrom('a', 'b', 'c', 'n0', 'n1', 'n2');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('set' as const),
    key: keyArb,
    field: fc.constantFrom('name', 'city'),
    value: fc.constantFrom<FieldValue>('Acme', 'Wien', 'Graz', null, ''),
  }),
  fc.record({ op: fc.constant('revert' as const), key: keyArb, field: fc.constantFrom('name', 'city', COL) }),
  fc.record({ op: fc.constant('add' as const), key: fc.constantFrom('n0', 'n1', 'n2') }),
  fc.record({ op: fc.constant('delete' as const), key: keyArb }),
  fc.record({ op: fc.constant('undelete' as const), key: keyArb }),
  fc.record({ op: fc.constant('toggle' as const), key: keyArb, other: fc.constantFrom('r1', 'r2', 'r3') }),
  fc.record({ op: fc.constant('revertRow' as const), key: keyArb }),
);
/** The edits of a sequence; like the screen, a row is only edited when it is on the page (loaded or created). */
const run = (ops: readonly Op[]): ListEdits =>
  ops.reduce((e, o) => {
    const onPage = !!loaded[o.key] || e.created.includes(o.key);
    switch (o.op) {
      case 'set':
        return onPage ? setCell(e, o.key, o.field, o.value, loaded[o.key] ?? {}) : e;
      case 'revert':
        return revertCell(e, o.key, o.field);
      case 'add':
        return addRow(e, o.key, {});
      case 'delete':
        return onPage ? deleteRow(e, o.key, loaded[o.key] ?? {}) : e;
      case 'undelete':
        return undeleteRow(e, o.key);
      case 'toggle':
        return onPage ? toggleLink(e, o.key, COL, o.other, links[o.key] ?? []) : e;
      case 'revertRow':
        return revertRow(e, o.key);
    }
  }, emptyEdits);

describe('list batch properties', () => {
  it('the batch of any edit sequence never creates and deletes the same row', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        const { items } = buildBatch(run(ops), 'account', LINKS);
        const created = new Set(
          items.filter((i) => i.operation === 'create' && i.name === 'account').map((i) => i.object.id),
        );
        const deleted = items.filter((i) => i.operation === 'delete' && i.name === 'account').map((i) => i.object.id);
        expect(deleted.filter((id) => created.has(id))).toEqual([]);
        // and each row appears at most once per operation
        expect(
          new Set(items.filter((i) => i.name === 'account').map((i) => `${i.operation}:${String(i.object.id)}`)).size,
        ).toBe(items.filter((i) => i.name === 'account').length);
      }),
    );
  });

  it('reverting every row after any edit sequence gives an empty batch and no edits', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        const e = run(ops);
        const keys = new Set([
          ...Object.keys(e.values),
          ...Object.keys(e.toggles),
          ...e.created,
          ...e.deleted,
          ...Object.keys(e.bases),
        ]);
        const reverted = [...keys].reduce(revertRow, e);
        expect(buildBatch(reverted, 'account', LINKS).items).toEqual([]);
        expect(reverted).toEqual(emptyEdits);
      }),
    );
  });

  it('reverting every cell of an existing row leaves it clean (no update, no link rows)', () => {
    fc.assert(
      fc.property(
        fc.array(
          opArb.filter((o) => o.op === 'set' || o.op === 'toggle' || o.op === 'revert'),
          { maxLength: 30 },
        ),
        (ops) => {
          const e = ['name', 'city', COL].reduce(
            (acc, f) => ['a', 'b', 'c'].reduce((x, k) => revertCell(x, k, f), acc),
            run(ops),
          );
          expect(buildBatch(e, 'account', LINKS).keys.filter((k) => ['a', 'b', 'c'].includes(k))).toEqual([]);
        },
      ),
    );
  });
});
