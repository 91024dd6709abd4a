import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import { builtInPacks } from '../packs/packs.js';
import type { Entity } from './entity.js';
import { withSystemFields } from './system-fields.js';
import { checkViewBody } from './view-body-check.js';

const entities = new Map<string, Entity>();
for (const e of builtInPacks().flatMap((p) => p.entities)) {
  const full = withSystemFields(e);
  entities.set(e.logicalName, isRight(full) ? full.right : e);
}
const lookup = (n: string) => entities.get(n);
const views = builtInPacks().flatMap((p) => p.views ?? []);

describe('the inu_view editor checks a body with its kind codec and the metadata (issue 15)', () => {
  it('every view, chart and dashboard of the built-in packs checks as valid', () => {
    for (const v of views) {
      const r = checkViewBody(v.kind, JSON.stringify(v.body), lookup, v.objectname);
      expect({ name: `${v.kind} ${v.objectname ?? ''} ${v.name}`, r: r._tag === 'Valid' ? 'Valid' : r }).toEqual({ name: `${v.kind} ${v.objectname ?? ''} ${v.name}`, r: 'Valid' });
    }
  });

  it('bad JSON is a JSON problem (with its line when the parser says where)', () => {
    expect(checkViewBody('view', '{\n"query": }', lookup)._tag).toBe('Json');
    const r = checkViewBody('view', '{\n  "query": { "name": "account", }\n}', lookup);
    expect(r._tag).toBe('Json');
    if (r._tag === 'Json') expect(r.line).toBe(2);
  });

  it('the codec of the kind names the path: a view without columns', () => {
    expect(checkViewBody('view', JSON.stringify({ query: { name: 'account' } }), lookup)).toMatchObject({ _tag: 'Invalid', path: 'columns' });
  });

  it("a view's query is checked by the query engine at its place in the body", () => {
    const body = { query: { name: 'account', filter: { conditions: [{ attribute: 'nope', operator: 'eq', value: 1 }] } }, columns: [{ name: 'name' }] };
    expect(checkViewBody('view', JSON.stringify(body), lookup)).toEqual({ _tag: 'Invalid', path: 'query.filter.conditions[0].attribute', message: 'Field not found:account.nope' });
  });

  it("a view's column must be a field of its entity", () => {
    const body = { query: { name: 'account' }, columns: [{ name: 'name' }, { name: 'nope' }] };
    expect(checkViewBody('view', JSON.stringify(body), lookup)).toMatchObject({ path: 'columns[1].name', message: 'Field not found:account.nope' });
  });

  it("a chart's fields and a dashboard object's query are checked", () => {
    const chart = { series: [{ aggregateField: 'nope', aggregateMethod: 'count' }], groups: [{ field: 'name', method: 'column' }], type: 'bar' };
    expect(checkViewBody('chart', JSON.stringify(chart), lookup, 'account')).toMatchObject({ path: 'series[0].aggregateField' });
    const dash = { objects: [{ kind: 'label', name: 'x' }, { kind: 'grid', name: 'g', query: { name: 'account', orders: [{ attribute: 'zzz' }] } }] };
    expect(checkViewBody('dashboard', JSON.stringify(dash), lookup)).toMatchObject({ path: 'objects[1].query.orders[0]' });
  });

  it('forms and scripts are checked by their codec', () => {
    expect(checkViewBody('script', JSON.stringify({ source: 'x' }), lookup)._tag).toBe('Valid');
    expect(checkViewBody('script', JSON.stringify({ source: 1 }), lookup)).toMatchObject({ path: 'source' });
  });
});
