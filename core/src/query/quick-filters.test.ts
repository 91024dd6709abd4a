import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { QuickFilter } from '../metadata/view.js';
import type { Entity } from '../metadata/entity.js';
import {
  applyQuickFilterFragment,
  effectiveSelection,
  initialSelection,
  isEmptySelection,
  quickFiltersToFetch,
  quickFilterToFragment,
  reachesMinimumLength,
  visibleOptions,
  visibleQuickFilters,
  type QuickFilterContext,
  type QuickFilterFragment,
  type QuickFilterSelection,
} from './quick-filters.js';

const ctx: QuickFilterContext = {
  reference: new Date('2024-03-13T09:30:00Z'),
  timeZone: 'Europe/Bratislava',
  placeholders: { userid: 'u-1' },
  entity: {
    logicalName: 'contact',
    displayName: 'Contact',
    displayNamePlural: 'Contacts',
    properties: [
      { logicalName: 'birthdate', displayName: 'Birth date', type: 'DateTime', flags: ['DateOnly'] },
      { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
    ],
  } satisfies Entity,
};

const fragment = (def: QuickFilter, s: QuickFilterSelection | undefined): QuickFilterFragment | null => {
  const r = quickFilterToFragment(def, s, ctx);
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right;
};
const conditionsOf = (def: QuickFilter, s: QuickFilterSelection | undefined) => fragment(def, s)?.filter.conditions;

describe('quick filters become query conditions (spec 001 section 2)', () => {
  it('an options filter with one value is eq, with several values in', () => {
    const def: QuickFilter = { name: 'status', type: 'options', propertyName: 'statuscode' };
    expect(conditionsOf(def, 1)).toEqual([{ attribute: 'statuscode', operator: 'eq', value: 1 }]);
    expect(conditionsOf(def, [1, 2])).toEqual([{ attribute: 'statuscode', operator: 'in', value: [1, 2] }]);
  });

  it('a pulldown selection is empty, single or multiple: empty adds nothing', () => {
    const def: QuickFilter = { name: 'status', type: 'options' };
    expect(fragment(def, null)).toBeNull();
    expect(fragment(def, [])).toBeNull();
    expect(fragment(def, undefined)).toBeNull();
  });

  it('an owner filter compares ownerid and resolves the {{userid}} placeholder', () => {
    expect(conditionsOf({ name: 'owner', type: 'owner' }, '{{userid}}')).toEqual([{ attribute: 'ownerid', operator: 'eq', value: 'u-1' }]);
  });

  it('a date filter on a DateTime field is [local midnight, local midnight) as instants', () => {
    expect(conditionsOf({ name: 'c', type: 'date', propertyName: 'createdon' }, 'this-week')).toEqual([
      { attribute: 'createdon', operator: 'ge', value: '2024-03-10T23:00:00.000Z' },
      { attribute: 'createdon', operator: 'lt', value: '2024-03-17T23:00:00.000Z' },
    ]);
  });

  it('a date filter on a DateOnly field compares YYYY-MM-DD days', () => {
    expect(conditionsOf({ name: 'b', type: 'date', propertyName: 'birthdate' }, 'this-month')).toEqual([
      { attribute: 'birthdate', operator: 'ge', value: '2024-03-01' },
      { attribute: 'birthdate', operator: 'lt', value: '2024-04-01' },
    ]);
  });

  it('several date options are or-ed', () => {
    const f = fragment({ name: 'c', type: 'date', propertyName: 'createdon' }, ['today', 'tomorrow']);
    expect(f?.filter.type).toBe('or');
    expect(f?.filter.filters).toHaveLength(2);
  });

  it('an unknown date option is an input error', () => {
    expect(E.isLeft(quickFilterToFragment({ name: 'c', type: 'date' }, 'someday', ctx))).toBe(true);
  });

  it('a day filter is that whole local day; years outside 1801-2199 are refused', () => {
    expect(conditionsOf({ name: 'c', type: 'day', propertyName: 'createdon' }, '2024-03-31')).toEqual([
      { attribute: 'createdon', operator: 'ge', value: '2024-03-30T23:00:00.000Z' },
      { attribute: 'createdon', operator: 'lt', value: '2024-03-31T22:00:00.000Z' },
    ]);
    const r = quickFilterToFragment({ name: 'c', type: 'day' }, '1800-12-31', ctx);
    expect(E.isLeft(r) && r.left.message).toBe('The year must be between 1801 and 2199');
    expect(E.isLeft(quickFilterToFragment({ name: 'c', type: 'dayrange' }, { from: '2024-01-01', to: '2200-01-01' }, ctx))).toBe(true);
  });

  it('a date range includes both end days; an open end adds one condition', () => {
    expect(conditionsOf({ name: 'b', type: 'daterange', propertyName: 'birthdate' }, { from: '2024-01-01', to: '2024-01-31' })).toEqual([
      { attribute: 'birthdate', operator: 'ge', value: '2024-01-01' },
      { attribute: 'birthdate', operator: 'lt', value: '2024-02-01' },
    ]);
    expect(conditionsOf({ name: 'b', type: 'daterange', propertyName: 'birthdate' }, { to: '2024-01-31' })).toEqual([
      { attribute: 'birthdate', operator: 'lt', value: '2024-02-01' },
    ]);
  });

  it('an age filter is the birth dates of people that old today', () => {
    expect(conditionsOf({ name: 'age', type: 'age', propertyName: 'birthdate' }, 30)).toEqual([
      { attribute: 'birthdate', operator: 'ge', value: '1993-03-14' },
      { attribute: 'birthdate', operator: 'lt', value: '1994-03-14' },
    ]);
    expect(E.isLeft(quickFilterToFragment({ name: 'age', type: 'age' }, 100, ctx))).toBe(true);
  });

  it('number and numeric range filters compare numbers (comma decimals accepted)', () => {
    expect(conditionsOf({ name: 'n', type: 'number', propertyName: 'revenue' }, '12,5')).toEqual([
      { attribute: 'revenue', operator: 'eq', value: 12.5 },
    ]);
    expect(conditionsOf({ name: 'n', type: 'numericrange', propertyName: 'revenue' }, { from: 10, to: '20' })).toEqual([
      { attribute: 'revenue', operator: 'ge', value: 10 },
      { attribute: 'revenue', operator: 'le', value: 20 },
    ]);
    expect(E.isLeft(quickFilterToFragment({ name: 'n', type: 'number' }, 'abc', ctx))).toBe(true);
  });

  it('a text filter matches the input anywhere in the field', () => {
    expect(conditionsOf({ name: 'name', type: 'text' }, ' Acme ')).toEqual([{ attribute: 'name', operator: 'like', value: '%Acme%' }]);
  });

  it('text and number filters apply only when the input length reaches minimumLength', () => {
    const text: QuickFilter = { name: 'name', type: 'text', minimumLength: 3 };
    expect(fragment(text, 'Ac')).toBeNull();
    expect(fragment(text, 'Acm')).not.toBeNull();
    const num: QuickFilter = { name: 'n', type: 'number', minimumLength: 4 };
    expect(fragment(num, '123')).toBeNull();
    expect(conditionsOf(num, '1234')).toEqual([{ attribute: 'n', operator: 'eq', value: 1234 }]);
  });

  it('property: a text filter is active exactly when the trimmed input reaches minimumLength', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(10), (input, min) => {
        const def: QuickFilter = { name: 't', type: 'text', minimumLength: min };
        expect(fragment(def, input) !== null).toBe(input.trim().length >= min && input !== '');
        expect(reachesMinimumLength(def, input)).toBe(input.trim().length >= min);
      }),
    );
  });

  it('a custom filter applies its customFetch with the input as {{value}}', () => {
    const def: QuickFilter = {
      name: 'c',
      type: 'custom',
      customFetch: { filter: { conditions: [{ attribute: 'name', operator: 'like', value: '{{value}}%' }] } },
    };
    expect(conditionsOf(def, 'Ac')).toEqual([{ attribute: 'name', operator: 'like', value: 'Ac%' }]);
  });

  it('extraFetch is added whenever the filter is active, with its links', () => {
    const def: QuickFilter = {
      name: 's',
      type: 'options',
      propertyName: 'statuscode',
      extraFetch: {
        filter: { conditions: [{ attribute: 'ownerid', operator: 'eq', value: '{{userid}}' }] },
        links: [{ name: 'account', from: 'parentid', to: 'id', alias: 'a' }],
      },
    };
    const f = fragment(def, 1);
    expect(f?.filter).toEqual({
      type: 'and',
      filters: [
        { type: 'and', conditions: [{ attribute: 'statuscode', operator: 'eq', value: 1 }] },
        { conditions: [{ attribute: 'ownerid', operator: 'eq', value: 'u-1' }] },
      ],
    });
    expect(f?.links).toEqual([{ name: 'account', from: 'parentid', to: 'id', alias: 'a' }]);
    expect(fragment(def, null)).toBeNull();
  });
});

