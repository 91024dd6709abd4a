import { afterEach, describe, expect, it, vi } from 'vitest';
import { runScript, type Sandbox, type ScriptHost } from './sandbox-runner.js';
import { PRELUDE_LINES, sandboxSource } from './sandbox-source.js';

/** A fake worker: `behave` plays the sandbox's side of the protocol when the run message arrives. */
const fakeSandbox = (behave: (s: { send: (m: unknown) => void; error: (msg: string, line?: number) => void; replies: unknown[] }) => void) => {
  const terminated = { value: false };
  const replies: unknown[] = [];
  let listener: (d: unknown) => void = () => undefined;
  let onErr: (m: string, l?: number) => void = () => undefined;
  const factory = (): Sandbox => ({
    url: 'blob:http://h/1',
    post: (m) => {
      if (m.kind === 'run') queueMicrotask(() => behave({ send: (x) => listener(x), error: (a, b) => onErr(a, b), replies }));
      else replies.push(m);
    },
    onMessage: (l) => (listener = l),
    onError: (l) => (onErr = l),
    terminate: () => (terminated.value = true),
  });
  return { factory, terminated, replies };
};

const host = (over: Partial<ScriptHost> = {}): ScriptHost => ({
  fetch: async () => ({ records: [], count: 0, page: 1, pageSize: 50, moreRecords: false }),
  update: async () => ({ id: 'new' }),
  executeMultiple: async () => [],
  alert: async () => undefined,
  confirm: async () => true,
  toast: async () => undefined,
  navigate: async () => undefined,
  ...over,
});

const run = { name: 'account.change', source: '', event: 'change' as const, entity: 'account' };

afterEach(() => vi.useRealTimers());

describe('the script runner (issue 16: a sandbox with a message API, a time limit, errors with name and line)', () => {
  it('the script source follows the prelude, so its first line is line PRELUDE_LINES + 1 of the worker', () => {
    const text = sandboxSource('first();\nsecond();');
    expect(text.split('\n')[PRELUDE_LINES]).toBe('first();');
  });

  it('a completed run answers the fields the script set and what it returned, and ends the worker', async () => {
    const s = fakeSandbox(({ send }) => send({ kind: 'done', patch: { revenue: 10 }, result: 3 }));
    expect(await runScript(run, host(), s.factory)).toEqual({ _tag: 'Completed', patch: { revenue: 10 }, result: 3 });
    expect(s.terminated.value).toBe(true);
  });

  it('veto(message) answers Vetoed with the message', async () => {
    const s = fakeSandbox(({ send }) => send({ kind: 'done', patch: {}, veto: 'Closed deals need a reason' }));
    expect(await runScript(run, host(), s.factory)).toMatchObject({ _tag: 'Vetoed', message: 'Closed deals need a reason' });
  });

  it('a throw names the script and the line of its source', async () => {
    const s = fakeSandbox(({ send }) => send({ kind: 'failed', message: 'Error: boom', stack: `Error: boom\n at f (blob:http://h/1:${PRELUDE_LINES + 2}:5)` }));
    expect(await runScript(run, host(), s.factory)).toEqual({ _tag: 'ScriptThrew', script: 'account.change', message: 'Error: boom', line: 2 });
  });

  it('a syntax error (the worker does not load) names the line too', async () => {
    const s = fakeSandbox(({ error }) => error('Uncaught SyntaxError: Unexpected token', PRELUDE_LINES + 1));
    expect(await runScript(run, host(), s.factory)).toEqual({ _tag: 'ScriptThrew', script: 'account.change', message: 'SyntaxError: Unexpected token', line: 1 });
  });

  it('a script that does not finish is stopped at the time limit', async () => {
    vi.useFakeTimers();
    const s = fakeSandbox(() => undefined);
    const answer = runScript({ ...run, timeLimitMs: 5000 }, host(), s.factory);
    await vi.advanceTimersByTimeAsync(5001);
    expect(await answer).toEqual({ _tag: 'ScriptTimedOut', script: 'account.change', seconds: 5 });
    expect(s.terminated.value).toBe(true);
  });

  it('the time limit waits while a confirm waits for the user', async () => {
    vi.useFakeTimers();
    let yes: (v: boolean) => void = () => undefined;
    const s = fakeSandbox(({ send }) => send({ kind: 'call', call: 1, method: 'confirm', args: ['Sure?'] }));
    const answer = runScript({ ...run, timeLimitMs: 1000 }, host({ confirm: () => new Promise<boolean>((r) => (yes = r)) }), s.factory);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.terminated.value).toBe(false);
    yes(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.replies).toEqual([{ kind: 'reply', call: 1, ok: true, value: true }]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await answer).toMatchObject({ _tag: 'ScriptTimedOut' });
  });

  it('calls go to the host and their failures come back as errors for the script', async () => {
    const updates: unknown[] = [];
    const s = fakeSandbox(({ send }) => {
      send({ kind: 'call', call: 1, method: 'update', args: [{ operation: 'update', name: 'opportunity', object: { id: 'o1', statuscode: 2 } }] });
      send({ kind: 'call', call: 2, method: 'fetch', args: [{ entity: { name: 'secret' } }] });
      setTimeout(() => send({ kind: 'done', patch: {} }), 5);
    });
    const h = host({
      update: async (item) => (updates.push(item), { id: 'o1' }),
      fetch: async () => {
        throw new Error('ERR_PERMISSION: no read on secret');
      },
    });
    await runScript(run, h, s.factory);
    expect(updates).toEqual([{ operation: 'update', name: 'opportunity', object: { id: 'o1', statuscode: 2 } }]);
    expect(s.replies).toContainEqual({ kind: 'reply', call: 1, ok: true, value: { id: 'o1' } });
    expect(s.replies).toContainEqual({ kind: 'reply', call: 2, ok: false, error: 'ERR_PERMISSION: no read on secret' });
  });

  it('a message off the protocol ends the run as the script\'s error', async () => {
    const navigations: string[] = [];
    const s = fakeSandbox(({ send }) => send({ kind: 'call', call: 1, method: 'navigate', args: ['https://evil.example/'] }));
    const r = await runScript(run, host({ navigate: async (p) => void navigations.push(p) }), s.factory);
    expect(r._tag).toBe('ScriptProtocol');
    expect(navigations).toEqual([]);
  });
});
