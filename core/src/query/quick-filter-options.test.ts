import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import type { QuickFilter } from '../metadata/view.js';
import type { Condition, Filter } from './query.js';
import { baseOptions, completeQuickFilter, customFilterControl, quickFilterOptions, TOGGLE_ON } from './quick-filter-options.js';
import {
  effectiveSelection,
  isEmptySelection,
  quickFilterErrors,
  quickFilterToFragment,
  visibleOptions,
  type QuickFilterContext,
  type QuickFilterSelection,
} from './quick-filters.js';

const entity: Entity = {
  logicalName: 'lead',
  displayName: 'Lead',
  displayNamePlural: 'Leads',
  properties: [
    {
      logicalName: 'status',
      displayName: 'Status',
      type: 'Integer',
      flags: ['OptionSet'],
      richOptions: [
        { value: 1, label: 'New', color: '#0071eb' },
        { value: 2, label: 'Contacted' },
        { value: 3, label: 'Qualified' },
      ],
    },
    { logicalName: 'estimatedvalue', displayName: 'Value', type: 'Money' },
    { logicalName: 'nextcontact', displayName: 'Next Contact', type: 'DateTime', flags: ['DateOnly'] },
  ],
};
const ctx: QuickFilterContext = { reference: new Date('2024-03-13T09:30:00Z'), timeZone: 'Europe/Bratislava', entity, placeholders: { userid: 'u-1' } };
const status = entity.properties[0];

/** A tiny evaluator of the and/or filters quick filters build (ge, gt, le, lt, eq, in on numbers and ISO days). */
const holds = (f: Filter, row: Record<string, number | string>): boolean => {
  const one = (c: Condition): boolean => {
    const v = row[c.attribute];
    switch (c.operator) {
      case 'ge':
        return v >= (c.value as number | string);
      case 'gt':
        return v > (c.value as number | string);
      case 'le':
        return v <= (c.value as number | string);
      case 'lt':
        return v < (c.value as number | string);
      case 'eq':
        return v === c.value;
      case 'in':
        return (c.value as unknown[]).includes(v);
      default:
        throw new Error(`operator ${c.operator} not evaluated here`);
    }
  };
  const parts = [...(f.conditions ?? []).map(one), ...(f.filters ?? []).map((n) => holds(n, row))];
  return f.type === 'or' ? parts.some(Boolean) : parts.every(Boolean);
};

const filterOf = (def: QuickFilter, s: QuickFilterSelection): Filter | null => {
  const r = quickFilterToFragment(def, s, ctx);
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right?.filter ?? null;
};

describe('the options a quick filter offers (spec 001 section 2: directOptions, richOptions, included and excluded options)', () => {
  it('directOptions come first, then the filter richOptions, then the property options', () => {
    const direct = [{ value: 'a', label: 'A' }];
    const rich = [{ value: 9, label: 'Nine', color: '#f00' }];
    expect(baseOptions({ name: 's', type: 'options', propertyName: 'status', directOptions: direct, richOptions: rich }, status)).toEqual(direct);
    expect(baseOptions({ name: 's', type: 'options', propertyName: 'status', richOptions: rich }, status)).toEqual(rich);
    expect(baseOptions({ name: 's', type: 'options', propertyName: 'status' }, status).map((o) => o.value)).toEqual([1, 2, 3]);
  });

  it('a date filter offers the twelve date quick options, an age filter 0 to 99, an owner filter Mine', () => {
    expect(baseOptions({ name: 'd', type: 'date' }, undefined)).toHaveLength(12);
    const ages = baseOptions({ name: 'a', type: 'age' }, undefined).map((o) => o.value);
    expect([ages[0], ages[ages.length - 1], ages.length]).toEqual([0, 99, 100]);
    expect(baseOptions({ name: 'o', type: 'owner' }, undefined).map((o) => o.value)).toEqual(['{{userid}}']);
  });

  it('property: the shown options are exactly the base options that are included (when listed) and not excluded, in their order', () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom('a', 'b', 'c'));
    fc.assert(
      fc.property(
        fc.uniqueArray(value, { maxLength: 10 }),
        fc.option(fc.array(value, { maxLength: 6 }), { nil: undefined }),
        fc.array(value, { maxLength: 6 }),
        (values, included, excluded) => {
          const options = values.map((v) => ({ value: v, label: String(v) }));
          const def: QuickFilter = { name: 'o', type: 'options', directOptions: options, ...(included ? { includedOptions: included } : {}), excludedOptions: excluded };
          const shown = quickFilterOptions(def, undefined).map((o) => o.value);
          const expected = values.filter((v) => (included === undefined || included.map(String).includes(String(v))) && !excluded.map(String).includes(String(v)));
          expect(shown).toEqual(expected);
          // narrowing twice changes nothing more
          expect(visibleOptions(def, quickFilterOptions(def, undefined)).map((o) => o.value)).toEqual(expected);
        },
      ),
    );
  });
});

