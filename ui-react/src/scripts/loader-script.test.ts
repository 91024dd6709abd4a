import { describe, expect, it } from 'vitest';
import { loaderState } from './loader-script.js';

const done = (result: unknown) => ({ _tag: 'Completed' as const, patch: {}, result });

describe("a dashboard object's loaderScript answer (spec 000 section 3, issue 16)", () => {
  it('a number is the figure, { first, second } a gauge, an array of records a grid', () => {
    expect(loaderState(done(42), () => '')).toEqual({ _tag: 'Number', value: 42 });
    expect(loaderState(done({ first: 3, second: 4 }), () => '')).toEqual({ _tag: 'Gauge', first: 3, second: 4, percent: 75 });
    expect(loaderState(done([{ id: '1', name: 'A', total: 2 }]), () => '')).toEqual({ _tag: 'Grid', entity: '', columns: ['name', 'total'], rows: [{ id: '1', name: 'A', total: 2 }], count: 1 });
  });
  it('a failure or an answer of another shape shows the object as failed', () => {
    expect(loaderState({ _tag: 'ScriptTimedOut', script: 'x', seconds: 5 }, () => 'stopped')).toEqual({ _tag: 'Failed', message: 'stopped' });
    expect(loaderState(done('text'), () => '')._tag).toBe('Failed');
  });
});
