import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvImportEvents, importBytesSource, importFileKind } from '@tessera/adapters-graph';
import { unescapeQuotedCell, type ImportFileEvent } from '@tessera/core/internal';
import { previewImport, runImport } from '@tessera/core/internal';
import { caller, collect, contact, memoryStore, must } from './fixtures.js';

const csv = (text: string | Uint8Array) => importBytesSource(text, 'csv');

describe('spec 002 section 5: CSV files are read with csv-parse under the core rules', () => {
  it('a .json file is JSON, anything else is CSV', () => {
    expect(importFileKind('a.JSON')).toBe('json');
    expect(importFileKind('a.txt')).toBe('csv');
  });
  it('the separator is ; unless a first line sep=X sets it; lines count from the first line of the file', async () => {
    expect(await collect(csv('name;city\r\nA;B\r\n'))).toEqual([
      { type: 'header', line: 1, cells: ['name', 'city'] },
      { type: 'cells', line: 2, cells: ['A', 'B'] },
    ]);
    expect(await collect(csv('sep=,\nname,city\n\nA,B\n'))).toEqual([
      { type: 'header', line: 2, cells: ['name', 'city'] },
      { type: 'cells', line: 4, cells: ['A', 'B'] },
    ]);
  });
  it('a UTF-8 byte-order mark is stripped', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('name\nŽilina\n')]);
    expect(await collect(csv(bytes))).toEqual([
      { type: 'header', line: 1, cells: ['name'] },
      { type: 'cells', line: 2, cells: ['Žilina'] },
    ]);
  });
  it('quotes are doubled to escape, and a backslash-n inside quotes is a newline', async () => {
    const events = await collect(csv('name;notes\n"Say ""hi""";"one\\ntwo"\nnext;C:\\new\n'));
    expect(events[1]).toEqual({ type: 'cells', line: 2, cells: ['Say "hi"', 'one\ntwo'] });
    expect(events[2]).toEqual({ type: 'cells', line: 3, cells: ['next', 'C:\\new'] });
  });
  it('a backslash escape is undone in quoted cells only, also after empty lines and across the chunks of a stream', async () => {
    const text = 'name;notes\n\n\n"a\\tb";"x\\ny"\nC:\\new;"q\\\\"\n';
    const bytes = new TextEncoder().encode(text);
    const streamed = async (size: number): Promise<ImportFileEvent[]> => {
      async function* chunks(): AsyncIterable<Uint8Array> {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
      }
      const out: ImportFileEvent[] = [];
      for await (const e of csvImportEvents(chunks())) out.push(...(Array.isArray(e) ? e : [e]));
      return out;
    };
    const expected = [
      { type: 'header', line: 1, cells: ['name', 'notes'] },
      { type: 'cells', line: 4, cells: ['a\\tb', 'x\ny'] },
      { type: 'cells', line: 5, cells: ['C:\\new', 'q\\'] },
    ];
    for (const size of [1, 2, 3, 7, bytes.length]) expect(await streamed(size)).toEqual(expected);
  });
  it('property: however the bytes of a file are cut into chunks, each row comes out with its cells (escapes undone in quoted cells only) and the line it starts on', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'ž', ';', '"', '\\', 'n', '\n', ' '), maxLength: 6 });
    const quote = (c: string) => (/[;"\n\\]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 9 }), async (rows, size) => {
        const bytes = new TextEncoder().encode(['a;b', ...rows.map((r) => r.map(quote).join(';'))].join('\n') + '\n');
        const read = async (cut: number): Promise<ImportFileEvent[]> => {
          async function* chunks(): AsyncIterable<Uint8Array> {
            for (let i = 0; i < bytes.length; i += cut) yield bytes.subarray(i, i + cut);
          }
          const out: ImportFileEvent[] = [];
          for await (const e of csvImportEvents(chunks())) out.push(...(Array.isArray(e) ? e : [e]));
          return out;
        };
        let line = 2;
        const expected = rows.map((r) => {
          const e = { type: 'cells', line, cells: r.map((c) => (quote(c) === c ? c : unescapeQuotedCell(c))) };
          line += r.join('').split('\n').length;
          return e;
        });
        const events = await read(size);
        expect(events.slice(1)).toEqual(expected);
        expect(events).toEqual(await read(bytes.length));
      }),
      { numRuns: 100 },
    );
  });
  it('a row spanning lines starts on its first line; the next row counts on', async () => {
    const events = await collect(csv('name;notes\n"A";"x\ny\nz"\nB;w\n'));
    expect(events.map((e) => ('line' in e ? e.line : 0))).toEqual([1, 2, 5]);
  });
});

