import { describe, expect, it, vi } from 'vitest';

// The formatters read the session's currencies and the language; both are browser state, stubbed here.
vi.mock('../state/session.js', () => ({ session: { value: null } }));
vi.mock('../i18n.js', () => ({ language: { value: 'en' }, t: (key: string) => key }));

import type { Chart, Property } from '../core.js';
import { chartData } from '../core.js';
import { categoryLabel, drawnChart } from './chart-labels.js';

const t = (key: string) => ({ LblChartEmptyValue: '(empty)', ChartAggCount: 'Count', ChartAggSum: 'Sum' })[key] ?? key;
const props = new Map<string, Property>([
  ['id', { logicalName: 'id', displayName: 'Id', type: 'Guid' }],
  ['value', { logicalName: 'value', displayName: 'Estimated Value', type: 'Money' }],
  ['source', { logicalName: 'source', displayName: 'Source', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Web' }, { value: 2, label: 'Referral' }] }],
  ['ownerid', { logicalName: 'ownerid', displayName: 'Owner', type: 'Lookup', targets: ['systemuser'] }],
]);

describe('chart labels (issue 13 section 3: lookup and option X values shown by their names)', () => {
  it('an option by its label, a lookup by its name, an empty group as (empty), a month in the language', () => {
    expect(categoryLabel(t, props.get('source'), 'column', 2)).toBe('Referral');
    expect(categoryLabel(t, props.get('ownerid'), 'column', { id: 'u1', name: 'systemuser', label: 'Nina Novak' })).toBe('Nina Novak');
    expect(categoryLabel(t, props.get('source'), 'column', null)).toBe('(empty)');
    expect(categoryLabel(t, undefined, 'month', '2024-03')).toBe('Mar 2024');
    expect(categoryLabel(t, undefined, 'week', '2024-W09')).toBe('2024-W09');
  });

  it('series are named by label, else aggregate and field (a count of records just Count); counts and values on their own axes', () => {
    const chart: Chart = {
      type: 'bar',
      series: [
        { aggregateField: 'id', aggregateMethod: 'count' },
        { aggregateField: 'value', aggregateMethod: 'sum', color: '#ef6c00' },
      ],
      groups: [{ field: 'source', method: 'column' }],
    };
    const d = drawnChart(t, chart, props, chartData(chart, [{ g0: 1, s0: 3, s1: 300 }, { g0: 2, s0: 1, s1: 50 }]));
    expect(d.categories).toEqual(['Web', 'Referral']);
    expect(d.series.map((s) => [s.label, s.scale, s.values])).toEqual([
      ['Count', 'count', [3, 1]],
      ['Sum (Estimated Value)', 'value', [300, 50]],
    ]);
  });
});
