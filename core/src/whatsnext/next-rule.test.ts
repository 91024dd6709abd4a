import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { combineFollowUps, isDue, nextRuleOf, parseStatusValues, type FollowUp } from './next-rule.js';
import { ruleAgeThreshold } from './reference-date.js';

describe('spec 002 section 8: an inu_nextrule record read as a rule', () => {
  it('reads related as entity.field, the ages in whole days, statusfield defaulting to statuscode, description as the info text', () => {
    const r = nextRuleOf({ id: 'r1', name: 'Quiet leads', objectname: 'lead', related: 'activity.objectid', relatedmaxage: 7, nullrelatedmaxage: 3.9, statusvalues: '1; 2;', description: 'Call', can_create: true });
    expect(isRight(r) && r.right).toEqual({
      id: 'r1',
      name: 'Quiet leads',
      objectName: 'lead',
      related: { entity: 'activity', field: 'objectid' },
      relatedMaxAge: 7,
      nullRelatedMaxAge: 3,
      statusField: 'statuscode',
      statusValues: ['1', '2'],
      script: null,
      canCreate: true,
      info: 'Call',
    });
  });

  it('a rule without objectname or with a related that is not entity.field is refused, named', () => {
    const a = nextRuleOf({ id: 'r', name: 'X' });
    expect(isLeft(a) && a.left).toBe('Rule X: no objectname');
    const b = nextRuleOf({ id: 'r', name: 'Y', objectname: 'lead', related: 'activity' });
    expect(isLeft(b) && b.left).toBe('Rule Y: related "activity" is not entity.field');
  });

  it('statusvalues are semicolon-separated; empty parts are dropped', () => {
    expect(parseStatusValues(' 1;;2 ; ')).toEqual(['1', '2']);
    expect(parseStatusValues(null)).toEqual([]);
  });
});

describe("What's Next: when a record is due", () => {
  const t = (iso: string) => new Date(iso);
  const th = { related: t('2026-11-17T10:00:00Z'), nullRelated: t('2026-11-20T10:00:00Z') };

  it('older is strictly earlier: the boundary instant itself is not due', () => {
    expect(isDue(th, null, '2026-11-17T10:00:00.000Z')).toBe(false);
    expect(isDue(th, null, '2026-11-17T09:59:59.999Z')).toBe(true);
    expect(isDue(th, '2026-11-20T10:00:00.000Z', null)).toBe(false);
    expect(isDue(th, '2026-11-20T09:59:59.999Z', null)).toBe(true);
  });

  it('a record with related records is judged by them only; an unset age never lists', () => {
    expect(isDue(th, '2020-01-01T00:00:00Z', '2026-11-23T00:00:00Z')).toBe(false);
    expect(isDue({ related: null, nullRelated: th.nullRelated }, '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z')).toBe(false);
    expect(isDue({ related: th.related, nullRelated: null }, '2020-01-01T00:00:00Z', null)).toBe(false);
  });

  it('property: a longer max age never makes a record due that was not', () => {
    const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }).map((ms) => new Date(ms));
    fc.assert(
      fc.property(instant, instant, fc.option(instant, { nil: null }), fc.nat(400), fc.nat(400), fc.constantFrom('UTC', 'Europe/Bratislava'), (ref, created, newest, n, more, tz) => {
        const at = (days: number) => ({ related: ruleAgeThreshold(ref, days, tz), nullRelated: ruleAgeThreshold(ref, days, tz) });
        const c = created.toISOString();
        const r = newest === null ? null : newest.toISOString();
        if (isDue(at(n + more), c, r)) expect(isDue(at(n), c, r)).toBe(true);
      }),
    );
  });
});

describe("What's Next: rules combined", () => {
  const f = (id: string, createdon: string | null, rule: string, objectName = 'lead'): FollowUp => ({ id, objectName, name: id, createdon, info: rule, rule });

  it('a record listed by two rules appears once, with the first rule; virtual records (id 0) are all kept', () => {
    const out = combineFollowUps([
      [f('a', '2026-01-02T00:00:00Z', 'r1'), f('0', null, 'r1')],
      [f('A', '2026-01-02T00:00:00Z', 'r2'), f('b', '2026-01-03T00:00:00Z', 'r2'), f('0', null, 'r2')],
    ]);
    expect(out.map((x) => [x.id, x.rule])).toEqual([['b', 'r2'], ['a', 'r1'], ['0', 'r1'], ['0', 'r2']]);
  });

  it('the same id in two entities is two records', () => {
    expect(combineFollowUps([[f('a', null, 'r1', 'lead')], [f('a', null, 'r2', 'account')]])).toHaveLength(2);
  });
});
