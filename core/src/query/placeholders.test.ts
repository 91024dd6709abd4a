import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placeholderNames, replaceConditionPlaceholders, replaceFetchPlaceholders, replaceFilterPlaceholders } from './placeholders.js';
import type { Condition, Filter } from './query.js';

describe('{{name}} placeholders are replaced from a lookup (spec 000 section 7)', () => {
  it('replaces a whole-value placeholder, keeping the replacement type', () => {
    expect(replaceConditionPlaceholders({ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }, { userid: 'u-1' })).toEqual({
      attribute: 'ownerid',
      operator: 'eq',
      value: 'u-1',
    });
    expect(replaceConditionPlaceholders({ attribute: 'n', operator: 'gt', value: '{{ limit }}' }, { limit: 5 })).toEqual({
      attribute: 'n',
      operator: 'gt',
      value: 5,
    });
  });

  it('splices an embedded placeholder into the text', () => {
    expect(replaceConditionPlaceholders({ attribute: 'name', operator: 'like', value: '{{value}}%' }, { value: 'Acme' }).value).toBe('Acme%');
  });

  it.each([['' as const], [null], [undefined]])('a replacement of %j turns the operator into null', (empty) => {
    expect(replaceConditionPlaceholders({ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }, { userid: empty })).toEqual({
      attribute: 'ownerid',
      operator: 'null',
    });
    expect(replaceConditionPlaceholders({ attribute: 'name', operator: 'like', value: 'x{{v}}%' }, { v: empty }).operator).toBe('null');
    expect(replaceConditionPlaceholders({ attribute: 'id', operator: 'in', value: ['a', '{{v}}'] }, { v: empty }).operator).toBe('null');
  });

  it('a placeholder missing from the lookup counts as empty', () => {
    expect(replaceConditionPlaceholders({ attribute: 'a', operator: 'eq', value: '{{nothing}}' }, {}).operator).toBe('null');
  });

  it('replaces inside nested filters and link filters of a query', () => {
    const q = replaceFetchPlaceholders(
      {
        entity: {
          name: 'account',
          filter: { type: 'and', filters: [{ conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] }] },
          links: [{ name: 'contact', from: 'id', to: 'accountid', filter: { conditions: [{ attribute: 'x', operator: 'eq', value: '{{team}}' }] } }],
        },
      },
      { userid: 'u-1' },
    );
    expect(q.entity.filter?.filters?.[0].conditions?.[0]).toEqual({ attribute: 'ownerid', operator: 'eq', value: 'u-1' });
    expect(q.entity.links?.[0].filter?.conditions?.[0]).toEqual({ attribute: 'x', operator: 'null' });
  });

  const text = fc.string().filter((s) => !s.includes('{{') && !s.includes('}}'));
  const scalar = fc.oneof(text, fc.integer(), fc.boolean());
  const condition: fc.Arbitrary<Condition> = fc.record({
    attribute: fc.constantFrom('a', 'b'),
    operator: fc.constantFrom('eq', 'ne', 'like', 'in'),
    value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.constant(null)),
  });
  // Depth is bounded explicitly: an open recursion can grow deep enough to overflow the stack.
  const filterOfDepth = (depth: number): fc.Arbitrary<Filter> =>
    fc.record({
      type: fc.constantFrom<'and' | 'or'>('and', 'or'),
      conditions: fc.array(condition, { maxLength: 3 }),
      filters: depth === 0 ? fc.constant([]) : fc.array(filterOfDepth(depth - 1), { maxLength: 2 }),
    });
  const filter = filterOfDepth(3);

  it('property: a filter without placeholders is unchanged', () => {
    fc.assert(fc.property(filter, fc.dictionary(fc.string(), fc.string()), (f, values) => {
      expect(replaceFilterPlaceholders(f, values)).toEqual(f);
    }));
  });

  it('property: with non-empty replacements no placeholder is left and the operator is kept', () => {
    fc.assert(
      fc.property(fc.constantFrom('a', 'b', 'userid'), fc.string({ minLength: 1 }).filter((s) => !s.includes('{{')), text, (name, repl, prefix) => {
        const c = replaceConditionPlaceholders({ attribute: 'x', operator: 'like', value: `${prefix}{{${name}}}%` }, { [name]: repl });
        expect(c.operator).toBe('like');
        expect(placeholderNames(String(c.value))).toEqual([]);
        expect(c.value).toBe(`${prefix}${repl}%`);
      }),
    );
  });

  it('property: with an empty replacement the condition always becomes "is null" without a value', () => {
    fc.assert(
      fc.property(condition, fc.constantFrom('', null, undefined), (c, empty) => {
        const withPlaceholder = { ...c, value: '{{p}}' };
        expect(replaceConditionPlaceholders(withPlaceholder, { p: empty })).toEqual({ attribute: c.attribute, operator: 'null' });
      }),
    );
  });
});
