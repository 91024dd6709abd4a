import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptHost, ScriptJson, ScriptRun, ScriptSandbox } from '@tessera/core/internal';
import { QuickJsScriptSandbox } from '@tessera/adapters-graph';

/**
 * The ScriptSandbox port's contract (core/src/ports/script-sandbox.ts; issue 16 "On the server"):
 * a script sees its `context` and the async API, answers what it returns, and a bad script (syntax
 * error, a throw, an endless loop, a huge allocation) ends as a failure naming the script, without
 * blocking the event loop. One body for every implementation (QuickJS in worker threads).
 */
const fixtures: Array<[string, () => ScriptSandbox]> = [['QuickJsScriptSandbox', () => new QuickJsScriptSandbox({ threads: 2, limits: { timeMs: 1_000 } })]];

const calls: Array<{ fn: string; arg: ScriptJson }> = [];
const host: ScriptHost = {
  fetch: async (arg) => {
    calls.push({ fn: 'fetch', arg });
    return { value: { records: [{ id: 'a', name: 'Acme' }], count: 1 } };
  },
  update: async (arg) => {
    calls.push({ fn: 'update', arg });
    const item = arg as { object?: { name?: string } };
    return item.object?.name === 'refuse' ? { error: 'ERR_PERMISSION: No update permission on account' } : { value: { id: 'b' } };
  },
  executeMultiple: async (arg) => {
    calls.push({ fn: 'executeMultiple', arg });
    return { value: (arg as unknown[]).map((_, i) => ({ id: `id${i}` })) };
  },
};

const run = (source: string, extra: Partial<ScriptRun> = {}): ScriptRun => ({ name: 'trigger "T"', source, input: { record: { id: 'r1', name: 'Acme' } }, host, ...extra });

describe.each(fixtures)('ScriptSandbox contract: %s', (_name, make) => {
  let sandbox: ScriptSandbox;
  beforeAll(() => {
    sandbox = make();
  });
  afterAll(async () => sandbox.close());

  it('a script reads its context and answers what it returns (JSON)', async () => {
    const o = await sandbox.run(run('return { seen: context.record.name, n: 1 + 1 };'));
    expect(o).toEqual({ _tag: 'ScriptCompleted', value: { seen: 'Acme', n: 2 } });
  });

  it('fetch, update and executeMultiple reach the host with JSON and answer JSON into the script', async () => {
    calls.length = 0;
    const o = await sandbox.run(
      run(`
        const found = await fetch({ entity: { name: 'account' } });
        const one = await update({ operation: 'update', name: 'account', object: { id: found.records[0].id, name: 'x' } });
        const many = await executeMultiple([{ operation: 'create', name: 'task', object: {} }, { operation: 'create', name: 'task', object: {} }]);
        return [found.count, one.id, many.length];
      `),
    );
    expect(o).toEqual({ _tag: 'ScriptCompleted', value: [1, 'b', 2] });
    expect(calls.map((c) => c.fn)).toEqual(['fetch', 'update', 'executeMultiple']);
    expect(calls[1].arg).toEqual({ operation: 'update', name: 'account', object: { id: 'a', name: 'x' } });
  });

  it('a refused API call throws inside the script with the host error text, which the script may catch', async () => {
    const caught = await sandbox.run(run(`try { await update({ object: { name: 'refuse' } }); return 'no'; } catch (e) { return String(e.message); }`));
    expect(caught).toEqual({ _tag: 'ScriptCompleted', value: 'ERR_PERMISSION: No update permission on account' });
    const uncaught = await sandbox.run(run(`await update({ object: { name: 'refuse' } });`));
    expect(uncaught).toMatchObject({ _tag: 'ScriptFailed', reason: 'thrown' });
    if (uncaught._tag === 'ScriptFailed') expect(uncaught.message).toContain('ERR_PERMISSION: No update permission on account');
  });

  it('bad script: a syntax error fails with the script name', async () => {
    const o = await sandbox.run(run('return {;'));
    expect(o).toMatchObject({ _tag: 'ScriptFailed', reason: 'syntax' });
    if (o._tag === 'ScriptFailed') expect(o.message).toMatch(/^Script trigger "T".*SyntaxError/);
  });

  it('bad script: a throw fails with the script name, the line and the message', async () => {
    const o = await sandbox.run(run('const a = 1;\nthrow new Error("boom");'));
    expect(o._tag).toBe('ScriptFailed');
    if (o._tag === 'ScriptFailed') {
      expect(o.reason).toBe('thrown');
      expect(o.message).toBe('Script trigger "T" line 2: Error: boom');
    }
  });

  it('bad script: while(true){} is stopped at its time limit and the event loop stays free meanwhile', async () => {
    const started = Date.now();
    let ticks = 0;
    let worstGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const o = await sandbox.run(run('while (true) {}', { limits: { timeMs: 500 } }));
    clearInterval(timer);
    expect(o).toMatchObject({ _tag: 'ScriptFailed', reason: 'timeout' });
    if (o._tag === 'ScriptFailed') expect(o.message).toContain('trigger "T"');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(10);
    // Blocked, the loop would hold the event loop for the whole 500 ms limit; a busy shared machine alone gives gaps of some 100 ms.
    expect(worstGap).toBeLessThan(350);
  });

  it('bad script: a huge allocation fails at the memory limit', async () => {
    const o = await sandbox.run(run('const a = []; for (;;) a.push({ n: a.length });', { limits: { memoryBytes: 8 * 1024 * 1024, timeMs: 5_000 } }));
    expect(o).toMatchObject({ _tag: 'ScriptFailed', reason: 'memory' });
    if (o._tag === 'ScriptFailed') expect(o.message).toBe('Script trigger "T": stopped: it used more than its memory limit');
  });

  it('bad script: allocations in native code that never reach an interrupt check still end by the time limit', async () => {
    const started = Date.now();
    const o = await sandbox.run(run('const a = []; for (;;) a.push("x".repeat(1 << 20) + a.length);', { limits: { memoryBytes: 8 * 1024 * 1024, timeMs: 300 } }));
    expect(o._tag).toBe('ScriptFailed');
    // Unchecked, this loop runs ~40 s in QuickJS's native string code; the thread is terminated at
    // the limit plus the grace (the bound leaves room for a replaced thread loading QuickJS on a busy machine).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a script awaiting something that never happens fails rather than hanging', async () => {
    const o = await sandbox.run(run('await new Promise(() => {});'));
    expect(o).toMatchObject({ _tag: 'ScriptFailed' });
  });

  it('the script cannot reach the host: no require, process, or globalThis of Node', async () => {
    const o = await sandbox.run(run('return [typeof require, typeof process, typeof setTimeout, typeof globalThis.fetch];'));
    expect(o).toEqual({ _tag: 'ScriptCompleted', value: ['undefined', 'undefined', 'undefined', 'function'] });
  });

  it('after bad scripts the sandbox still runs good ones, several at once', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => sandbox.run(run(`return ${n} * 2;`))));
    expect(outcomes).toEqual([2, 4, 6, 8].map((value) => ({ _tag: 'ScriptCompleted', value })));
  });
});
