import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metadataArb, metadataPairArb } from './metadata-arbitrary.test.js';
import { applyPlan, applyStep, diffSchema, type MigrationStep } from './migration-plan.js';
import { canonicalSchema, emptySchema } from './schema-model.js';
import { entity, schema } from '../../../tests/src/fixtures/metadata-builders.js';

const kinds = (plan: readonly MigrationStep[]) => plan.map((s) => s.kind);
const RANK: Record<MigrationStep['kind'], number> = {
  dropIndex: 0,
  dropColumn: 1,
  dropTable: 2,
  createTable: 3,
  addColumn: 4,
  alterStringLength: 5,
  createIndex: 6,
};

describe('diffSchema: the migration plan (spec 000 section 3)', () => {
  it('the diff of a schema with itself is empty', () => {
    fc.assert(
      fc.property(metadataArb, (m) => {
        expect(diffSchema(schema(m), schema(m))).toEqual([]);
      }),
    );
  });

  it('applying diff(a, b) to a gives b', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        const applied = applyPlan(schema(a), diffSchema(schema(a), schema(b)));
        expect(applied._tag).toBe('Right');
        if (applied._tag === 'Right') expect(canonicalSchema(applied.right)).toEqual(canonicalSchema(schema(b)));
      }),
    );
  });

  it('the plan order is always executable: every step runs on the schema the steps before it leave', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        let current = schema(a);
        for (const step of diffSchema(current, schema(b))) {
          const next = applyStep(current, step);
          expect(next).toMatchObject({ _tag: 'Right' });
          if (next._tag === 'Right') current = next.right;
        }
      }),
    );
  });

  it('orders steps: drop indexes, drop columns, drop tables, create tables, add columns, alter lengths, create indexes', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        const ranks = diffSchema(schema(a), schema(b)).map((s) => RANK[s.kind]);
        expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
      }),
    );
  });

  it('flags exactly the steps that can lose data: drops and shortened strings', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        for (const s of diffSchema(schema(a), schema(b))) {
          const lossy =
            s.kind === 'dropColumn' ||
            s.kind === 'dropTable' ||
            (s.kind === 'alterStringLength' && s.to !== null && (s.from === null || s.to < s.from));
          expect(s.dataLoss).toBe(lossy);
        }
      }),
    );
  });

  it('a plan that only adds entities and fields loses no data', () => {
    const a = [entity('account', [{ logicalName: 'revenue', displayName: 'r', type: 'Money' }])];
    const b = [
      entity('account', [
        { logicalName: 'revenue', displayName: 'r', type: 'Money' },
        { logicalName: 'ownerid', displayName: 'o', type: 'Lookup', targets: ['systemuser'] },
      ]),
      entity('contact', []),
    ];
    const plan = diffSchema(schema(a), schema(b));
    expect(plan.some((s) => s.dataLoss)).toBe(false);
    expect(kinds(plan)).toEqual(['createTable', 'addColumn', 'addColumn', 'createIndex', 'createIndex', 'createIndex', 'createIndex', 'createIndex']);
  });

  it('creates every table and index from nothing, and drops every table to nothing', () => {
    const m = [entity('account', []), entity('contact', [])];
    expect(kinds(diffSchema(emptySchema, schema(m))).filter((k) => k === 'createTable')).toHaveLength(2);
    expect(diffSchema(schema(m), emptySchema)).toEqual([
      { kind: 'dropTable', table: 'account', dataLoss: true },
      { kind: 'dropTable', table: 'contact', dataLoss: true },
    ]);
  });

  it('alters a changed string length, dropping and re-creating the index on it around the change', () => {
    const a = [entity('a', [{ logicalName: 'ownerid', displayName: 'o', type: 'String', max: 100 }])];
    const b = [entity('a', [{ logicalName: 'ownerid', displayName: 'o', type: 'String', max: 50 }])];
    expect(diffSchema(schema(a), schema(b))).toEqual([
      { kind: 'dropIndex', table: 'a', index: 'IX_a_ownerid', dataLoss: false },
      { kind: 'alterStringLength', table: 'a', column: 'ownerid', from: 100, to: 50, dataLoss: true },
      { kind: 'createIndex', table: 'a', index: { name: 'IX_a_ownerid', columns: ['ownerid'], unique: false }, dataLoss: false },
    ]);
  });

  it('a longer string loses nothing', () => {
    const a = [entity('a', [{ logicalName: 'title', displayName: 't', type: 'String', max: 50 }])];
    const b = [entity('a', [{ logicalName: 'title', displayName: 't', type: 'String' }])];
    expect(diffSchema(schema(a), schema(b))).toEqual([
      { kind: 'alterStringLength', table: 'a', column: 'title', from: 50, to: null, dataLoss: false },
    ]);
  });

  it('a changed type is a drop (lossy) and an add of the column', () => {
    const a = [entity('a', [{ logicalName: 'score', displayName: 's', type: 'Integer' }])];
    const b = [entity('a', [{ logicalName: 'score', displayName: 's', type: 'Float' }])];
    expect(kinds(diffSchema(schema(a), schema(b)))).toEqual(['dropColumn', 'addColumn']);
  });

  it('a changed primary key name drops the table and creates it again', () => {
    const a = [entity('a', [])];
    const b = [entity('a', [], { primaryKeyName: 'aid' })];
    expect(kinds(diffSchema(schema(a), schema(b))).slice(0, 2)).toEqual(['dropTable', 'createTable']);
  });

  it('a change of only the case of a name changes nothing', () => {
    expect(diffSchema(schema([entity('Account', [])]), schema([entity('account', [])]))).toEqual([]);
  });

  it('the model refuses what a database would refuse: dropping an indexed column', () => {
    const s = schema([entity('a', [{ logicalName: 'ownerid', displayName: 'o', type: 'Lookup' }])]);
    expect(applyStep(s, { kind: 'dropColumn', table: 'a', column: 'ownerid', dataLoss: true })).toEqual({
      _tag: 'Left',
      left: 'drop column a.ownerid: index IX_a_ownerid still holds it',
    });
  });
});
