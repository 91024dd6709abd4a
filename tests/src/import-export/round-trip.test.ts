import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { importBytesSource, writeExport } from '@tessera/adapters-graph';
import { resolveExportOptions, runImport, type EntityRecord, type ExportFormat, type InMemoryRecordStore } from '@tessera/core/internal';
import { caller, contact, memoryStore, must } from './fixtures.js';

const FIELDS = ['id', 'name', 'city', 'notes', 'age', 'salary', 'score', 'vip', 'birthday', 'lastcall', 'kind', 'managerid'];

const text = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .filter((s) => !s.includes('\uFFFD'))
  .map((s) => (s === '' ? null : s));
/** Texts built from the characters the CSV rules care about. */
const tricky = fc
  .array(fc.constantFrom('a', 'Ž', ';', '"', '\n', '\r', '\\', 'n', '=', '+', '-', '@', '\t', "'", ' ', ','), { maxLength: 12 })
  .map((cs) => (cs.length === 0 ? null : cs.join('')));
const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true });

const records = fc.uniqueArray(fc.nat({ max: 0xffffff }), { minLength: 1, maxLength: 15 }).chain((keys) =>
  fc.tuple(
    ...keys.map((k, i) =>
      fc.record({
        id: fc.constant(`00000000-0000-4000-8000-${k.toString(16).padStart(12, '0')}`),
        name: fc.oneof(text, tricky).map((s) => s ?? `n${i}`),
        city: fc.oneof(text, tricky),
        notes: fc.oneof(text, tricky),
        age: fc.option(fc.integer({ min: -2147483648, max: 2147483647 })),
        salary: fc.option(fc.integer({ min: -1e12, max: 1e12 }).map((c) => c / 100)),
        score: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d))),
        vip: fc.option(fc.boolean()),
        birthday: fc.option(day.map((d) => d.toISOString().slice(0, 10))),
        lastcall: fc.option(day.map((d) => d.toISOString())),
        kind: fc.option(fc.constantFrom(1, 2)),
        managerid: i === 0 ? fc.constant(null) : fc.option(fc.constant({ id: `00000000-0000-4000-8000-${keys[0].toString(16).padStart(12, '0')}`, name: 'contact' })),
      }),
    ),
  ),
);

const exportBytes = async (store: InMemoryRecordStore, format: ExportFormat, decimalSeparator: '.' | ',', csvHeader: boolean): Promise<Buffer> => {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const options = resolveExportOptions({ format, decimalSeparator, csvHeader });
  must(await writeExport(store, caller, contact, { entity: { name: 'contact', allattrs: true } }, options, new Date(), out));
  return Buffer.concat(parts);
};

const comparable = (records: ReadonlyArray<Record<string, unknown>>): EntityRecord[] =>
  [...records]
    .sort((a, b) => String(a.id).localeCompare(String(b.id)))
    .map((r) =>
      Object.fromEntries(
        FIELDS.map((f) => {
          const v = r[f];
          return [f, v !== null && typeof v === 'object' ? (v as { id: string }).id : v === undefined || v === '' ? null : v];
        }),
      ) as EntityRecord,
    );

describe('issue 7 section 2: export then import gives back the same records (fast-check)', () => {
  for (const format of ['csv', 'json'] as const) {
    it(`${format}: any set of records survives the round trip`, async () => {
      await fc.assert(
        fc.asyncProperty(records, fc.constantFrom('.', ',' as const), fc.boolean(), async (recs, sep, csvHeader) => {
          const source = memoryStore();
          must(await source.executeMultiple(caller, recs.map((object) => ({ operation: 'create', name: 'contact', object })), { atomic: true }));
          const bytes = await exportBytes(source, format, sep as '.' | ',', csvHeader);
          const target = memoryStore();
          const out = await runImport(target, { entity: contact, caller, mode: 'create' }, importBytesSource(bytes, format));
          expect(out.errorLines).toEqual([]);
          expect(out.notes).toEqual([]);
          expect(out.created).toBe(recs.length);
          const read = async (s: InMemoryRecordStore) => must(await s.retrieveMultiple(caller, { entity: { name: 'contact', allattrs: true } })).records;
          expect(comparable(await read(target))).toEqual(comparable(await read(source)));
        }),
        { numRuns: 60 },
      );
    });
  }
});