describe('mustSelect, initial option and visible options', () => {
  it('a mustSelect filter cannot be cleared: it falls back to its default option', () => {
    const def: QuickFilter = { name: 'd', type: 'date', propertyName: 'createdon', mustSelect: true, defaultOption: 'today' };
    expect(effectiveSelection(def, null)).toBe('today');
    expect(effectiveSelection(def, [])).toBe('today');
    expect(effectiveSelection(def, 'this-week')).toBe('this-week');
    expect(conditionsOf(def, null)).toEqual(conditionsOf({ ...def, mustSelect: false }, 'today'));
    expect(effectiveSelection({ ...def, mustSelect: false }, null)).toBeNull();
  });

  it('property: a mustSelect filter with a default option is never empty', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(null), fc.constant([]), fc.constant(''), fc.integer(), fc.array(fc.integer())), fc.integer(), (s, d) => {
        const def: QuickFilter = { name: 'o', type: 'options', mustSelect: true, defaultOption: d };
        expect(isEmptySelection(effectiveSelection(def, s))).toBe(false);
      }),
    );
  });

  it('the initial selection is initialOption, else defaultOption, else nothing', () => {
    expect(initialSelection({ name: 'o', type: 'options', initialOption: 2, defaultOption: 1 })).toBe(2);
    expect(initialSelection({ name: 'o', type: 'options', defaultOption: 1 })).toBe(1);
    expect(initialSelection({ name: 'o', type: 'options' })).toBeNull();
  });

  it('includedOptions and excludedOptions narrow the options shown', () => {
    const options = [1, 2, 3, 4].map((value) => ({ value, label: String(value) }));
    expect(visibleOptions({ name: 'o', type: 'options', includedOptions: [1, 2, 3], excludedOptions: ['2'] }, options).map((o) => o.value)).toEqual([1, 3]);
    expect(visibleOptions({ name: 'o', type: 'options' }, options)).toHaveLength(4);
  });

  it('filters with a permissions string are hidden when the user lacks the permission', () => {
    const defs: QuickFilter[] = [
      { name: 'a', type: 'text' },
      { name: 'b', type: 'text', permissions: 'account;3' },
      { name: 'c', type: 'text', permissions: 'contact;1' },
    ];
    expect(visibleQuickFilters(defs, (p) => p === 'contact;1').map((d) => d.name)).toEqual(['a', 'c']);
  });
});

