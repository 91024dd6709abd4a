import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { MAX_PAGE_SIZE, type FetchRequest } from './query.js';
import { QUERY_LIMITS, validateQuery } from './validate-query.js';

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'founded', displayName: 'Founded', type: 'DateTime' },
    { logicalName: 'renewal', displayName: 'Renewal', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
    { logicalName: 'secret', displayName: 'Secret', type: 'String', secret: true },
  ],
};
const lookup = (name: string): Entity | undefined => (name === 'account' ? account : undefined);
const plan = (r: FetchRequest) => validateQuery(r, lookup);

describe('validateQuery: every name checked against the metadata, every limit named', () => {
  it("answers 'No Object:{name}' for an unknown entity and 'Field not found:{entity}.{field}' for an unknown field", () => {
    expect(plan({ entity: { name: 'x' } })).toEqual({ _tag: 'Left', left: { _tag: 'InputError', code: 'ERR_INPUT', message: 'No Object:x' } });
    const r = plan({ entity: { name: 'account', attributes: [{ attribute: 'nope' }] } });
    expect(isLeft(r) && r.left.message).toBe('Field not found:account.nope');
  });

  it('hides secret fields from requests and lets trusted server code name them', () => {
    const r = { entity: { name: 'account', filter: { conditions: [{ attribute: 'secret', operator: 'eq' as const, value: 'x' }] } } };
    expect(isLeft(plan(r))).toBe(true);
    expect(isRight(validateQuery(r, lookup, { allowSecret: true }))).toBe(true);
    const all = plan({ entity: { name: 'account', allattrs: true } });
    expect(isRight(all) && all.right.shape.kind === 'plain' && all.right.shape.columns.map((c) => c.key)).not.toContain('secret');
  });

  it('coerces condition values to the stored form: ISO UTC instants, YYYY-MM-DD dates, lower-case ids', () => {
    const r = plan({
      entity: {
        name: 'account',
        filter: {
          conditions: [
            { attribute: 'founded', operator: 'ge', value: '2024-01-01T01:00:00+01:00' },
            { attribute: 'renewal', operator: 'eq', value: '2025-01-31T10:00:00Z' },
            { attribute: 'id', operator: 'eq', value: 'ABCDEF00-0000-4000-8000-00000000000A' },
            { attribute: 'active', operator: 'eq', value: 'true' },
          ],
        },
      },
    });
    if (isLeft(r)) throw new Error(r.left.message);
    expect(r.right.filter?.conditions.map((c) => (c.kind === 'compare' ? c.value : null))).toEqual(['2024-01-01T00:00:00.000Z', '2025-01-31', 'abcdef00-0000-4000-8000-00000000000a', true]);
  });

  it('defaults pageSize to 50 and caps it at 5000, for any requested size', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }), (pageSize) => {
        const r = plan({ entity: { name: 'account' }, pageSize });
        if (isLeft(r)) return false;
        return r.right.pageSize === (pageSize === undefined ? 50 : Math.min(pageSize, MAX_PAGE_SIZE));
      }),
    );
  });

  it('refuses more conditions than maxConditions, whatever the nesting', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), (split) => {
        const n = QUERY_LIMITS.maxConditions + 1;
        const per = Math.ceil(n / split);
        const filters = Array.from({ length: split }, (_, i) => ({
          conditions: Array.from({ length: Math.min(per, n - i * per) }, () => ({ attribute: 'name', operator: 'eq' as const, value: 'x' })),
        }));
        const r = plan({ entity: { name: 'account', filter: { filters } } });
        return isLeft(r) && r.left.message.includes('maxConditions');
      }),
    );
  });

  it('needs an aggregate or a groupBy on every attribute of an aggregate query', () => {
    const r = plan({ entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'revenue', aggregate: 'sum' }] } });
    expect(isLeft(r) && r.left.message).toContain('aggregate or groupBy');
    expect(isLeft(plan({ entity: { name: 'account', attributes: [{ attribute: 'name', aggregate: 'sum' }] } }))).toBe(true);
    expect(isLeft(plan({ entity: { name: 'account', attributes: [{ attribute: 'name', groupBy: 'month' }, { attribute: 'id', aggregate: 'count' }] } }))).toBe(true);
  });
});
