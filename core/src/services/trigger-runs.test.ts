import { describe, expect, it } from 'vitest';
import { isRight, type Either } from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import type { Entity, EntityRecord } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { systemCaller, SYSTEM_USER_ID } from '../ports/record-store.js';
import type { ScriptOutcome, ScriptRun, ScriptSandbox } from '../ports/script-sandbox.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { MAX_TRIGGER_DEPTH, parseOperations, RUN_STATUS, TRIGGER_ENTITY, TRIGGER_RUN_ENTITY, triggerOutboxRule } from '../store/trigger-outbox.js';
import { DEFAULT_TRIGGER_RUN_CONFIG, resumeRunning, retryDelayMs, runDueTriggers } from './trigger-runs.js';

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const lookup = (name: string) => entities.find((e) => e.logicalName === name);

/** A sandbox that runs a JavaScript function in place of the script text (the runner's protocol, not QuickJS, is under test). */
type Behaviour = (run: ScriptRun) => Promise<ScriptOutcome>;
const fakeSandbox = (behaviours: Record<string, Behaviour>): ScriptSandbox & { runs: ScriptRun[] } => {
  const runs: ScriptRun[] = [];
  return {
    runs,
    run: async (run) => {
      runs.push(run);
      const b = behaviours[run.source];
      return b ? b(run) : { _tag: 'ScriptFailed', reason: 'syntax', message: `Script ${run.name}: SyntaxError` };
    },
    close: async () => undefined,
  };
};