describe('mustSelect falls back to the default option, else to the first option shown', () => {
  it('a mustSelect options filter without defaultOption defaults to its first shown option', () => {
    const def = completeQuickFilter({ name: 's', type: 'options', propertyName: 'status', mustSelect: true, excludedOptions: [1] }, entity);
    expect(def.defaultOption).toBe(2);
    expect(effectiveSelection(def, null)).toBe(2);
  });

  it('a defaultOption given stays; filters without mustSelect are unchanged', () => {
    const given: QuickFilter = { name: 's', type: 'options', propertyName: 'status', mustSelect: true, defaultOption: 3 };
    expect(completeQuickFilter(given, entity)).toBe(given);
    const free: QuickFilter = { name: 's', type: 'options', propertyName: 'status' };
    expect(completeQuickFilter(free, entity)).toBe(free);
  });

  it('property: a completed mustSelect filter with any option is never empty, whatever the user clears', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom<QuickFilterSelection>(null, [], ''),
        (values, cleared) => {
          const def = completeQuickFilter({ name: 'o', type: 'options', mustSelect: true, directOptions: values.map((value) => ({ value, label: String(value) })) }, entity);
          const s = effectiveSelection(def, cleared);
          expect(isEmptySelection(s)).toBe(false);
          expect(s).toBe(values[0]);
        },
      ),
    );
  });
});

describe('custom filters apply their customFetch (spec 001 section 2), never a plain text condition', () => {
  const links = [{ name: 'workorder', from: 'id', to: 'customerid', alias: 'wo', filter: { conditions: [{ attribute: 'status', operator: 'in' as const, value: [1, 2, 3] }] } }];

  it('with options, the chosen option is {{value}} (a number stays a number)', () => {
    const def: QuickFilter = {
      name: 'big',
      type: 'custom',
      directOptions: [
        { value: 100000, label: '100k+' },
        { value: 1000000, label: '1M+' },
      ],
      customFetch: { filter: { conditions: [{ attribute: 'revenue', operator: 'ge', value: '{{value}}' }] } },
    };
    expect(customFilterControl(def, undefined)).toBe('options');
    expect(filterOf(def, 1000000)).toEqual({ conditions: [{ attribute: 'revenue', operator: 'ge', value: 1000000 }] });
  });

  it('without options and without {{value}}, it is a switch: on adds the fetch with its links, off adds nothing', () => {
    const def: QuickFilter = { name: 'open', type: 'custom', customFetch: { links } };
    expect(customFilterControl(def, undefined)).toBe('toggle');
    const r = quickFilterToFragment(def, TOGGLE_ON, ctx);
    expect(E.isRight(r) && r.right?.links).toEqual(links);
    expect(E.isRight(r) && r.right?.filter).toEqual({});
    expect(quickFilterToFragment(def, null, ctx)).toEqual(E.right(null));
  });

  it('a mustSelect switch is always on', () => {
    const def = completeQuickFilter({ name: 'open', type: 'custom', mustSelect: true, customFetch: { links } }, entity);
    expect(effectiveSelection(def, null)).toBe(TOGGLE_ON);
  });

  it('a customFetch reading {{value}} without options takes an input, applied from minimumLength on', () => {
    const def: QuickFilter = {
      name: 'contact',
      type: 'custom',
      minimumLength: 2,
      customFetch: { links: [{ name: 'contact', from: 'id', to: 'parentcustomerid', alias: 'c', filter: { conditions: [{ attribute: 'name', operator: 'like', value: '{{value}}%' }] } }] },
    };
    expect(customFilterControl(def, undefined)).toBe('input');
    expect(quickFilterToFragment(def, 'A', ctx)).toEqual(E.right(null));
    const r = quickFilterToFragment(def, ' Al ', ctx);
    expect(E.isRight(r) && r.right?.links[0].filter?.conditions?.[0].value).toBe('Al%');
  });
});

