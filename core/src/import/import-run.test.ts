import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { withSystemFields } from '../metadata/system-fields.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import type { FetchRequest } from '../query/query.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import type { ImportFileEvent } from './import-rows.js';
import { previewImport, runImport, writeImport, type ImportSettings, type ImportSource, type RowSpool } from './import-run.js';
import type { ImportRow } from './import-rows.js';

const right = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const company = right(
  withSystemFields({
    logicalName: 'company',
    displayName: 'Company',
    displayNamePlural: 'Companies',
    properties: [
      { logicalName: 'employees', displayName: 'Employees', type: 'Integer' },
      { logicalName: 'parentid', displayName: 'Parent', type: 'Lookup', targets: ['company'] },
    ],
  }),
);
const caller = systemCaller();

/** The real in-memory store, with a log of the queries import sends (to check the batches). */
const storeWithLog = () => {
  let n = 0;
  const store = new InMemoryRecordStore((name) => (name === 'company' ? company : undefined), { now: () => new Date('2026-11-21T10:00:00Z') }, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const queries: FetchRequest[] = [];
  const writes: number[] = [];
  const logged: Pick<RecordStore, 'retrieveMultiple' | 'executeMultiple'> = {
    retrieveMultiple: (c, r) => {
      queries.push(r);
      return store.retrieveMultiple(c, r);
    },
    executeMultiple: (c, items, o) => {
      writes.push(items.length);
      return store.executeMultiple(c, items, o);
    },
  };
  const all = async () => right(await store.retrieveMultiple(caller, { entity: { name: 'company', allattrs: true }, pageSize: 5000 })).records;
  return { store, logged, queries, writes, all };
};

const csv = (header: string[], rows: string[][], extra: ImportFileEvent[] = []): ImportSource =>
  async function* () {
    yield { type: 'header', line: 1, cells: header };
    for (let i = 0; i < rows.length; i++) yield { type: 'cells', line: i + 2, cells: rows[i] };
    yield* extra;
  };

const settings = (s: Partial<ImportSettings> = {}): ImportSettings => ({ entity: company as Entity, caller, mode: 'update', ...s });

describe('spec 002 sections 4, 5 and 7: lookups and row marking against the store', () => {
  it('lookup names are resolved against the target entity in batches of 100; unresolved ones become null and are listed', async () => {
    const { logged, queries, all } = storeWithLog();
    const names = Array.from({ length: 250 }, (_, i) => [`Parent ${i}`]);
    await runImport(logged, settings({ mode: 'create' }), csv(['name'], names));
    queries.length = 0;
    const rows = Array.from({ length: 250 }, (_, i) => [`Child ${i}`, `parent ${i}`]);
    rows.push(['Orphan', 'Nobody']);
    const out = await runImport(logged, settings({ mode: 'create' }), csv(['name', 'parentid'], rows));
    const lookupQueries = queries.filter((q) => q.entity.attributes?.some((a) => a.attribute === 'name') && q.entity.filter?.conditions?.[0]?.attribute === 'name');
    // two passes (validate, write), each 251 distinct names in batches of 100
    expect(lookupQueries.map((q) => q.entity.filter?.conditions?.length)).toEqual([100, 100, 51, 100, 100, 51]);
    expect(lookupQueries[0].entity.filter?.type).toBe('or');
    expect(out.created).toBe(251);
    expect(out.notes).toEqual(["Line 252, parentid: 'Nobody' no company is named so; left empty"]);
    const child = (await all()).find((r) => r.name === 'Child 7')!;
    expect(child.parentid).toMatchObject({ name: 'company', label: 'Parent 7' });
  });

  it('with a match field an existing match is updated, otherwise created; matching uses or-conditions in batches of 100 (like for texts, eq for id)', async () => {
    const { logged, queries, all } = storeWithLog();
    await runImport(logged, settings({ mode: 'create' }), csv(['name', 'employees'], Array.from({ length: 150 }, (_, i) => [`C${i}`, '1'])));
    queries.length = 0;
    const rows = Array.from({ length: 210 }, (_, i) => [`c${i}`, '2']); // case differs: texts match without regard to case
    const preview = await previewImport(logged, settings({ matchField: 'name' }), csv(['name', 'employees'], rows));
    expect(preview).toMatchObject({ rows: 210, create: 60, update: 150, skip: 0, errors: 0 });
    const matchQueries = queries.filter((q) => q.entity.filter?.conditions?.[0]?.attribute === 'name');
    expect(matchQueries.map((q) => q.entity.filter?.conditions?.length)).toEqual([100, 100, 10]);
    expect(matchQueries[0].entity.filter?.conditions?.[0].operator).toBe('like');
    const out = await runImport(logged, settings({ matchField: 'name' }), csv(['name', 'employees'], rows));
    expect(out).toMatchObject({ created: 60, updated: 150, text: 'Imported: 210 records' });
    expect((await all()).length).toBe(210);
    const ids = (await all()).slice(0, 3).map((r) => [String(r.id).replace(/-/g, ''), 'x']);
    queries.length = 0;
    await previewImport(logged, settings({ matchField: 'id' }), csv(['id', 'name'], ids));
    expect(queries.find((q) => q.entity.filter?.conditions?.[0]?.attribute === 'id')?.entity.filter?.conditions?.[0].operator).toBe('eq');
  });

  it('past 1000 match values the entity keys are read once instead of one table scan per 100 values; the marking is the same', async () => {
    const { logged, queries, all } = storeWithLog();
    await runImport(logged, settings({ mode: 'create' }), csv(['name'], Array.from({ length: 1200 }, (_, i) => [`K${i}`])));
    queries.length = 0;
    const rows = Array.from({ length: 2500 }, (_, i) => [`k${i}`, '5']);
    const preview = await previewImport(logged, settings({ matchField: 'name', writeBatchSize: 500 }), csv(['name', 'employees'], rows));
    expect(preview).toMatchObject({ rows: 2500, update: 1200, create: 1300, errors: 0 });
    const batched = queries.filter((q) => q.entity.filter?.type === 'or');
    const fullReads = queries.filter((q) => q.entity.filter === undefined);
    expect(batched).toHaveLength(10); // the first 1000 values, 100 per query
    expect(fullReads).toHaveLength(1); // then the keys, once (1200 records: one page)
    const out = await runImport(logged, settings({ matchField: 'name', writeBatchSize: 500 }), csv(['name', 'employees'], rows));
    expect(out).toMatchObject({ created: 1300, updated: 1200 });
    expect((await all()).length).toBe(2500);
  });

  it('Skip Existing skips matches; Create New never matches', async () => {
    const { logged, all } = storeWithLog();
    await runImport(logged, settings({ mode: 'create' }), csv(['name'], [['A'], ['B']]));
    expect(await previewImport(logged, settings({ mode: 'skip', matchField: 'name' }), csv(['name'], [['A'], ['C']]))).toMatchObject({ create: 1, skip: 1, update: 0 });
    expect(await previewImport(logged, settings({ mode: 'create', matchField: 'name' }), csv(['name'], [['A'], ['C']]))).toMatchObject({ create: 2, skip: 0, update: 0 });
    const out = await runImport(logged, settings({ mode: 'skip', matchField: 'name' }), csv(['name'], [['A'], ['C']]));
    expect(out).toMatchObject({ created: 1, skipped: 1, text: 'Imported: 1 records' });
    expect((await all()).map((r) => r.name).sort()).toEqual(['A', 'B', 'C']);
  });

  it('a value repeating an earlier row, or matching several records, is an error of its line', async () => {
    const { logged } = storeWithLog();
    await runImport(logged, settings({ mode: 'create' }), csv(['name'], [['Twin'], ['Twin']]));
    const p = await previewImport(logged, settings({ matchField: 'name' }), csv(['name'], [['Twin'], ['New'], ['new']]));
    expect(p.errorLines).toEqual(['Line 2, name: the value matches 2 records', 'Line 4, name: the value repeats line 3']);
  });

  it('the match field must be a column of the file', async () => {
    const { logged } = storeWithLog();
    const p = await previewImport(logged, settings({ matchField: 'employees' }), csv(['name'], [['A']]));
    expect(p.fatal).toBe('The match field employees is not a column of the file');
  });
});

describe('issue 7 section 4: nothing half-written', () => {
  it('the whole file is validated before anything is written: a file that breaks at the end writes nothing', async () => {
    const { logged, all, writes } = storeWithLog();
    const rows = Array.from({ length: 2500 }, (_, i) => [`N${i}`]);
    const out = await runImport(logged, settings({ mode: 'create' }), csv(['name'], rows, [{ type: 'fatal', message: 'Line 2502: unterminated quote' }]));
    expect(out.fatal).toBe('Line 2502: unterminated quote');
    expect(out.text).toBe('Imported: 0 records\nErrors: 1\nLine 2502: unterminated quote');
    expect(writes).toEqual([]);
    expect(await all()).toEqual([]);
  });

  it('rows with errors are reported with their line and not written; good rows are written in atomic batches', async () => {
    const { logged, all, writes } = storeWithLog();
    const rows = Array.from({ length: 25 }, (_, i) => [`N${i}`, i === 7 ? 'seven' : String(i)]);
    const out = await runImport(logged, settings({ mode: 'create', writeBatchSize: 10 }), csv(['name', 'employees'], rows));
    expect(out.text).toBe("Imported: 24 records\nErrors: 1\nLine 9, employees: 'seven' is not a number");
    expect(writes).toEqual([9, 10, 5]);
    expect((await all()).map((r) => r.name)).not.toContain('N7');
  });

  it('a row the store refuses is found by halving its batch; every write stays all or nothing and the row is reported', async () => {
    const { logged, all } = storeWithLog();
    await runImport(logged, settings({ mode: 'create' }), csv(['id', 'name'], [['00000000-0000-4000-8000-aaaaaaaaaaaa', 'Taken']]));
    const rows = Array.from({ length: 8 }, (_, i) => [i === 5 ? '00000000-0000-4000-8000-aaaaaaaaaaaa' : '', `N${i}`]);
    const out = await runImport(logged, settings({ mode: 'create', writeBatchSize: 8 }), csv(['id', 'name'], rows));
    expect(out.created).toBe(7);
    expect(out.errors).toBe(1);
    expect(out.errorLines[0]).toMatch(/^Line 7: ERR_/);
    expect((await all()).length).toBe(8);
  });

  it('with a row spool, pass 2 writes the rows pass 1 checked without reading the file again; the spool is discarded', async () => {
    const { logged, all } = storeWithLog();
    let reads = 0;
    const rows = Array.from({ length: 25 }, (_, i) => [`N${i}`, i === 3 ? 'x' : String(i)]);
    const source = csv(['name', 'employees'], rows);
    const counted: ImportSource = () => {
      reads++;
      return source();
    };
    const kept: string[] = [];
    let discarded = false;
    const spool: RowSpool = {
      append: async (rs) => void kept.push(...rs.map((r) => JSON.stringify(r))),
      batches: async function* (size: number) {
        for (let i = 0; i < kept.length; i += size) yield kept.slice(i, i + size).map((t) => JSON.parse(t) as ImportRow);
      },
      discard: async () => void (discarded = true),
    };
    const out = await runImport(logged, settings({ mode: 'create', writeBatchSize: 10 }), counted, { spool });
    expect(reads).toBe(1);
    expect(discarded).toBe(true);
    expect(out.text).toBe("Imported: 24 records\nErrors: 1\nLine 5, employees: 'x' is not a number");
    expect((await all()).length).toBe(24);
  });

  it('declining the confirmation cancels with no records processed', async () => {
    const { logged, all } = storeWithLog();
    let asked = '';
    const out = await runImport(logged, settings({ mode: 'create' }), csv(['name'], [['A'], ['B']]), {
      confirm: async (p) => {
        asked = `${p.create}/${p.update}`;
        return false;
      },
    });
    expect(asked).toBe('2/0');
    expect(out.cancelled).toBe(true);
    expect(await all()).toEqual([]);
  });

  it('running the same import again with a match field gives the same records, without duplicates (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { maxLength: 30, selector: (s) => s.toLowerCase() }), fc.nat(30), async (names, cut) => {
        const { logged, all } = storeWithLog();
        const rows = names.map((n, i) => [n, String(i)]);
        // a first run that stopped after `cut` rows, then the whole file with the match field
        await runImport(logged, settings({ mode: 'create' }), csv(['name', 'employees'], rows.slice(0, cut)));
        await runImport(logged, settings({ matchField: 'name', writeBatchSize: 7 }), csv(['name', 'employees'], rows));
        const stored = (await all()).map((r) => `${r.name}:${r.employees}`).sort();
        expect(stored).toEqual(rows.map(([n, e]) => `${n}:${e}`).sort());
      }),
      { numRuns: 25 },
    );
  });
});

