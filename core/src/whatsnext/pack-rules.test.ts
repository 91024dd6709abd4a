import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { loadPack } from '../metadata/pack.js';
import { builtInPacks, demoPack, systemPack } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { generateDemoRecords, type DemoOwner } from '../services/demo-records.js';
import { seedPack } from '../services/organization-setup.js';
import { whatsNext } from '../services/whats-next.js';

const entities = builtInPacks().flatMap((p) => p.entities);
const ADMIN = 'a0000000-0000-4000-8000-000000000001';
const NINA = 'a0000000-0000-4000-8000-000000000002';
const OWNERS: DemoOwner[] = [{ userId: ADMIN }, { userId: NINA, works: 'sales' }];
const NOW = new Date('2026-11-24T19:30:00Z');

describe("What's Next rules in packs (issue 17: the demo lists real demo records)", () => {
  it('the demo pack ships rules whose entities and fields exist', () => {
    expect((demoPack().nextRules ?? []).map((r) => r.name)).toEqual(['Contacted leads gone quiet', 'Invoices to chase', 'New leads to contact', 'Work orders to invoice']);
  });

  it('a rule naming an unknown entity, status field or related field makes the pack invalid', () => {
    const pack = (nextRules: unknown[]) => loadPack({ name: 'p', entities: [], nextRules }, 'p', [systemPack(), demoPack()]);
    expect(isRight(pack([{ name: 'ok', objectname: 'lead', statusfield: 'status', statusvalues: '1', related: 'activity.objectid' }]))).toBe(true);
    const bad = pack([
      { name: 'a', objectname: 'leed' },
      { name: 'b', objectname: 'lead', statusfield: 'stage', statusvalues: '1' },
      { name: 'c', objectname: 'lead', related: 'activity.regarding' },
      { name: 'd', objectname: 'lead', related: 'activity' },
    ]);
    expect(isLeft(bad) && bad.left.message).toBe(
      'Invalid pack p: nextRule a: No Object:leed; nextRule b: Field not found:lead.stage; nextRule c: Field not found:activity.regarding; nextRule d: related "activity" is not entity.field',
    );
  });

  it('a demo organization lists its new leads today, and more of its records a week ahead', async () => {
    let n = 0;
    let at = new Date(NOW.getTime() - 3_600_000);
    const clock = { now: () => at };
    const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, {
      newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    });
    await seedPack(store, demoPack());
    await generateDemoRecords(store, demoPack().entities, OWNERS, { now: at });
    at = NOW;
    const deps = { store, clock, entities };
    const list = async (scheduled: 'today' | 'next-week', owner: string | null, category: string | null = null) => {
      const r = await whatsNext(deps, systemCaller(ADMIN), { scheduled, owner, category, page: 1, timeZone: 'Europe/Bratislava' });
      if (isLeft(r)) throw new Error(r.left.message);
      return r.right;
    };
    const leads = await store.retrieveMultiple(systemCaller(), { entity: { name: 'lead', filter: { conditions: [{ attribute: 'status', operator: 'eq', value: 1 }] } }, count: true });
    const today = await list('today', null);
    expect(today.notes).toEqual([]);
    // New leads at once, and completed work orders that have no invoice yet.
    expect(today.categories).toEqual(['lead', 'workorder']);
    const newLeads = await list('today', null, 'lead');
    expect(newLeads.count).toBe(isRight(leads) ? leads.right.count : -1);
    expect(newLeads.records[0].info).toBe('A new lead nobody has called yet: call them and log the call as an activity.');
    expect((await list('today', null, 'workorder')).records[0].info).toBe(null);
    expect(today.createEntity).toBe('lead');
    const mine = await list('today', NINA, 'lead');
    expect(mine.count).toBeGreaterThan(0);
    expect(mine.count).toBeLessThan(newLeads.count);
    // A week ahead the contacted leads and the sent invoices have gone 7 days without an activity.
    const nextWeek = await list('next-week', null);
    expect(nextWeek.categories).toEqual(['invoice', 'lead', 'workorder']);
    expect(nextWeek.count).toBeGreaterThan(today.count);
  });
});