/** The corpus of broken files (issue 7 section 6): each gives clear errors and writes only what it should. */
describe('issue 7 section 6: broken files give clear per-line errors and write nothing they should not', () => {
  const importInto = async (text: string | Uint8Array) => {
    const store = memoryStore();
    const out = await runImport(store, { entity: contact, caller, mode: 'create' }, csv(text));
    const stored = must(await store.retrieveMultiple(caller, { entity: { name: 'contact', allattrs: true } })).records;
    return { out, stored };
  };

  it('an unterminated quote stops the file: the line is named and nothing is written', async () => {
    const { out, stored } = await importInto('name;city\nA;B\nC;"Žilina\nD;E\n');
    expect(out.fatal).toBe('Line 3: a quote opened in this row is never closed');
    expect(out.text).toBe('Imported: 0 records\nErrors: 1\nLine 3: a quote opened in this row is never closed');
    expect(stored).toEqual([]);
  });
  it('ragged rows are errors of their lines; the other rows are written', async () => {
    const { out, stored } = await importInto('name;city;age\nA;B;1\nC;D\nE;F;2;3\nG;H;4;\n');
    expect(out.errorLines).toEqual(['Line 3: the row has 2 cells, the header has 3', 'Line 4: the row has 4 cells, the header has 3']);
    expect(stored.map((r) => r.name).sort()).toEqual(['A', 'G']);
  });
  it('wrong types are errors naming the line and the column', async () => {
    const { out, stored } = await importInto('name;age;salary;vip;kind\nA;x;1;true;Lead\nB;2;lots;maybe;Boss\nC;3;4,5;no;2\n');
    expect(out.errorLines).toEqual([
      "Line 2, age: 'x' is not a number",
      "Line 3, salary: 'lots' is not a number",
      "Line 3, vip: 'maybe' is not true or false",
      "Line 3, kind: 'Boss' is not an option (1 Lead, 2 Customer)",
    ]);
    expect(out.text.split('\n').slice(0, 2)).toEqual(['Imported: 1 records', 'Errors: 4']);
    expect(stored).toMatchObject([{ name: 'C', age: 3, salary: 4.5, vip: false, kind: 2 }]);
  });
  it('a 10 MB cell is an error of its line', async () => {
    const { out, stored } = await importInto(`name;notes\nA;${'x'.repeat(10 * 1024 * 1024)}\nB;short\n`);
    expect(out.errorLines).toEqual([`Line 2, notes: the cell has ${10 * 1024 * 1024} characters, more than 1000000`]);
    expect(stored.map((r) => r.name)).toEqual(['B']);
  });
  it('invalid UTF-8 is an error of its line and column, never stored garbled', async () => {
    const enc = new TextEncoder();
    const bytes = new Uint8Array([...enc.encode('name;city\nA;Ko'), 0xe8, ...enc.encode('ice\nB;Nitra\n')]);
    const { out, stored } = await importInto(bytes);
    expect(out.errorLines).toEqual(['Line 2, city: the cell is not valid UTF-8 (save the file as UTF-8)']);
    expect(stored.map((r) => r.city)).toEqual(['Nitra']);
  });
  it('an empty file and a file of empty lines say so', async () => {
    expect((await importInto('')).out.fatal).toBe('The file is empty');
    expect((await importInto('\uFEFF\r\n\r\n')).out.fatal).toBe('The file is empty');
  });
  it('a header only has no rows to import', async () => {
    const { out, stored } = await importInto('name;city\n');
    expect(out.fatal).toBe('The file has a header but no rows');
    expect(stored).toEqual([]);
  });
  it('unknown columns are ignored and listed in the preview', async () => {
    const p = await previewImport(memoryStore(), { entity: contact, caller, mode: 'create' }, csv('name;shoe;createdon\nA;42;2020-01-01\n'));
    expect(p.ignoredColumns).toEqual(['Column ignored: shoe (no such field)', 'Column ignored: createdon (set by the server)']);
    expect(p).toMatchObject({ rows: 1, create: 1 });
  });
});

describe('issue 7: JSON files', () => {
  const json = (t: string) => importBytesSource(t, 'json');
  it('an array of objects imports; anything else is an error; __proto__ keys are ignored', async () => {
    const store = memoryStore();
    const out = await runImport(store, { entity: contact, caller, mode: 'create' }, json('[{"name":"A","age":3,"__proto__":{"x":1}},\n{"name":"B","age":"four"}]'));
    expect(out.text).toBe("Imported: 1 records\nErrors: 1\nLine 2, age: 'four' is not a number");
    const bad = await runImport(store, { entity: contact, caller, mode: 'create' }, json('{"name":"A"}'));
    expect(bad.fatal).toBe('A .json file must be an array of objects');
  });
  it('deep nesting is refused on its line', async () => {
    const out = await runImport(memoryStore(), { entity: contact, caller, mode: 'create' }, json('[{"name":"A"},\n{"name":{"a":{"b":1}}}]'));
    expect(out.errorLines).toEqual(['Line 2: nested deeper than 3 levels']);
  });
});