describe('issue 17: the web client previews, asks, then writes in batches it may stop', () => {
  it('writeImport after previewImport writes the checked rows in batches of its own size, reporting each', async () => {
    const { logged, writes, all } = storeWithLog();
    const rows = Array.from({ length: 250 }, (_, i) => ['name ' + i, String(i)]);
    const source = csv(['name', 'employees'], rows);
    const preview = await previewImport(logged, settings({ mode: 'create' }), source);
    expect(preview.create).toBe(250);
    expect(writes).toEqual([]); // the preview writes nothing
    const progress: number[] = [];
    const out = await writeImport(logged, settings({ mode: 'create' }), preview, source, { batchSize: 100, onProgress: (p) => progress.push(p.rows) });
    expect(writes).toEqual([100, 100, 50]);
    expect(progress).toEqual([100, 200, 250]);
    expect(out.text).toBe('Imported: 250 records');
    expect(await all()).toHaveLength(250);
  });

  it('Cancel: stops before the next batch; the batches written stay written and the result says how many rows were not imported', async () => {
    const { logged, writes, all } = storeWithLog();
    const rows = Array.from({ length: 250 }, (_, i) => ['name ' + i, String(i)]);
    const source = csv(['name', 'employees'], rows);
    let batches = 0;
    const out = await writeImport(logged, settings({ mode: 'create' }), { rows: 250 }, source, {
      batchSize: 100,
      onProgress: () => batches++,
      shouldStop: () => batches >= 1,
    });
    expect(writes).toEqual([100]);
    expect(out).toMatchObject({ cancelled: true, imported: 100, created: 100 });
    expect(out.text).toBe('Imported: 100 records\nCancelled: 150 rows were not imported');
    expect(await all()).toHaveLength(100);
  });

  it('spec 002 section 5: a text longer than the max is cut, and the preview lists the cut as a note of its line', async () => {
    const short = right(withSystemFields({ logicalName: 'company', displayName: 'Company', displayNamePlural: 'Companies', properties: [{ logicalName: 'code', displayName: 'Code', type: 'String', max: 3 }] }));
    const { logged } = storeWithLog();
    const preview = await previewImport(logged, settings({ entity: short as Entity, mode: 'create' }), csv(['code'], [['ABCDE'], ['XY']]));
    expect(preview.sample[0].values.code).toBe('ABC');
    expect(preview.sample[0].notes).toEqual(['Line 2, code: the text of 5 characters was cut to 3']);
    expect(preview.sample[1].notes).toEqual([]);
  });
});
