import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import {
  auditEntity,
  FIELD_TYPES,
  FIELD_TYPE_SAMPLES,
  InMemoryRecordStore,
  migrateSchema,
  resolveExportOptions,
  runImport,
  storedValue,
  systemCaller,
  withSystemFields,
  type Entity,
  type EntityRecord,
  type FieldValue,
  type Property,
  type RecordStore,
} from '@tessera/core/internal';
import {
  KyselyRecordStore,
  KyselySchemaStore,
  openSqlite,
  sqliteDdl,
  sqliteKysely,
  SqliteRunner,
} from '@tessera/adapters-sql';
import { importBytesSource, writeExport } from '@tessera/adapters-graph';
import { sequentialIds, steppingClock } from './record-store-fixture.js';

/**
 * Issue 12 point 3: one field-type registry, and the rule that holds it together. For every
 * property type, a value the write path accepts round-trips through the store, a fetch, a CSV
 * export and an import unchanged, on every RecordStore (the in-memory store and SQLite, whose
 * columns hold booleans as 0/1, dates as text and bytes as blobs).
 */
const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const FIELDS = FIELD_TYPE_SAMPLES;
const withFields = (e: Entity): Entity => must(withSystemFields(e));
const sample = withFields({
  logicalName: 'sample',
  displayName: 'Sample',
  displayNamePlural: 'Samples',
  properties: FIELDS,
});
const ENTITIES: Entity[] = [
  sample,
  withFields({ logicalName: 'systemuser', displayName: 'User', displayNamePlural: 'Users', properties: [] }),
  withFields({ logicalName: 'team', displayName: 'Team', displayNamePlural: 'Teams', properties: [] }),
  auditEntity,
];
const lookup = (name: string) => ENTITIES.find((e) => e.logicalName === name);
const field = (name: string): Property => sample.properties.find((p) => p.logicalName === name) as Property;
const caller = systemCaller();

/** Fields the server sets on every write: they differ between two stores by design. */
const SERVER_SET = new Set(['createdon', 'createdby', 'modifiedon', 'modifiedby', 'ownerid', 'versionnumber']);
const compared = sample.properties.filter((p) => FIELD_TYPES[p.type].transferable && !SERVER_SET.has(p.logicalName));

type Store = { store: RecordStore; close: () => void };
const STORES: Array<{ name: string; make: () => Promise<Store> }> = [
  {
    name: 'InMemoryRecordStore',
    make: async () => ({ store: new InMemoryRecordStore(lookup, steppingClock(), sequentialIds()), close: () => {} }),
  },
  {
    name: 'KyselyRecordStore on SQLite',
    make: async () => {
      const raw = openSqlite(':memory:');
      must(await migrateSchema(new KyselySchemaStore(sqliteKysely(raw), sqliteDdl, steppingClock()), ENTITIES));
      return {
        store: new KyselyRecordStore(new SqliteRunner(raw), lookup, steppingClock(), sequentialIds()),
        close: () => raw.close(),
      };
    },
  },
];

const uuid = fc.uuid().chain((u) => fc.constantFrom(u, u.toUpperCase()));
const anyText = fc.string({
  maxLength: 50,
  unit: fc.constantFrom('a', 'Ž', ' ', ';', '"', '\n', '\r', '\\', '=', "'", '-', '+', '@', '\t', '1', ',', '.'),
});
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(3e9, -3e9, 2147483647, -2147483648, 2147483648, 1e13, 0.1 + 0.2, 922337203685477, 12.34567),
);
/** Wire values a client might send: most are valid, some are not (the write path decides). */
const wireValue = (p: Property): fc.Arbitrary<FieldValue> => {
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

const exportCsv = async (store: RecordStore, decimalSeparator: '.' | ','): Promise<Buffer> => {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  must(
    await writeExport(
      store,
      caller,
      sample,
      { entity: { name: 'sample', allattrs: true } },
      resolveExportOptions({ format: 'csv', decimalSeparator }),
      new Date(),
      out,
    ),
  );
  return Buffer.concat(parts);
};
const fetchAll = async (store: RecordStore): Promise<Array<Record<string, unknown>>> =>
  must(
    await store.retrieveMultiple(caller, { entity: { name: 'sample', allattrs: true, orders: [{ attribute: 'id' }] } }),
  ).records;

describe.each(STORES)('field types on $name (issue 12 point 3)', ({ make }) => {
  it('property: for every type, a value the write path accepts round-trips through store, fetch, CSV export and import unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(FIELDS.map((p) => [p.logicalName, wireValue(p)]))),
        fc.constantFrom('.' as const, ',' as const),
        async (values, decimalSeparator) => {
          const source = await make();
          const target = await make();
          try {
            // The store refuses exactly what the core's write path refuses, with ERR_INPUT.
            const refused = Object.entries(values).filter(([k, v]) => isLeft(storedValue(sample, field(k), v)));
            const all = await source.store.create(caller, 'sample', values as EntityRecord);
            expect(isLeft(all) && all.left._tag).toBe(refused.length > 0 ? 'InputError' : false);
            const accepted = Object.fromEntries(
              Object.entries(values).filter(([k]) => !refused.some(([r]) => r === k)),
            );
            must(await source.store.create(caller, 'sample', accepted as EntityRecord));
            const before = await fetchAll(source.store);

            const outcome = await runImport(
              target.store,
              { entity: sample, caller, mode: 'create' },
              importBytesSource(await exportCsv(source.store, decimalSeparator), 'csv'),
            );
            expect(outcome.errorLines).toEqual([]);
            expect(outcome.notes).toEqual([]);
            const after = await fetchAll(target.store);
            expect(after).toHaveLength(before.length);
            for (let i = 0; i < before.length; i++)
              for (const p of compared)
                expect([p.logicalName, after[i][p.logicalName]]).toEqual([p.logicalName, before[i][p.logicalName]]);
          } finally {
            source.close();
            target.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an Integer is a SQL int: 3e9 on update is ERR_INPUT "Invalid value for sample.qty: 3000000000" (was stored)', async () => {
    const { store, close } = await make();
    try {
      const id = must(await store.create(caller, 'sample', { qty: 1 }));
      expect(await store.update(caller, 'sample', { id, qty: 3e9 })).toEqual({
        _tag: 'Left',
        left: { _tag: 'InputError', code: 'ERR_INPUT', message: 'Invalid value for sample.qty: 3000000000' },
      });
      expect((must(await store.retrieveById(caller, 'sample', id)) as EntityRecord).qty).toBe(1);
    } finally {
      close();
    }
  });

  it("booleans '1'/'0' mean true/false in a write as in a query condition (writes refused them)", async () => {
    const { store, close } = await make();
    try {
      const on = must(await store.create(caller, 'sample', { text: 'on', active: '1' }));
      const off = must(await store.create(caller, 'sample', { text: 'off', active: '0' }));
      const ids = async (value: string | number | boolean) =>
        must(
          await store.retrieveMultiple(caller, {
            entity: {
              name: 'sample',
              attributes: [{ attribute: 'id' }],
              filter: { conditions: [{ attribute: 'active', operator: 'eq', value }] },
            },
          }),
        ).records.map((r) => r.id);
      for (const v of ['1', 1, true, 'true']) expect(await ids(v)).toEqual([on]);
      for (const v of ['0', 0, false, 'false']) expect(await ids(v)).toEqual([off]);
    } finally {
      close();
    }
  });
});
