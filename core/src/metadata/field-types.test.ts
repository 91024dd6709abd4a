import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import { csvColumns } from '../export/export-columns.js';
import { csvHeaderLine, csvRecordLine } from '../export/csv-writer.js';
import { unescapeQuotedCell } from '../export/csv-cell.js';
import { RowReader } from '../import/import-rows.js';
import { coerceCell } from '../import/coerce.js';
import { systemCaller } from '../ports/record-store.js';
import { validateQuery } from '../query/validate-query.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import { storedValue } from '../store/record-rules.js';
import { schemaOf } from '../schema/schema-model.js';
import { PropertyType, type Entity, type EntityRecord, type FieldValue, type Property } from './entity.js';
import { FIELD_TYPES, isQuantity } from './field-types.js';
import { withSystemFields } from './system-fields.js';
import { INT_MAX, INT_MIN, roundToScale } from './field-values.js';

const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

import { FIELD_TYPE_SAMPLES as SAMPLE_FIELDS } from './field-type-samples.js';
const sample: Entity = must(
  withSystemFields({
    logicalName: 'sample',
    displayName: 'Sample',
    displayNamePlural: 'Samples',
    properties: SAMPLE_FIELDS,
  }),
);
const field = (name: string): Property => sample.properties.find((p) => p.logicalName === name) as Property;
const caller = systemCaller();

const newStore = () => {
  let n = 0;
  return new InMemoryRecordStore(
    (name) => (name === 'sample' ? sample : undefined),
    { now: () => new Date('2026-11-24T10:00:00Z') },
    {
      newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    },
  );
};

const uuid = fc.uuid().chain((u) => fc.constantFrom(u, u.toUpperCase()));
const anyText = fc.string({
  maxLength: 50,
  unit: fc.constantFrom('a', 'Ž', ' ', ';', '"', '\n', '\\', '=', "'", '-', '+', '@', '\t', '1', ',', '.'),
});
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(3e9, -3e9, INT_MAX, INT_MIN, INT_MAX + 1, 1e13, -1e13 + 0.5, 0.1 + 0.2, 922337203685477, 1e300),
);

/** Wire values that a client might send for a field: most are valid, some are not (the write path decides). */
const wireValueOf = (p: Property): fc.Arbitrary<FieldValue> => {
  switch (p.logicalName) {
    case 'text':
      return fc.oneof(anyText, fc.integer());
    case 'seen':
    case 'due':
      return fc.oneof(
        fc
          .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constantFrom('2026-02-29', '2024-02-29', '2026-11-24T10:30:00+01:00', 'tomorrow'),
      );
    case 'ref':
      return fc.oneof(uuid, fc.constant('not-a-uuid'));
    case 'parentid':
      return fc.oneof(
        uuid,
        uuid.map((id) => ({ id, name: 'sample' })),
        uuid.map((id) => ({ id, name: 'other' })),
      );
    case 'active':
      return fc.constantFrom(true, false, 1, 0, 'true', 'false', '1', '0', 'yes', 2);
    case 'blob':
      return fc.base64String({ maxLength: 40 });
    case 'kind':
      return fc.constantFrom(1, 2, '1');
    case 'tags':
      return fc.constantFrom(0, 1, 8, 9);
    default:
      return fc.oneof(anyNumber, anyNumber.map(String));
  }
};