describe('mandatory groups: any group with no active filter makes the list return nothing', () => {
  const defs: QuickFilter[] = [
    { name: 'owner', type: 'owner', mandatoryGroup: 'who' },
    { name: 'team', type: 'lookup', propertyName: 'teamid', mandatoryGroup: 'who' },
    { name: 'status', type: 'options', propertyName: 'statuscode' },
  ];

  it('no filter of the group active: no results', () => {
    const r = quickFiltersToFetch(defs, { status: 1 }, ctx);
    expect(r).toEqual(E.right({ _tag: 'NoResults', missingGroups: ['who'] }));
  });

  it('one filter of the group active is enough; the active filters are and-ed', () => {
    const r = quickFiltersToFetch(defs, { team: 't-1', status: 1 }, ctx);
    expect(r).toEqual(
      E.right({
        _tag: 'Fetch',
        fragment: {
          filter: {
            type: 'and',
            filters: [
              { type: 'and', conditions: [{ attribute: 'teamid', operator: 'eq', value: 't-1' }] },
              { type: 'and', conditions: [{ attribute: 'statuscode', operator: 'eq', value: 1 }] },
            ],
          },
          links: [],
          orders: [],
        },
      }),
    );
  });

  it('property: the list returns nothing exactly when some mandatory group has no active filter', () => {
    const def = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd'),
      group: fc.constantFrom(undefined, 'g1', 'g2'),
    });
    fc.assert(
      fc.property(fc.uniqueArray(def, { selector: (d) => d.name, maxLength: 4 }), fc.subarray(['a', 'b', 'c', 'd']), (raw, active) => {
        const defs: QuickFilter[] = raw.map((d) => ({ name: d.name, type: 'options', ...(d.group ? { mandatoryGroup: d.group } : {}) }));
        const selections = Object.fromEntries(active.map((n) => [n, 1]));
        const r = quickFiltersToFetch(defs, selections, ctx);
        const groups = new Set(raw.flatMap((d) => (d.group ? [d.group] : [])));
        const missing = [...groups].filter((g) => !raw.some((d) => d.group === g && active.includes(d.name)));
        expect(E.isRight(r) && r.right._tag).toBe(missing.length > 0 ? 'NoResults' : 'Fetch');
      }),
    );
  });

  it('the bar fragment is and-ed into the list query', () => {
    const q = applyQuickFilterFragment(
      { name: 'contact', filter: { conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] } },
      { filter: { conditions: [{ attribute: 'x', operator: 'eq', value: 1 }] }, links: [], orders: [] },
    );
    expect(q.filter).toEqual({
      type: 'and',
      filters: [{ conditions: [{ attribute: 'statecode', operator: 'eq', value: 0 }] }, { conditions: [{ attribute: 'x', operator: 'eq', value: 1 }] }],
    });
  });
});
