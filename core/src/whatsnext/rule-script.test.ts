import { describe, expect, it } from 'vitest';
import { isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { packMask, uniformLevels } from '../permissions/mask.js';
import { effectivePermissions } from '../permissions/roles.js';
import type { Caller, Levels } from '../permissions/types.js';
import { systemCaller } from '../ports/record-store.js';
import { scriptFailure, type ScriptJson, type ScriptRun, type ScriptSandbox } from '../ports/script-sandbox.js';
import { defaultWhatsNextFilters, whatsNext, type WhatsNextList } from '../services/whats-next.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { NEXT_RULE_ENTITY } from './next-rule.js';
import { RULE_SCRIPT_MAX_VIRTUAL, RULE_SCRIPT_TIME_MS } from './rule-script.js';

/** Issue 16 "What's Next rules' script" (spec 002 section 3 "What's Next rule": "custom script name"); docs/whats-next.md "Scripts". */

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};
const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const DAY = 86_400_000;
const NOW = new Date('2026-11-24T10:00:00Z');
const U1 = '11111111-1111-4111-8111-111111111111';
const caller = (levels: Record<string, Levels>): Caller => ({
  userId: U1,
  teams: [],
  permissions: effectivePermissions([{ name: 'r', body: { permissions: Object.fromEntries(Object.entries(levels).map(([e, l]) => [e, packMask(l)])) } }], []),
});
const salesperson = caller({ lead: uniformLevels(1), activity: uniformLevels(1) });
/** May read leads but not create them. */
const reader = caller({ lead: { create: 0, read: 1, update: 0, delete: 0 } });

/** A fake sandbox: answers what `script` computes from the run (or a failure), and records the runs. */
const fakeSandbox = (script: (run: ScriptRun) => Promise<ScriptJson | { failed: string }> | ScriptJson | { failed: string }) => {
  const runs: ScriptRun[] = [];
  const sandbox: ScriptSandbox = {
    run: async (run) => {
      runs.push(run);
      const out = await script(run);
      return out !== null && typeof out === 'object' && !Array.isArray(out) && typeof out.failed === 'string'
        ? scriptFailure(run.name, 'thrown', out.failed, 2)
        : { _tag: 'ScriptCompleted', value: out };
    },
    close: async () => undefined,
  };
  return { sandbox, runs };
};

