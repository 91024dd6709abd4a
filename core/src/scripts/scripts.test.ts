import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { CHANGE_QUEUE_IDLE, changeFinished, changeQueued, type ChangeQueue } from './change-queue.js';
import { decodeSandboxMessage } from './protocol.js';
import { commandScriptName, customCommands, scriptSource } from './script-names.js';
import { describeScriptFailure, scriptLine } from './script-error.js';

describe('change events (spec 001 section 4: one at a time, rescheduled if changes arrive while running)', () => {
  it('an edit on an idle form starts a run with the edited fields', () => {
    expect(changeQueued(CHANGE_QUEUE_IDLE, ['a']).start).toEqual(['a']);
  });
  it('edits while a run is going wait, and start the next run when it finishes', () => {
    let q = changeQueued(CHANGE_QUEUE_IDLE, ['a']).queue;
    const during = changeQueued(q, ['b']);
    expect(during.start).toBeUndefined();
    q = changeQueued(during.queue, ['c', 'b']).queue;
    const next = changeFinished(q);
    expect(next.start).toEqual(['b', 'c']);
    expect(changeFinished(next.queue)).toEqual({ queue: CHANGE_QUEUE_IDLE });
  });
  it('property: never two runs at once, and every edited field is given to a run started at or after its edit', () => {
    const op = fc.oneof(fc.record({ edit: fc.subarray(['a', 'b', 'c', 'd'], { minLength: 1 }) }), fc.constant({ finish: true as const }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let q: ChangeQueue = CHANGE_QUEUE_IDLE;
        let running = 0;
        const waiting = new Set<string>();
        const step = (s: { queue: ChangeQueue; start?: readonly string[] }) => {
          if (s.start) {
            running += 1;
            for (const f of s.start) waiting.delete(f);
          }
          q = s.queue;
          expect(running).toBeLessThanOrEqual(1);
        };
        for (const o of ops) {
          if ('edit' in o) {
            o.edit.forEach((f) => waiting.add(f));
            step(changeQueued(q, o.edit));
          } else if (running === 1) {
            running -= 1;
            step(changeFinished(q));
          }
        }
        // Finishing every run leaves nothing waiting.
        while (running === 1) {
          running -= 1;
          step(changeFinished(q));
        }
        expect(waiting.size).toBe(0);
        expect(q).toEqual(CHANGE_QUEUE_IDLE);
      }),
    );
  });
});

describe('script names (spec 001 section 3, spec 000 section 3: scripts are inu_view records of kind script)', () => {
  const gui = [
    { kind: 'script' as const, name: 'Account.Change', body: JSON.stringify({ source: 'return 1;' }) },
    { kind: 'form' as const, name: 'account.validate', body: '{}' },
    { kind: 'script' as const, name: 'broken', body: '{' },
  ];
  it('finds a script by name without case, only among kind script', () => {
    expect(scriptSource(gui, 'account.change')).toBe('return 1;');
    expect(scriptSource(gui, 'account.validate')).toBeUndefined();
    expect(scriptSource(gui, 'broken')).toBeUndefined();
    expect(scriptSource(gui, '')).toBeUndefined();
  });
  it('a custom command runs {entity}.{command name}; std commands are not scripts', () => {
    expect(commandScriptName('opportunity', { name: 'close' })).toBe('opportunity.close');
    expect(customCommands([{ kind: 'std', name: 'save' }, { kind: 'custom', name: 'close' }]).map((c) => c.name)).toEqual(['close']);
  });
});

describe('the sandbox protocol: what a script sends is decoded', () => {
  it('accepts the calls of the API', () => {
    expect(isRight(decodeSandboxMessage({ kind: 'call', call: 1, method: 'fetch', args: [{ entity: { name: 'account' } }] }))).toBe(true);
    expect(isRight(decodeSandboxMessage({ kind: 'call', call: 2, method: 'update', args: [{ operation: 'update', name: 'account', object: { id: 'x' } }] }))).toBe(true);
    expect(isRight(decodeSandboxMessage({ kind: 'call', call: 3, method: 'toast', args: ['hi', 'info'] }))).toBe(true);
    expect(isRight(decodeSandboxMessage({ kind: 'done', patch: { a: 1 }, veto: 'no' }))).toBe(true);
  });
  it('refuses navigation off the application and unknown methods', () => {
    for (const path of ['//evil.example', 'https://evil.example', 'javascript:alert(1)', '/\\evil']) {
      expect(isLeft(decodeSandboxMessage({ kind: 'call', call: 1, method: 'navigate', args: [path] }))).toBe(true);
    }
    expect(isRight(decodeSandboxMessage({ kind: 'call', call: 1, method: 'navigate', args: ['/!/list/account'] }))).toBe(true);
    expect(isLeft(decodeSandboxMessage({ kind: 'call', call: 1, method: 'eval', args: [] }))).toBe(true);
    expect(isLeft(decodeSandboxMessage({ kind: 'call', call: 1, method: 'update', args: [{ operation: 'drop', name: 'x', object: {} }] }))).toBe(true);
  });
  it('cuts a long text a script shows', () => {
    const r = decodeSandboxMessage({ kind: 'call', call: 1, method: 'alert', args: ['x'.repeat(10_000)] });
    expect(isRight(r) && r.right.kind === 'call' && (r.right.args[0] as string).length).toBe(2000);
  });
});

describe('script failures name the script and its line (issue 16)', () => {
  const url = 'blob:http://127.0.0.1:3000/5f0c-11';
  it('the line of the script file minus the prelude, in Chromium and Firefox stacks', () => {
    expect(scriptLine(`Error: boom\n    at run (${url}:14:9)\n    at other (http://x/a.js:1:1)`, url, 10)).toBe(4);
    expect(scriptLine(`run@${url}:12:3\n`, url, 10)).toBe(2);
    expect(scriptLine('Error: boom\n    at http://x/a.js:40:1', url, 10)).toBeUndefined();
    expect(scriptLine(`at (${url}:3:1)`, url, 10)).toBeUndefined();
  });
  it('the text starts with the name', () => {
    expect(describeScriptFailure({ _tag: 'ScriptThrew', script: 'account.change', message: 'Error: boom', line: 3 })).toBe('Script account.change line 3: Error: boom');
    expect(describeScriptFailure({ _tag: 'ScriptTimedOut', script: 'x', seconds: 5 })).toBe('Script x: stopped after 5 s (time limit)');
  });
});
