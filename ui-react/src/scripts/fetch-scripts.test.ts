import { describe, expect, it } from 'vitest';
import type { QuickFilter } from '../core.js';
import { forgetScriptFetches, fragmentOfResult, fragmentScript, withScriptFetches } from './fetch-scripts.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("quick filters' customFetch / extraFetch computed by a script (issue 16)", () => {
  it('a fragment written { script } names its script; a plain fragment does not', () => {
    expect(fragmentScript({ script: 'account.myteam' } as never)).toBe('account.myteam');
    expect(fragmentScript({ filter: { conditions: [] } })).toBeUndefined();
  });

  it('the script runs once, the fragment is empty until it answers, then it is the answer', async () => {
    forgetScriptFetches();
    const runs: string[] = [];
    const defs = [
      { name: 'mine', type: 'custom', customFetch: { script: 'account.myteam' } },
      { name: 'plain', type: 'custom', customFetch: { filter: { conditions: [{ attribute: 'x', operator: 'eq', value: 1 }] } } },
    ] as unknown as QuickFilter[];
    const run = async (name: string) => {
      runs.push(name);
      return { filter: { conditions: [{ attribute: 'teamid', operator: 'eq' as const, value: 't1' }] } };
    };
    expect(withScriptFetches(defs, run)[0]?.customFetch).toEqual({});
    expect(withScriptFetches(defs, run)[1]).toBe(defs[1]);
    await tick();
    expect(withScriptFetches(defs, run)[0]?.customFetch).toEqual({ filter: { conditions: [{ attribute: 'teamid', operator: 'eq', value: 't1' }] } });
    expect(runs).toEqual(['account.myteam']);
  });

  it('only the keys of a fragment are taken from the answer; a failure is an empty fragment', () => {
    expect(fragmentOfResult({ _tag: 'Completed', patch: {}, result: { filter: { conditions: [] }, evil: 1 } })).toEqual({ filter: { conditions: [] } });
    expect(fragmentOfResult({ _tag: 'ScriptTimedOut', script: 'x', seconds: 5 })).toEqual({});
    expect(fragmentOfResult({ _tag: 'Completed', patch: {}, result: { filter: 'not a filter' } })).toEqual({});
  });
});
