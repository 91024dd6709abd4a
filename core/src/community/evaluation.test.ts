import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { checkCommunityEvaluation, COMMUNITY_SCORE_FIELDS, communityAverage, communityChartValues } from './evaluation.js';

describe('community evaluation: eight scores, each 0 to 5 (spec 002 section 3)', () => {
  it('has the eight score fields', () => {
    expect(COMMUNITY_SCORE_FIELDS).toEqual([
      'housing_eval',
      'salary_eval',
      'usury_eval',
      'work_avail_eval',
      'education_eval',
      'transportation_eval',
      'health_eval',
      'city_eval',
    ]);
  });

  it('accepts 0 to 5 and empty scores, and names every score out of range', () => {
    expect(E.isRight(checkCommunityEvaluation({ housing_eval: 0, city_eval: 5, salary_eval: null }))).toBe(true);
    const r = checkCommunityEvaluation({ housing_eval: 6, city_eval: -1, health_eval: 2.5 });
    expect(E.isLeft(r) && r.left.message).toBe('Each score must be a whole number from 0 to 5: housing_eval, health_eval, city_eval');
  });

  it('the chart shows the eight scores in order, empty as 0', () => {
    expect(communityChartValues({ salary_eval: 4 }).map((v) => v.value)).toEqual([0, 4, 0, 0, 0, 0, 0, 0]);
  });

  it('property: a record passes exactly when every score is empty or a whole number 0 to 5', () => {
    const score = fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 8 }), fc.double({ min: 0, max: 5, noNaN: true }));
    fc.assert(
      fc.property(fc.array(score, { minLength: 8, maxLength: 8 }), (scores) => {
        const record = Object.fromEntries(COMMUNITY_SCORE_FIELDS.map((f, i) => [f, scores[i]]));
        const valid = scores.every((s) => s === null || (Number.isInteger(s) && s >= 0 && s <= 5));
        expect(E.isRight(checkCommunityEvaluation(record))).toBe(valid);
      }),
    );
  });
});

describe("community evaluation: the community's average over its evaluations (issue 19)", () => {
  it('averages each score over the evaluations that rated it; none rated is empty', () => {
    const avg = communityAverage([
      { housing_eval: 2, salary_eval: 5 },
      { housing_eval: 3, salary_eval: null },
    ]);
    expect(avg[0]).toEqual({ field: 'housing_eval', value: 2.5, count: 2 });
    expect(avg[1]).toEqual({ field: 'salary_eval', value: 5, count: 1 });
    expect(avg[2]).toEqual({ field: 'usury_eval', value: null, count: 0 });
  });

  it('property: each average lies between the lowest and highest rating, whatever the order', () => {
    const rating = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 5 }));
    const evaluation = fc.array(rating, { minLength: 8, maxLength: 8 }).map((s) => Object.fromEntries(COMMUNITY_SCORE_FIELDS.map((f, i) => [f, s[i]])));
    fc.assert(
      fc.property(fc.array(evaluation, { maxLength: 12 }), (evals) => {
        const avg = communityAverage(evals);
        avg.forEach((a) => {
          const rated = evals.map((e) => e[a.field]).filter((v): v is number => typeof v === 'number');
          expect(a.count).toBe(rated.length);
          if (rated.length === 0) expect(a.value).toBeNull();
          else {
            expect(a.value!).toBeGreaterThanOrEqual(Math.min(...rated));
            expect(a.value!).toBeLessThanOrEqual(Math.max(...rated));
          }
        });
        expect(communityAverage([...evals].reverse()).map((a) => a.count)).toEqual(avg.map((a) => a.count));
      }),
    );
  });
});