const setUp = async (sandbox?: ScriptSandbox) => {
  let n = 0;
  let at = NOW;
  const clock = { now: () => at };
  const store = new InMemoryRecordStore((name) => entities.find((e) => e.logicalName === name), clock, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const create = async (entity: string, daysAgo: number, object: EntityRecord): Promise<string> => {
    at = new Date(NOW.getTime() - daysAgo * DAY);
    try {
      return must(await store.create(systemCaller(), entity, object));
    } finally {
      at = NOW;
    }
  };
  const lead = (daysAgo: number, name: string) => create('lead', daysAgo, { name, status: 1, ownerid: { id: U1, name: 'systemuser' } });
  await create(NEXT_RULE_ENTITY, 30, { name: 'Open leads', objectname: 'lead', statusfield: 'status', statusvalues: '1', nullrelatedmaxage: 0, script: 'lead.nextcheck', description: 'Call them' });
  const script = (source: string) => create('inu_view', 30, { name: 'lead.nextcheck', kind: 'script', body: JSON.stringify({ source }) });
  const reported: string[] = [];
  const list = async (c: Caller = salesperson): Promise<WhatsNextList> =>
    must(await whatsNext({ store, clock, entities, scripts: sandbox, reportScriptError: (m) => reported.push(m) }, c, defaultWhatsNextFilters(c)));
  return { lead, script, list, reported };
};

describe("issue 16: a What's Next rule's script refines the rule's rows", () => {
  it('the script gets context { rule, records } and its source by name; it runs as a read-only run with the short time limit', async () => {
    const fake = fakeSandbox((run) => ((run.input as { records: Array<{ id: string }> }).records.map((r) => r.id)));
    const s = await setUp(fake.sandbox);
    await s.script('return context.records.map((r) => r.id);');
    await s.lead(2, 'Ann');
    expect((await s.list()).records.map((r) => r.name)).toEqual(['Ann']);
    expect(fake.runs).toHaveLength(1);
    const run = fake.runs[0];
    expect(run.name).toBe('lead.nextcheck');
    expect(run.source).toBe('return context.records.map((r) => r.id);');
    expect(run.limits?.timeMs).toBe(RULE_SCRIPT_TIME_MS);
    const input = run.input as { rule: Record<string, unknown>; records: Array<Record<string, unknown>> };
    expect(input.rule).toMatchObject({ name: 'Open leads', objectname: 'lead', statusfield: 'status', statusvalues: '1', script: 'lead.nextcheck', description: 'Call them' });
    expect(input.records).toEqual([{ id: expect.any(String), name: 'Ann', createdon: expect.any(String), status: 1 }]);
    // Writes are refused: What's Next only reads.
    expect(await run.host.update({ operation: 'create', name: 'lead', object: { name: 'x' } })).toEqual({ error: "ERR_PERMISSION: a What's Next script may only read (fetch)" });
    expect(await run.host.executeMultiple([])).toHaveProperty('error');
    const fetched = await run.host.fetch({ entity: { name: 'lead', attributes: [{ attribute: 'name' }] } });
    expect(fetched).toMatchObject({ value: { records: [{ name: 'Ann' }] } });
  });

  it('keep and drop: listed records whose ids the script returns stay, the others are dropped; ids it did not get are ignored', async () => {
    const fake = fakeSandbox((run) => {
      const records = (run.input as { records: Array<{ id: string; name: string }> }).records;
      return [...records.filter((r) => r.name !== 'Bob').map((r) => r.id.toUpperCase()), '99999999-9999-4999-8999-999999999999'];
    });
    const s = await setUp(fake.sandbox);
    await s.script('...');
    await s.lead(3, 'Ann');
    await s.lead(2, 'Bob');
    await s.lead(1, 'Cid');
    const out = await s.list();
    expect(out.records.map((r) => r.name)).toEqual(['Cid', 'Ann']);
    expect(out.count).toBe(2);
  });

  it('virtual rows: { name, init, info? } is a row with id "0" of the rule entity, its init and info (the rule\'s without one), after the records', async () => {
    const fake = fakeSandbox((run): ScriptJson => [
      ...(run.input as { records: Array<{ id: string }> }).records.map((r) => r.id),
      { name: 'New lead for Ann', init: { name: 'Ann 2', subject: 'Follow-up' } },
      { name: 'Another', init: {}, info: 'Suggested by the script' },
    ]);
    const s = await setUp(fake.sandbox);
    await s.script('...');
    await s.lead(2, 'Ann');
    const out = await s.list();
    expect(out.records.map((r) => [r.id === '0' ? '0' : 'id', r.name, r.info])).toEqual([
      ['id', 'Ann', 'Call them'],
      ['0', 'New lead for Ann', 'Call them'],
      ['0', 'Another', 'Suggested by the script'],
    ]);
    expect(out.records[1]).toMatchObject({ objectName: 'lead', createdon: null, init: { name: 'Ann 2', subject: 'Follow-up' } });
    // A user who may not create leads is not offered to create one.
    expect((await s.list(reader)).records.map((r) => r.id === '0')).toEqual([false]);
  });

  it(`at most ${RULE_SCRIPT_MAX_VIRTUAL} virtual rows per rule; the rest are left out with a note`, async () => {
    const fake = fakeSandbox(() => Array.from({ length: RULE_SCRIPT_MAX_VIRTUAL + 5 }, (_, i) => ({ name: `P${i}`, init: {} })));
    const s = await setUp(fake.sandbox);
    await s.script('...');
    const out = await s.list();
    expect(out.count).toBe(RULE_SCRIPT_MAX_VIRTUAL);
    expect(out.notes).toEqual([`Rule Open leads: only the first ${RULE_SCRIPT_MAX_VIRTUAL} proposed records are listed (5 more)`]);
  });

  it("failure falls back: a throw, a missing script or an answer of the wrong shape leaves the rule's rows, noted and reported with the script's name", async () => {
    const thrower = fakeSandbox(() => ({ failed: 'Error: boom' }));
    const s = await setUp(thrower.sandbox);
    await s.script('throw new Error("boom")');
    await s.lead(2, 'Ann');
    await s.lead(1, 'Bob');
    const out = await s.list();
    expect(out.records.map((r) => r.name)).toEqual(['Bob', 'Ann']);
    expect(out.notes).toEqual(['Rule Open leads: Script lead.nextcheck line 2: Error: boom']);
    expect(s.reported).toEqual(['Rule Open leads: Script lead.nextcheck line 2: Error: boom']);

    const missing = await setUp(fakeSandbox(() => []).sandbox);
    await missing.lead(2, 'Ann');
    const m = await missing.list();
    expect(m.records.map((r) => r.name)).toEqual(['Ann']);
    expect(m.notes).toEqual(['Rule Open leads: No Object:lead.nextcheck']);

    const wrong = await setUp(fakeSandbox(() => ({ keep: 'all' })).sandbox);
    await wrong.script('...');
    await wrong.lead(2, 'Ann');
    const w = await wrong.list();
    expect(w.records.map((r) => r.name)).toEqual(['Ann']);
    expect(w.notes[0]).toMatch(/^Rule Open leads: Script lead\.nextcheck: it returned no array/);
  });

  it('without a sandbox a rule with a script lists as if it had none', async () => {
    const s = await setUp(undefined);
    await s.script('return [];');
    await s.lead(2, 'Ann');
    const out = await s.list();
    expect(out.records.map((r) => r.name)).toEqual(['Ann']);
    expect(out.notes).toEqual([]);
  });
});