/** A tiny reader of the lines csvRecordLine writes (no raw newline in them: quoted cells escape it). */
const csvLineCells = (line: string): string[] => {
  const cells: string[] = [];
  let i = 0;
  const text = line.replace(/\r\n$/, '');
  for (;;) {
    if (text[i] === '"') {
      let j = i + 1;
      let cell = '';
      for (;;) {
        if (text[j] === '"' && text[j + 1] === '"') {
          cell += '"';
          j += 2;
        } else if (text[j] === '"') break;
        else cell += text[j++];
      }
      cells.push(unescapeQuotedCell(cell));
      i = j + 1;
    } else {
      const end = text.indexOf(';', i);
      cells.push(text.slice(i, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
    }
    if (i >= text.length) break;
    i += 1; // the separator
    if (i === text.length) {
      cells.push('');
      break;
    }
  }
  return cells;
};

describe('the field-type registry (issue 12 point 3)', () => {
  it('has one entry per property type, and the schema column of each type is its entry', () => {
    expect(Object.keys(FIELD_TYPES).sort()).toEqual(Object.keys(PropertyType.keys).sort());
    const schema = must(schemaOf([sample]));
    for (const p of sample.properties.filter((x) => x.logicalName !== 'id')) {
      expect(schema.tables[0].columns.find((c) => c.name === p.logicalName)?.kind).toBe(FIELD_TYPES[p.type].column);
    }
  });

  it('quantities are the numeric types that are not option sets (totals sum them, PDF aligns them right)', () => {
    expect(sample.properties.filter(isQuantity).map((p) => p.logicalName)).toEqual(['qty', 'ratio', 'weight', 'price']);
  });

  it('an Integer is a SQL int: 3e9 is refused on /api/update with ERR_INPUT, as import refuses it (was accepted)', async () => {
    const store = newStore();
    const id = must(await store.create(caller, 'sample', { qty: 1 }));
    expect(await store.update(caller, 'sample', { id, qty: 3e9 })).toEqual({
      _tag: 'Left',
      left: { _tag: 'InputError', code: 'ERR_INPUT', message: 'Invalid value for sample.qty: 3000000000' },
    });
    expect(isLeft(await store.create(caller, 'sample', { qty: INT_MIN - 1 }))).toBe(true);
    expect(isRight(await store.update(caller, 'sample', { id, qty: INT_MAX }))).toBe(true);
    expect(coerceCell(field('qty'), '3000000000')).toEqual({ tag: 'error', message: "'3000000000' is out of range" });
  });

  it("booleans: true/false/1/0 and '1'/'0' mean the same in a write and in a query condition (writes refused '1'/'0')", async () => {
    const store = newStore();
    const a = must(await store.create(caller, 'sample', { active: '1' }));
    const b = must(await store.create(caller, 'sample', { active: '0' }));
    expect((must(await store.retrieveById(caller, 'sample', a)) as EntityRecord).active).toBe(true);
    expect((must(await store.retrieveById(caller, 'sample', b)) as EntityRecord).active).toBe(false);
    const lookup = (n: string) => (n === 'sample' ? sample : undefined);
    for (const [given, meant] of [
      ['1', true],
      ['0', false],
      [1, true],
      [0, false],
      ['true', true],
      ['false', false],
      [true, true],
    ] as const) {
      const plan = must(
        validateQuery(
          {
            entity: { name: 'sample', filter: { conditions: [{ attribute: 'active', operator: 'eq', value: given }] } },
          },
          lookup,
        ),
      );
      expect(plan.filter?.conditions[0]).toMatchObject({ kind: 'compare', value: meant });
      expect(storedValue(sample, field('active'), given)).toEqual({ _tag: 'Right', right: meant });
    }
    for (const bad of ['yes', 2, 'TRUE']) expect(isLeft(storedValue(sample, field('active'), bad))).toBe(true);
  });

  it('Decimal and Money keep the scale of decimal(23,10) and money (4 digits), and refuse what the column cannot hold', () => {
    expect(storedValue(sample, field('ratio'), 0.1 + 0.2)).toEqual({ _tag: 'Right', right: 0.3 });
    expect(storedValue(sample, field('price'), 12.34567)).toEqual({ _tag: 'Right', right: 12.3457 });
    expect(storedValue(sample, field('price'), '1234.5')).toEqual({ _tag: 'Right', right: 1234.5 });
    expect(isLeft(storedValue(sample, field('ratio'), 1e13))).toBe(true);
    expect(isLeft(storedValue(sample, field('price'), 1e15))).toBe(true);
    expect(coerceCell(field('ratio'), '1e13')).toEqual({ tag: 'error', message: "'1e13' is out of range" });
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.constantFrom(4, 10), (n, scale) => {
        const once = roundToScale(n, scale);
        expect(roundToScale(once, scale)).toBe(once);
        expect(Math.abs(once - n)).toBeLessThanOrEqual(10 ** -scale / 2 + Math.abs(n) * Number.EPSILON);
      }),
    );
  });

  it('a date outside the years 1 to 9999 is refused by writes as by import', () => {
    expect(isLeft(storedValue(sample, field('seen'), '+010000-01-01T00:00:00.000Z'))).toBe(true);
    expect(storedValue(sample, field('seen'), '2026-11-24T10:30:00+01:00')).toEqual({
      _tag: 'Right',
      right: '2026-11-24T09:30:00.000Z',
    });
  });

  it('property: for every type, a value the write path accepts round-trips through store, fetch, CSV export and import unchanged', async () => {
    const transferable = sample.properties.filter(
      (p) =>
        FIELD_TYPES[p.type].transferable &&
        !['id', 'createdon', 'createdby', 'modifiedon', 'modifiedby', 'ownerid'].includes(p.logicalName),
    );
    const rest = SAMPLE_FIELDS.filter((p) => p.type === 'Binary');
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(SAMPLE_FIELDS.map((p) => [p.logicalName, wireValueOf(p)]))),
        fc.constantFrom('.' as const, ',' as const),
        async (values, decimalSeparator) => {
          const store = newStore();
          // Each value alone: the write path accepts it or refuses it with ERR_INPUT.
          const accepted: EntityRecord = {};
          for (const [k, v] of Object.entries(values)) if (isRight(storedValue(sample, field(k), v))) accepted[k] = v;
          const id = must(await store.create(caller, 'sample', accepted));
          const fetched = must(await store.retrieveById(caller, 'sample', id));
          // Fetched again after writing the fetched record back: the stored form is a fixed point.
          must(await store.update(caller, 'sample', { ...fetched }));
          const again = must(await store.retrieveById(caller, 'sample', id));
          for (const p of [...transferable, ...rest]) expect(again[p.logicalName]).toEqual(fetched[p.logicalName]);

          const columns = csvColumns(transferable);
          const o = { decimalSeparator, neutralizeFormulas: true, csvHeader: false };
          const reader = new RowReader(sample);
          reader.read({ type: 'header', line: 1, cells: csvLineCells(csvHeaderLine(columns)) });
          const row = reader.read({ type: 'cells', line: 2, cells: csvLineCells(csvRecordLine(columns, fetched, o)) });
          expect(row?.errors).toEqual([]);
          expect(row?.notes).toEqual([]);
          must(await store.update(caller, 'sample', { id, ...row?.values }));
          const imported = must(await store.retrieveById(caller, 'sample', id));
          for (const p of transferable)
            expect([p.logicalName, imported[p.logicalName]]).toEqual([p.logicalName, fetched[p.logicalName]]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
