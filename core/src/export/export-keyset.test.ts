import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { withSystemFields } from '../metadata/system-fields.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import type { FetchRequest } from '../query/query.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { EXPORT_PAGE_SIZE, exportPages, exportPlan } from './export-run.js';

const declared: Entity = {
  logicalName: 'item',
  displayName: 'Item',
  displayNamePlural: 'Items',
  properties: [
    { logicalName: 'city', displayName: 'City', type: 'String', max: 50 },
    { logicalName: 'parentid', displayName: 'Parent', type: 'Lookup', targets: ['item'] },
  ],
};
const built = withSystemFields(declared);
if (!isRight(built)) throw new Error('metadata');
const item = built.right;
const caller = systemCaller();

const storeWith = async (n: number) => {
  let id = 0;
  const store = new InMemoryRecordStore((name) => (name === 'item' ? item : undefined), { now: () => new Date('2026-11-25T10:00:00Z') }, {
    newId: () => `00000000-0000-4000-8000-${String(++id).padStart(12, '0')}`,
  });
  const items = Array.from({ length: n }, (_, i) => ({ operation: 'create' as const, name: 'item', object: { name: `Item ${i}`, city: i % 7 === 0 ? null : `City ${i % 5}` } }));
  for (let i = 0; i < items.length; i += 1000) await store.executeMultiple(caller, items.slice(i, i + 1000), { atomic: true });
  return store;
};

/** Every page request of an export, and the rows it wrote. */
const exported = async (store: RecordStore, request: FetchRequest) => {
  const plan = exportPlan(item, request, {});
  if (!isRight(plan)) throw new Error('plan');
  const asked: FetchRequest[] = [];
  const spy: Pick<RecordStore, 'retrieveMultiple'> = { retrieveMultiple: (c, r) => (asked.push(r), store.retrieveMultiple(c, r)) };
  const rows: Array<Record<string, unknown>> = [];
  for await (const page of exportPages(spy, caller, plan.right.request, (e) => { throw new Error(e.message); }, plan.right.keyset)) rows.push(...page);
  return { rows, asked, keyset: plan.right.keyset };
};

describe('exports page by keyset where the order allows it (issue 24: page 200 costs what page 1 costs)', () => {
  it('an export ordered by its own fields asks for each page after the last row and writes every row once, in order', async () => {
    const store = await storeWith(EXPORT_PAGE_SIZE * 2 + 17);
    const request: FetchRequest = { entity: { name: 'item', attributes: [{ attribute: 'name' }, { attribute: 'city' }], orders: [{ attribute: 'city', descending: true }] } };
    const { rows, asked, keyset } = await exported(store, request);
    expect(keyset).toEqual(['city', 'id']);
    expect(asked.map((r) => r.page)).toEqual([1, 1, 1]);
    expect(asked.slice(1).every((r) => Array.isArray(r.after) && r.after.length === 3)).toBe(true);
    // the same rows in the same order as paging by number (city descending, empty last, then id)
    const plan = exportPlan(item, request, {});
    if (!isRight(plan)) throw new Error('plan');
    const numbered: unknown[] = [];
    for await (const page of exportPages(store, caller, plan.right.request, () => undefined)) numbered.push(...page.map((r) => r.id));
    expect(rows.map((r) => r.id)).toEqual(numbered);
    expect(new Set(rows.map((r) => r.id)).size).toBe(EXPORT_PAGE_SIZE * 2 + 17);
  });

  it('an export ordered by a lookup (its label) pages by number', async () => {
    const store = await storeWith(30);
    const { asked, keyset } = await exported(store, { entity: { name: 'item', attributes: [{ attribute: 'name' }, { attribute: 'parentid' }], orders: [{ attribute: 'parentid' }] } });
    expect(keyset).toBeNull();
    expect(asked.every((r) => r.after === undefined)).toBe(true);
  });
});
