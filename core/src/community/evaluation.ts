import * as E from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';

/** The eight scores of a community evaluation (fi_community_eval, spec 002 section 3). */
export const COMMUNITY_SCORE_FIELDS = [
  'housing_eval',
  'salary_eval',
  'usury_eval',
  'work_avail_eval',
  'education_eval',
  'transportation_eval',
  'health_eval',
  'city_eval',
] as const;
export type CommunityScoreField = (typeof COMMUNITY_SCORE_FIELDS)[number];

/** Each score is 0 to 5 (the chart's scale). */
export const COMMUNITY_SCORE_MIN = 0;
export const COMMUNITY_SCORE_MAX = 5;

export type CommunityEvaluation = Partial<Record<CommunityScoreField, number | null>> & Record<string, unknown>;

/** Checks the eight scores: each is empty (not rated yet) or a whole number from 0 to 5; every offending field is named. */
export const checkCommunityEvaluation = <R extends CommunityEvaluation>(record: R): E.Either<InputError, R> => {
  const bad = COMMUNITY_SCORE_FIELDS.filter((f) => {
    const v = record[f];
    return v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v) && v >= COMMUNITY_SCORE_MIN && v <= COMMUNITY_SCORE_MAX);
  });
  return bad.length === 0
    ? E.right(record)
    : E.left(inputError(`Each score must be a whole number from ${COMMUNITY_SCORE_MIN} to ${COMMUNITY_SCORE_MAX}: ${bad.join(', ')}`));
};

/** The chart series of an evaluation: the eight scores in order, empty ones as 0. */
export const communityChartValues = (record: CommunityEvaluation): Array<{ field: CommunityScoreField; value: number }> =>
  COMMUNITY_SCORE_FIELDS.map((field) => ({ field, value: typeof record[field] === 'number' ? (record[field] as number) : 0 }));

/** A score's average over a community's evaluations: empty scores are not rated and do not count. */
export type CommunityAverage = { field: CommunityScoreField; value: number | null; count: number };

const isScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The community's average of each of the eight scores over its evaluations (the chart's second
 * series): the mean of the rated values, `null` when no evaluation rated it.
 */
export const communityAverage = (evaluations: readonly CommunityEvaluation[]): CommunityAverage[] =>
  COMMUNITY_SCORE_FIELDS.map((field) => {
    const rated = evaluations.map((e) => e[field]).filter(isScore);
    return { field, value: rated.length === 0 ? null : rated.reduce((s, v) => s + v, 0) / rated.length, count: rated.length };
  });
