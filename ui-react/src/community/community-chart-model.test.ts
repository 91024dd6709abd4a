import { describe, expect, it } from 'vitest';
import type { FetchRequest, FetchResult } from '../core.js';
import { chartSeries, communityChartModel, communityIdOf } from './community-chart-model.js';

describe('community evaluation chart (spec 002 sections 2, 3 and 9: eight scores on a scale of 0 to 5, and the average)', () => {
  it('shows this evaluation as edited beside the average with the community`s other evaluations', () => {
    const s = chartSeries({ housing_eval: 4, salary_eval: 1 }, [{ id: 'b', housing_eval: 2, salary_eval: null }]);
    expect(s.current).toEqual([4, 1, 0, 0, 0, 0, 0, 0]);
    expect(s.average.slice(0, 3)).toEqual([3, 1, null]);
    expect(s.count).toBe(2);
  });

  it('reads the community`s evaluations once and leaves out the one being edited', async () => {
    const seen: FetchRequest[] = [];
    const api = {
      fetch: async (q: FetchRequest): Promise<FetchResult> => {
        seen.push(q);
        return { records: [{ id: 'me', housing_eval: 5 }, { id: 'other', housing_eval: 1 }], count: 2, page: 1, pageSize: 5000, moreRecords: false };
      },
    };
    const m = communityChartModel({ api });
    await m.load(undefined, undefined);
    expect(m.state.value._tag).toBe('NoCommunity');
    await m.load('c1', 'me');
    expect(seen[0].entity.filter?.conditions?.[0]).toEqual({ attribute: 'communityid', operator: 'eq', value: 'c1' });
    expect(m.others.value.map((r) => r.id)).toEqual(['other']);
    expect(m.state.value._tag).toBe('Ready');
  });

  it('a failed read is a state the panel shows', async () => {
    const m = communityChartModel({ api: { fetch: async () => Promise.reject(new Error('offline')) } });
    await m.load('c1', undefined);
    expect(m.state.value).toEqual({ _tag: 'Failed', error: 'offline' });
  });

  it('the community is the lookup`s id (or a plain id from init)', () => {
    expect(communityIdOf({ id: 'c1', name: 'fi_community', label: 'Obec' })).toBe('c1');
    expect(communityIdOf('c2')).toBe('c2');
    expect(communityIdOf(null)).toBeUndefined();
  });
});
