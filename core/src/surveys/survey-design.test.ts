import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity } from '../metadata/entity.js';
import { builtInPacks } from '../packs/packs.js';
import { surveyFields } from '../services/complete-survey.js';
import { moveSurveyField, newSurveyField, readSurveyDesign, surveyableProperties, surveyExpired, surveyMeta, surveyPath, type SurveyDesign } from './survey-design.js';

const entities: Entity[] = builtInPacks().flatMap((p) => p.entities);
const lead = entities.find((e) => e.logicalName === 'lead') as Entity;

describe('issue 20: the survey designer builds its fields from the target entity (object_name)', () => {
  it('offers the values a visitor can give: no lookups, ids, server-written or auto-numbered fields', () => {
    const names = surveyableProperties(lead).map((p) => p.logicalName);
    expect(names).toEqual(expect.arrayContaining(['name', 'companyname', 'emailaddress1', 'status', 'description']));
    for (const hidden of ['id', 'ownerid', 'teamid', 'currencyid', 'createdon', 'modifiedby', 'versionnumber', 'statecode']) expect(names).not.toContain(hidden);
  });

  it('a new field is Required when the entity requires it, else Normal; its width is Normal', () => {
    const byName = (n: string) => surveyableProperties(lead).find((p) => p.logicalName === n)!;
    expect(newSurveyField(byName('name'))).toEqual({ name: 'name', required: 'Required', width: 'Normal' });
    expect(newSurveyField(byName('companyname'))).toEqual({ name: 'companyname', required: 'Normal', width: 'Normal' });
  });

  it("spec 002: each survey field is Normal or Required and Normal or Wide; the meta keeps the survey's order and the property's presentation", () => {
    const design: SurveyDesign = {
      fields: [
        { name: 'emailaddress1', required: 'Required', width: 'Wide' },
        { name: 'name', required: 'Normal', width: 'Normal' },
      ],
      review: true,
    };
    const meta = surveyMeta(design, lead);
    expect(meta.review).toBe(true);
    expect(meta.properties.map((p) => [p.name, p.required, p.width])).toEqual([
      ['emailaddress1', 'Required', 'Wide'],
      ['name', 'Normal', 'Normal'],
    ]);
    expect(meta.properties[0]).toMatchObject({ logicalName: 'emailaddress1', displayName: expect.any(String), type: 'String', flags: ['Email', 'Required'], max: 200 });
    // The page shows the survey's Required, not the entity's: Normal drops the flag.
    expect(meta.properties[1]?.flags ?? []).not.toContain('Required');
    // The public submission reads the same meta: required true for Required, false for Normal.
    expect(surveyFields(meta)).toEqual([
      { name: 'emailaddress1', required: true },
      { name: 'name', required: false },
    ]);
  });

  it('a stored meta reads back as its design (names, old true/false flags); unknown and repeated fields are dropped', () => {
    expect(readSurveyDesign({ properties: ['name', { name: 'companyname', required: true }, { logicalName: 'ownerid' }, 'nosuch', 'name'] }, lead)).toEqual({
      fields: [
        { name: 'name', required: 'Required', width: 'Normal' },
        { name: 'companyname', required: 'Required', width: 'Normal' },
      ],
      review: false,
    });
    expect(readSurveyDesign(null, lead)).toEqual({ fields: [], review: false });
  });

  it('property: readSurveyDesign(surveyMeta(design)) is the design', () => {
    const names = surveyableProperties(lead).map((p) => p.logicalName);
    const field = fc.record({ name: fc.constantFrom(...names), required: fc.constantFrom('Normal' as const, 'Required' as const), width: fc.constantFrom('Normal' as const, 'Wide' as const) });
    fc.assert(
      fc.property(fc.uniqueArray(field, { selector: (f) => f.name, maxLength: names.length }), fc.boolean(), (fields, review) => {
        const design = { fields, review };
        expect(readSurveyDesign(JSON.parse(JSON.stringify(surveyMeta(design, lead))), lead)).toEqual(design);
      }),
    );
  });

  it('property: ordering by drag (moveSurveyField) keeps every field once and puts the moved one at its place', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 20 }), fc.nat(), fc.nat(), (xs, a, b) => {
        const from = a % xs.length;
        const to = b % xs.length;
        const moved = moveSurveyField(xs, from, to);
        expect([...moved].sort()).toEqual([...xs].sort());
        expect(moved[to]).toBe(xs[from]);
        expect(moveSurveyField(moved, to, from)).toEqual(xs);
      }),
    );
  });

  it('spec 000: the public page of a key is /ansu/{orgname}/{key}; past expireson the survey is expired', () => {
    expect(surveyPath('acme', 'open-lead-form')).toBe('/ansu/acme/open-lead-form');
    const now = new Date('2026-11-24T10:00:00Z');
    expect(surveyExpired('2026-11-24T10:00:00Z', now)).toBe(true);
    expect(surveyExpired('2026-11-24T10:00:01Z', now)).toBe(false);
    expect(surveyExpired(null, now)).toBe(false);
  });
});
