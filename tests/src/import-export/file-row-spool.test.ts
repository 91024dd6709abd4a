import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRowSpool, MAX_SPOOL_SHAPES } from '@tessera/adapters-graph';
import type { FieldValue, ImportRow } from '@tessera/core/internal';

const readAll = async (spool: FileRowSpool, size: number): Promise<ImportRow[][]> => {
  const out: ImportRow[][] = [];
  for await (const b of spool.batches(size)) out.push(b);
  return out;
};

const value: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.constant(null),
  fc.string({ unit: fc.constantFrom('a', 'Ž', '"', '\\', '\n', ';', ' ') }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.boolean(),
  fc.record({ id: fc.uuid(), name: fc.constantFrom('account', 'contact') }),
);
const issue = fc.record({ line: fc.nat(), column: fc.constantFrom('name', 'qty'), message: fc.string() });
const row = (line: number): fc.Arbitrary<ImportRow> =>
  fc.record({
    line: fc.constant(line),
    values: fc.dictionary(fc.constantFrom('name', 'code', 'qty', 'due', 'parentid', 'Target'), value),
    pending: fc.constant([]),
    errors: fc.array(issue, { maxLength: 1 }),
    notes: fc.array(issue, { maxLength: 1 }),
  });

describe('issue 7 section 5: the import spool keeps pass 1 rows on disk and gives them back unchanged', () => {
  it('property: rows appended in any portions come back equal, in file order, in batches of the asked size', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tessera-spool-test-'));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 40 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => row(i + 2)))),
          fc.integer({ min: 1, max: 7 }),
          fc.integer({ min: 1, max: 9 }),
          async (rows, portion, size) => {
            const spool = new FileRowSpool(parent);
            try {
              for (let i = 0; i < rows.length; i += portion) await spool.append(rows.slice(i, i + portion));
              const batches = await readAll(spool, size);
              expect(batches.flat()).toEqual(rows);
              expect(batches.every((b, i) => b.length === (i < batches.length - 1 ? size : b.length) && b.length > 0 && b.length <= size)).toBe(true);
            } finally {
              await spool.discard();
            }
          },
        ),
        { numRuns: 100 },
      );
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('rows of more key lists than it remembers, and a __proto__ key, come back unchanged', async () => {
    const spool = new FileRowSpool();
    const rows: ImportRow[] = Array.from({ length: MAX_SPOOL_SHAPES + 20 }, (_, i) => ({
      line: i + 2,
      values: { [`field${i}`]: i, name: `row ${i}` },
      pending: [],
      errors: [],
      notes: [],
    }));
    const odd = JSON.parse('{"__proto__": "x", "name": "y"}') as Record<string, FieldValue>;
    rows.push({ line: 999, values: odd, pending: [], errors: [], notes: [] });
    await spool.append(rows);
    const back = (await readAll(spool, 1000)).flat();
    expect(back).toEqual(rows);
    expect(Object.getPrototypeOf(back.at(-1)?.values)).toBe(Object.prototype);
    expect(Object.keys(back.at(-1)?.values ?? {})).toEqual(['__proto__', 'name']);
    const dir = (spool as unknown as { dir: string }).dir;
    await spool.discard();
    expect(existsSync(dir)).toBe(false);
  });
});