const setUp = (behaviours: Record<string, Behaviour>) => {
  let n = 0;
  let now = new Date('2026-11-25T10:00:00Z');
  const clock = { now: () => now };
  const store = new InMemoryRecordStore(lookup, clock, { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` }, undefined, [triggerOutboxRule]);
  const sandbox = fakeSandbox(behaviours);
  const sys = systemCaller();
  const deps = { store, sandbox, clock, entities: () => entities, config: { backoffMs: 1_000 } };
  const runs = async (): Promise<EntityRecord[]> =>
    must(await store.retrieveMultiple(sys, { entity: { name: TRIGGER_RUN_ENTITY, allattrs: true, orders: [{ attribute: 'createdon' }] } })).records as EntityRecord[];
  const trigger = async (fields: EntityRecord) =>
    must(await store.create(sys, TRIGGER_ENTITY, { name: 'Tag big deals', objectname: 'account', operation: 'create', action: 'ok', ownerid: { id: SYSTEM_USER_ID, name: 'systemuser' }, ...fields }));
  return { store, sandbox, sys, deps, runs, trigger, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
};

const ok: Behaviour = async () => ({ _tag: 'ScriptCompleted', value: null });

describe('issue 16 triggers: a write of a matching record queues a run in the same transaction', () => {
  it('a create of the entity queues one run (trigger, record, status queued, attempts 0)', async () => {
    const t = setUp({ ok });
    const trigger = await t.trigger({});
    const account = must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    const [run] = await t.runs();
    expect(run).toMatchObject({ objectname: 'account', objectid: account, operation: 'create', status: RUN_STATUS.queued, attempts: 0 });
    expect((run.handlerid as { id: string }).id).toBe(trigger);
  });

  it('only the trigger\'s operations and records meeting its condition (a fetch filter) queue runs', async () => {
    const t = setUp({ ok });
    await t.trigger({ operation: 'update;delete', condition: JSON.stringify({ conditions: [{ attribute: 'name', operator: 'like', value: 'Big%' }] }) });
    const small = must(await t.store.create(t.sys, 'account', { name: 'Small' }));
    const big = must(await t.store.create(t.sys, 'account', { name: 'Big one' }));
    expect(await t.runs()).toHaveLength(0); // creates are not watched
    must(await t.store.update(t.sys, 'account', { id: small, telephone1: '1' }));
    must(await t.store.update(t.sys, 'account', { id: big, telephone1: '1' }));
    must(await t.store.delete(t.sys, 'account', { id: big }));
    expect((await t.runs()).map((r) => [r.objectid, r.operation])).toEqual([
      [big, 'update'],
      [big, 'delete'],
    ]);
  });

  it('an inactive trigger queues nothing; a write that fails queues nothing (the run rolls back with it)', async () => {
    const t = setUp({ ok });
    const id = await t.trigger({});
    must(await t.store.update(t.sys, TRIGGER_ENTITY, { id, statecode: 1 }));
    must(await t.store.create(t.sys, 'account', { name: 'A' }));
    expect(await t.runs()).toHaveLength(0);
    must(await t.store.update(t.sys, TRIGGER_ENTITY, { id, statecode: 0 }));
    const batch = must(await t.store.executeMultiple(t.sys, [
      { operation: 'create', name: 'account', object: { name: 'B' } },
      { operation: 'create', name: 'nosuchentity', object: {} },
    ], { atomic: true }));
    expect(batch.every((r) => 'error' in r)).toBe(true);
    expect(await t.runs()).toHaveLength(0);
  });

  it('creating a trigger with operation "create" works (the bug of issue 16); a wrong operation, entity or condition is ERR_INPUT naming the field', async () => {
    const t = setUp({ ok });
    expect(await t.trigger({ operation: 'create' })).toMatch(/^0000/);
    const bad = async (fields: EntityRecord) => t.store.create(t.sys, TRIGGER_ENTITY, { name: 'x', objectname: 'account', operation: 'create', action: 'ok', ...fields });
    expect(await bad({ operation: 'insert' })).toMatchObject({ left: { code: 'ERR_INPUT', message: expect.stringContaining('inu_changehandler.operation') } });
    expect(await bad({ objectname: 'nosuch' })).toMatchObject({ left: { code: 'ERR_INPUT', message: expect.stringContaining('inu_changehandler.objectname') } });
    expect(await bad({ condition: '{"conditions":[{"attribute":"nosuchfield","operator":"eq","value":1}]}' })).toMatchObject({
      left: { code: 'ERR_INPUT', message: expect.stringContaining('Field not found') },
    });
    expect(await bad({ condition: 'not json' })).toMatchObject({ left: { code: 'ERR_INPUT', message: expect.stringContaining('inu_changehandler.condition') } });
  });

  it('a user may not make a trigger that acts as someone else, nor write the log by hand', async () => {
    const t = setUp({ ok });
    const user = { ...systemCaller('11111111-1111-4111-8111-111111111111'), system: undefined } as never;
    const asOther = await t.store.create(user, TRIGGER_ENTITY, { name: 'x', objectname: 'account', operation: 'create', action: 'ok', ownerid: { id: SYSTEM_USER_ID, name: 'systemuser' } });
    expect(asOther).toMatchObject({ left: { code: 'ERR_PERMISSION' } });
    const forged = await t.store.create(user, TRIGGER_RUN_ENTITY, { name: 'x', status: 1 });
    expect(forged).toMatchObject({ left: { code: 'ERR_PERMISSION' } });
  });

  it('parseOperations: any separators and case; each operation once', () => {
    fc.assert(
      fc.property(fc.subarray(['create', 'update', 'delete'], { minLength: 1 }), fc.constantFrom(';', ',', ' ', '; '), fc.boolean(), (ops, sep, upper) => {
        const text = ops.map((o) => (upper ? o.toUpperCase() : o)).join(sep);
        const parsed = parseOperations(text);
        return isRight(parsed) && [...parsed.right].sort().join() === [...ops].sort().join();
      }),
    );
  });
});

describe('issue 16 triggers: the runner claims, runs and logs each run', () => {
  it('a run that completes is succeeded with started, finished and 1 attempt; the script saw the record', async () => {
    const t = setUp({ ok });
    await t.trigger({});
    const account = must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    expect(must(await runDueTriggers(t.deps))).toEqual({ succeeded: 1, retried: 0, failed: 0 });
    const [run] = await t.runs();
    expect(run).toMatchObject({ status: RUN_STATUS.succeeded, attempts: 1, error: null });
    expect(run.started).toBeTruthy();
    expect(run.finished).toBeTruthy();
    expect(t.sandbox.runs[0].input).toMatchObject({ entity: 'account', id: account, operation: 'create', record: { name: 'Acme' } });
    expect(t.sandbox.runs[0].name).toBe('trigger "Tag big deals"');
    // nothing runs twice once it succeeded
    expect(must(await runDueTriggers(t.deps))).toEqual({ succeeded: 0, retried: 0, failed: 0 });
    expect(t.sandbox.runs).toHaveLength(1);
  });

  it('the script\'s writes act as the trigger\'s owner and go through the store', async () => {
    const t = setUp({
      write: async (run) => {
        const answer = await run.host.update({ operation: 'update', name: 'account', object: { id: (run.input as { id: string }).id, telephone1: '555' } });
        return 'error' in answer ? { _tag: 'ScriptFailed', reason: 'thrown', message: answer.error } : { _tag: 'ScriptCompleted', value: answer.value };
      },
    });
    await t.trigger({ action: 'write' });
    const account = must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    expect(must(await runDueTriggers(t.deps)).succeeded).toBe(1);
    expect(must(await t.store.retrieveById(t.sys, 'account', account)).telephone1).toBe('555');
  });

  it('a trigger acts with its owner\'s permissions: an owner who may only read accounts cannot update one', async () => {
    const t = setUp({
      write: async (run) => {
        const answer = await run.host.update({ operation: 'update', name: 'account', object: { id: (run.input as { id: string }).id, telephone1: '555' } });
        return 'error' in answer ? { _tag: 'ScriptFailed', reason: 'thrown', message: `Script ${run.name}: Error: ${answer.error}` } : { _tag: 'ScriptCompleted', value: answer.value };
      },
    });
    const reader = must(await t.store.create(t.sys, 'systemuser', { name: 'Rita Reader', emailaddress: 'rita@example.test' }));
    const role = must(await t.store.create(t.sys, 'inu_role', { name: 'Account reader', body: JSON.stringify({ permissions: { account: 48 } }) }));
    must(await t.store.create(t.sys, 'systemuserroles', { roleid: { id: role, name: 'inu_role' }, systemuserid: { id: reader, name: 'systemuser' } }));
    await t.trigger({ action: 'write', ownerid: { id: reader, name: 'systemuser' } });
    const account = must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    expect(must(await runDueTriggers({ ...t.deps, config: { maxAttempts: 1 } })).failed).toBe(1);
    const [run] = await t.runs();
    expect(String(run.error)).toContain('ERR_PERMISSION');
    expect(t.sandbox.runs[0].input).toMatchObject({ record: { name: 'Acme' } }); // reading is allowed
    expect(must(await t.store.retrieveById(t.sys, 'account', account)).telephone1 ?? null).toBeNull();
  });

  it('a throwing trigger retries with back-off (2^n) up to the limit, then ends failed with the script\'s error', async () => {
    const t = setUp({ boom: async (run) => ({ _tag: 'ScriptFailed', reason: 'thrown', message: `Script ${run.name} line 1: Error: boom` }) });
    await t.trigger({ action: 'boom' });
    must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    expect(must(await runDueTriggers(t.deps)).retried).toBe(1);
    let [run] = await t.runs();
    expect(run).toMatchObject({ status: RUN_STATUS.queued, attempts: 1, error: 'Script trigger "Tag big deals" line 1: Error: boom' });
    // not due before its back-off
    t.advance(999);
    expect(must(await runDueTriggers(t.deps)).retried).toBe(0);
    t.advance(1);
    expect(must(await runDueTriggers(t.deps)).retried).toBe(1);
    t.advance(2_000);
    expect(must(await runDueTriggers(t.deps))).toEqual({ succeeded: 0, retried: 0, failed: 1 });
    [run] = await t.runs();
    expect(run).toMatchObject({ status: RUN_STATUS.failed, attempts: DEFAULT_TRIGGER_RUN_CONFIG.maxAttempts });
    expect(String(run.error)).toContain('boom');
    t.advance(60_000);
    expect(must(await runDueTriggers(t.deps))).toEqual({ succeeded: 0, retried: 0, failed: 0 });
  });

  it('a syntax error fails at once (no attempt can succeed)', async () => {
    const t = setUp({});
    await t.trigger({ action: 'return {;' });
    must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    expect(must(await runDueTriggers(t.deps)).failed).toBe(1);
  });

  it('retryDelayMs doubles per attempt', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), (n) => retryDelayMs(DEFAULT_TRIGGER_RUN_CONFIG, n + 1) === 2 * retryDelayMs(DEFAULT_TRIGGER_RUN_CONFIG, n)));
  });

  it('a run left running by a process that died is queued again at start (resumeRunning) or claimed after its lease', async () => {
    let release: () => void = () => undefined;
    const t = setUp({ hang: () => new Promise((resolve) => (release = () => resolve({ _tag: 'ScriptCompleted', value: null }))) });
    await t.trigger({ action: 'hang' });
    must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    void runDueTriggers(t.deps); // the process "dies" with the run running
    await new Promise((r) => setTimeout(r, 10));
    expect((await t.runs())[0].status).toBe(RUN_STATUS.running);
    expect(must(await runDueTriggers({ ...t.deps, sandbox: fakeSandbox({ hang: ok }) }))).toEqual({ succeeded: 0, retried: 0, failed: 0 });
    expect(must(await resumeRunning(t.deps))).toBe(1);
    expect(must(await runDueTriggers({ ...t.deps, sandbox: fakeSandbox({ hang: ok }) })).succeeded).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 10));
    // the first runner's late end does not overwrite the finished run (its claim's version is gone)
    expect((await t.runs())[0]).toMatchObject({ status: RUN_STATUS.succeeded, attempts: 2 });
  });

  it(`a trigger whose script writes its own entity stops after ${MAX_TRIGGER_DEPTH} levels`, async () => {
    const t = setUp({
      touch: async (run) => {
        await run.host.update({ operation: 'update', name: 'account', object: { id: (run.input as { id: string }).id, telephone1: String((run.input as { attempt: number }).attempt) + Math.random() } });
        return { _tag: 'ScriptCompleted', value: null };
      },
    });
    await t.trigger({ action: 'touch', operation: 'create;update' });
    must(await t.store.create(t.sys, 'account', { name: 'Acme' }));
    for (let i = 0; i < 6; i++) await runDueTriggers(t.deps);
    const runs = await t.runs();
    expect(runs.map((r) => r.depth)).toEqual([1, 2, 3]);
    expect(runs.every((r) => r.status === RUN_STATUS.succeeded)).toBe(true);
  });
});
