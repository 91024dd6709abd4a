import { signal } from '@preact/signals-react';
import type { EntityRecord, FetchRequest, FieldValue, MessageKey } from '../core.js';
import { COMMUNITY_SCORE_FIELDS, communityAverage, communityChartValues, type CommunityEvaluation, type CommunityScoreField } from '../core.js';
import type { ApiClient } from '../api/client.js';

/**
 * The community evaluation chart (customComponent `communitychart`, spec 001 section 9 and
 * spec 002 sections 2, 3 and 9): the eight scores of the evaluation being edited on a scale of
 * 0 to 5, beside the community's average over its evaluations. The average counts this
 * evaluation as edited (the project's decision: it shows what the average becomes on Save) and
 * the community's other evaluations as stored.
 */

export type CommunityApi = Pick<ApiClient, 'fetch'>;
export const EVAL_ENTITY = 'fi_community_eval';
/** The most evaluations read for one community's average. */
export const MAX_EVALUATIONS = 5000;

/** The catalogue text of each score (Slovak first, spec 002 section 3's fields). */
export const SCORE_LABEL: Readonly<Record<CommunityScoreField, MessageKey>> = {
  housing_eval: 'CommunityHousing',
  salary_eval: 'CommunitySalary',
  usury_eval: 'CommunityUsury',
  work_avail_eval: 'CommunityWorkAvail',
  education_eval: 'CommunityEducation',
  transportation_eval: 'CommunityTransportation',
  health_eval: 'CommunityHealth',
  city_eval: 'CommunityCity',
};

export type AverageState = { _tag: 'NoCommunity' } | { _tag: 'Loading' } | { _tag: 'Ready' } | { _tag: 'Failed'; error: string };

const scoresOf = (r: EntityRecord): CommunityEvaluation =>
  Object.fromEntries(COMMUNITY_SCORE_FIELDS.map((f) => [f, typeof r[f] === 'number' ? r[f] : r[f] === null || r[f] === undefined || r[f] === '' ? null : Number(r[f])]));

/** The community's id of an evaluation: its communityid lookup. */
export const communityIdOf = (v: FieldValue | undefined): string | undefined => (v && typeof v === 'object' ? v.id : typeof v === 'string' && v !== '' ? v : undefined);

export type ChartSeries = {
  /** this evaluation's scores, empty as 0 (the core's communityChartValues) */
  current: number[];
  /** the community's average of each score, null where nobody rated it */
  average: Array<number | null>;
  /** how many evaluations the average counts (this one included) */
  count: number;
};

/** The two series of the chart: this evaluation as edited, and the average with the community's other evaluations. */
export const chartSeries = (current: EntityRecord, others: readonly EntityRecord[]): ChartSeries => {
  const mine = scoresOf(current);
  const avg = communityAverage([...others.map(scoresOf), mine]);
  return { current: communityChartValues(mine).map((v) => v.value), average: avg.map((a) => (a.value === null ? null : Math.round(a.value * 100) / 100)), count: others.length + 1 };
};

export const communityChartModel = ({ api }: { api: CommunityApi }) => {
  const state = signal<AverageState>({ _tag: 'NoCommunity' });
  /** the community's evaluations but this one, as stored */
  const others = signal<readonly EntityRecord[]>([]);
  let loading = 0;

  /** Reads the community's evaluations (the scores only), leaving out the one being edited. */
  const load = async (communityId: string | undefined, currentId: string | undefined): Promise<void> => {
    const mine = ++loading;
    if (!communityId) {
      others.value = [];
      state.value = { _tag: 'NoCommunity' };
      return;
    }
    state.value = { _tag: 'Loading' };
    const request: FetchRequest = {
      entity: {
        name: EVAL_ENTITY,
        attributes: [{ attribute: 'id' }, ...COMMUNITY_SCORE_FIELDS.map((attribute) => ({ attribute }))],
        filter: { type: 'and', conditions: [{ attribute: 'communityid', operator: 'eq', value: communityId }] },
      },
      page: 1,
      pageSize: MAX_EVALUATIONS,
    };
    try {
      const res = await api.fetch(request);
      if (mine !== loading) return;
      others.value = (res.records as EntityRecord[]).filter((r) => String(r.id) !== currentId);
      state.value = { _tag: 'Ready' };
    } catch (e) {
      if (mine === loading) state.value = { _tag: 'Failed', error: e instanceof Error ? e.message : String(e) };
    }
  };

  return { state, others, load };
};

export type CommunityChartModel = ReturnType<typeof communityChartModel>;