describe('range filters include both ends (spec 001 section 2)', () => {
  it('property: a numeric range holds a value exactly when from <= value <= to (an open end is unbounded)', () => {
    const end = fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null });
    fc.assert(
      fc.property(end, end, fc.integer({ min: -1200, max: 1200 }), (from, to, v) => {
        const f = filterOf({ name: 'v', type: 'numericrange', propertyName: 'estimatedvalue' }, { from, to });
        const expected = (from === null || v >= from) && (to === null || v <= to);
        expect(f === null ? true : holds(f, { estimatedvalue: v })).toBe(expected);
      }),
    );
  });

  it('property: a day range on a DateOnly field holds a day exactly when from <= day <= to', () => {
    const day = fc.integer({ min: 0, max: 400 }).map((n) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.option(day, { nil: null }), fc.option(day, { nil: null }), day, (from, to, d) => {
        for (const type of ['dayrange', 'daterange'] as const) {
          const f = filterOf({ name: 'n', type, propertyName: 'nextcontact' }, { from, to });
          const expected = (from === null || d >= from) && (to === null || d <= to);
          expect(f === null ? true : holds(f, { nextcontact: d })).toBe(expected);
        }
      }),
    );
  });

  it('a dayrange refuses years outside 1801-2199; a numeric range refuses text', () => {
    const errors = quickFilterErrors(
      [
        { name: 'd', type: 'dayrange', propertyName: 'nextcontact' },
        { name: 'n', type: 'numericrange', propertyName: 'estimatedvalue' },
        { name: 'ok', type: 'number', propertyName: 'estimatedvalue' },
      ],
      { d: { from: '1700-01-01' }, n: { from: 'abc' }, ok: '12' },
      ctx,
    );
    expect(Object.keys(errors)).toEqual(['d', 'n']);
    expect(errors.d).toBe('The year must be between 1801 and 2199');
  });
});

describe('a filter fetch reads {{now}} and {{today}} (the demo work-order Overdue switch)', () => {
  it('{{now}} is the reference instant and {{today}} the local day of the user', () => {
    const def: QuickFilter = {
      name: 'overdue',
      type: 'custom',
      customFetch: { filter: { conditions: [{ attribute: 'scheduledend', operator: 'lt', value: '{{now}}' }, { attribute: 'due', operator: 'lt', value: '{{today}}' }] } },
    };
    const late = { ...ctx, reference: new Date('2024-03-13T23:30:00Z') };
    const r = quickFilterToFragment(def, TOGGLE_ON, late);
    expect(E.isRight(r) && r.right?.filter.conditions).toEqual([
      { attribute: 'scheduledend', operator: 'lt', value: '2024-03-13T23:30:00.000Z' },
      { attribute: 'due', operator: 'lt', value: '2024-03-14' },
    ]);
  });
});
