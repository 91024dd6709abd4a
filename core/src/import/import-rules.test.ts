import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { coerceCell, parseDate, parseNumber, MAX_CELL_LENGTH } from './coerce.js';
import { readCsvPreamble } from './csv-preamble.js';
import { mapHeader } from './header-map.js';
import { importTemplate, importableEntities } from './import-template.js';
import { RowReader } from './import-rows.js';
import { JsonArrayReader, type JsonItem } from './json-array-reader.js';
import { translate } from '../i18n/catalogue.js';
import { importConfirmationText, importResultText, importTextIn, IMPORT_TEXT_KEYS } from './texts.js';
import { isUuid, normalizeUuid } from './uuid.js';

export const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'id', displayName: 'Id', type: 'Guid' },
    { logicalName: 'name', displayName: 'Name', type: 'String', max: 20 },
    { logicalName: 'revenue', displayName: 'Annual Revenue', type: 'Money' },
    { logicalName: 'employees', displayName: 'Employees', type: 'Integer' },
    { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
    { logicalName: 'founded', displayName: 'Founded', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'lastcall', displayName: 'Last Call', type: 'DateTime' },
    {
      logicalName: 'category',
      displayName: 'Category',
      type: 'Integer',
      flags: ['OptionSet'],
      richOptions: [
        { value: 1, label: 'Customer' },
        { value: 2, label: 'Partner' },
      ],
    },
    { logicalName: 'parentid', displayName: 'Parent', type: 'Lookup', targets: ['account', 'contact'] },
    { logicalName: 'createdon', displayName: 'Created On', type: 'DateTime' },
    { logicalName: 'modifiedby', displayName: 'Modified By', type: 'Lookup', targets: ['systemuser'] },
    { logicalName: 'versionnumber', displayName: 'Version Number', type: 'VersionNumber' },
  ],
};

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('spec 002 section 8: import texts', () => {
  it("the confirmation reads 'Import will Create {n} record(s) Update {m} record(s) continue?'", () => {
    expect(importConfirmationText({ create: 3, update: 2 })).toBe('Import will Create 3 record(s) Update 2 record(s) continue?');
  });
  it("the result is 'Imported: {n} records', then 'Errors: {count}' and the errors line by line when any failed", () => {
    expect(importResultText(5, [])).toBe('Imported: 5 records');
    expect(importResultText(4, ['Line 3, employees: x', 'Line 7: y'])).toBe('Imported: 4 records\nErrors: 2\nLine 3, employees: x\nLine 7: y');
  });
  it('the texts come from the i18n catalogue, in any of its languages', () => {
    for (const lang of ['en', 'sk', 'cz', 'de'] as const) {
      const text = importTextIn(lang);
      expect(importConfirmationText({ create: 3, update: 2 }, text)).toBe(translate(lang, 'MsgImportConfirm', { n: 3, m: 2 }));
      expect(importResultText(4, ['Line 3: x'], 1, text)).toBe([translate(lang, 'MsgImported', { n: 4 }), translate(lang, 'MsgImportErrors', { count: 1 }), 'Line 3: x'].join('\n'));
      for (const key of IMPORT_TEXT_KEYS) expect(text(key, {})).not.toBe(key);
    }
  });
});

describe('spec 002 section 5: separator and byte-order mark', () => {
  it('the separator is a semicolon unless a first line sep=X sets it', () => {
    expect(readCsvPreamble('name;revenue\n')).toMatchObject({ separator: ';', separatorLine: false, skipChars: 0, linesBefore: 0 });
    expect(readCsvPreamble('sep=,\r\nname,revenue\r\n')).toMatchObject({ separator: ',', separatorLine: true, skipChars: 7, linesBefore: 1 });
    expect(readCsvPreamble('sep=\t\nname\n')).toMatchObject({ separator: '\t', skipChars: 6 });
  });
  it('a UTF-8 byte-order mark is stripped, before a sep= line too', () => {
    expect(readCsvPreamble('\uFEFFname\n')).toMatchObject({ bom: true, skipChars: 1, separator: ';' });
    expect(readCsvPreamble('\uFEFFsep=|\nname\n')).toMatchObject({ bom: true, separator: '|', skipChars: 7 });
  });
});

describe('spec 002 section 5: header cells map to properties', () => {
  it('by logicalName or displayName, ignoring case; unknown columns are ignored and listed', () => {
    const m = mapHeader(account, ['NAME', 'Annual Revenue', 'shoe size', '']);
    expect(m.bindings.map((b) => b && `${b.kind}:${b.property.logicalName}`)).toEqual(['value:name', 'value:revenue', null, null]);
    expect(m.ignored).toEqual([
      { header: 'shoe size', reason: 'unknown' },
      { header: '(column 4)', reason: 'unknown' },
    ]);
  });
  it('a column ending in Target gives the lookup target; Label columns of export are read as nothing', () => {
    const m = mapHeader(account, ['parentid', 'parentidTarget', 'parentidLabel']);
    expect(m.bindings.map((b) => b?.kind)).toEqual(['value', 'target', 'label']);
    expect(m.ignored).toEqual([]);
  });
  it('fields the server sets (created, modified, version) are ignored and listed, repeated columns too', () => {
    const m = mapHeader(account, ['createdon', 'modifiedby', 'versionnumber', 'name', 'Name']);
    expect(m.ignored.map((c) => c.reason)).toEqual(['not importable', 'not importable', 'not importable', 'repeated']);
  });
});

describe('spec 002 section 5: value coercion', () => {
  const p = (n: string) => account.properties.find((x) => x.logicalName === n)!;
  it('an empty cell becomes null', () => {
    for (const f of ['name', 'revenue', 'founded', 'parentid', 'category']) expect(coerceCell(p(f), '')).toEqual({ tag: 'value', value: null });
  });
  it('strings are truncated to the max length of the property', () => {
    expect(coerceCell(p('name'), 'x'.repeat(30))).toEqual({ tag: 'value', value: 'x'.repeat(20) });
  });
  it('numbers accept either decimal separator and spaces between digits', () => {
    expect(parseNumber('1 234,5')).toBe(1234.5);
    expect(parseNumber('1.234,5')).toBe(1234.5);
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber('-0.25')).toBe(-0.25);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('12abc')).toBeUndefined();
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      expect(parseNumber(String(n))).toBe(n === 0 ? 0 : n);
      expect(parseNumber(String(n).replace('.', ','))).toBe(n === 0 ? 0 : n);
    }));
  });
  it('a number that does not parse, or a fraction for an Integer, is an error', () => {
    expect(coerceCell(p('revenue'), 'lots')).toEqual({ tag: 'error', message: "'lots' is not a number" });
    expect(coerceCell(p('employees'), '2.5')).toEqual({ tag: 'error', message: "'2.5' is not a whole number" });
    expect(coerceCell(p('employees'), '3000000000')).toMatchObject({ tag: 'error' });
  });
  it('booleans read true/false, 1/0, yes/no and the Slovak áno/nie', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'áno']) expect(coerceCell(p('active'), t)).toEqual({ tag: 'value', value: true });
    for (const f of ['false', '0', 'no', 'nie']) expect(coerceCell(p('active'), f)).toEqual({ tag: 'value', value: false });
    expect(coerceCell(p('active'), 'maybe')).toMatchObject({ tag: 'error' });
  });
  it('option values are taken by value or by label', () => {
    expect(coerceCell(p('category'), '2')).toEqual({ tag: 'value', value: 2 });
    expect(coerceCell(p('category'), 'partner')).toEqual({ tag: 'value', value: 2 });
    expect(coerceCell(p('category'), 'Rival')).toEqual({ tag: 'error', message: "'Rival' is not an option (1 Customer, 2 Partner)" });
  });
  it('dates read dd.mm.yyyy as UTC with spaces removed, or any parseable date; DateOnly keeps the day', () => {
    expect(coerceCell(p('founded'), '21.11.2026')).toEqual({ tag: 'value', value: '2026-11-21' });
    expect(coerceCell(p('founded'), ' 1. 2. 2026 ')).toEqual({ tag: 'value', value: '2026-02-01' });
    expect(coerceCell(p('lastcall'), '21.11.2026 10:30')).toEqual({ tag: 'value', value: '2026-11-21T10:30:00.000Z' });
    expect(coerceCell(p('lastcall'), '2026-11-21T10:30:00Z')).toEqual({ tag: 'value', value: '2026-11-21T10:30:00.000Z' });
    expect(parseDate('31.02.2026')).toBeUndefined();
  });
  it('unparseable dates are dropped and listed, not errors', () => {
    expect(coerceCell(p('founded'), 'someday')).toEqual({ tag: 'dropped', message: "'someday' is not a date; left empty" });
  });
  it('a lookup that is a UUID (32 hex digits or dashed) is used as the id; anything else is resolved by name', () => {
    expect(isUuid(ID) && isUuid(ID.replace(/-/g, ''))).toBe(true);
    expect(normalizeUuid(ID.replace(/-/g, '').toUpperCase())).toBe(ID);
    expect(coerceCell(p('parentid'), ID.replace(/-/g, ''))).toEqual({ tag: 'value', value: { id: ID, name: 'account' } });
    expect(coerceCell(p('parentid'), 'Acme Ltd')).toEqual({ tag: 'resolve', name: 'Acme Ltd' });
    expect(coerceCell(p('parentid'), { id: ID, name: 'contact', label: 'x' })).toEqual({ tag: 'value', value: { id: ID, name: 'contact' } });
  });
  it('a cell longer than the cell limit is an error whatever the field', () => {
    expect(coerceCell(p('name'), 'x'.repeat(MAX_CELL_LENGTH + 1))).toMatchObject({ tag: 'error' });
  });
});

describe('spec 002 section 5: rows, with errors that name the line and the column', () => {
  it('coerces each cell and reports errors as Line n, column: text', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['name', 'employees', 'parentid', 'parentidTarget'] });
    const row = r.read({ type: 'cells', line: 4, cells: ['Acme', 'many', ID, 'contact'] })!;
    expect(row.values).toEqual({ name: 'Acme', parentid: { id: ID, name: 'contact' } });
    expect(row.errors).toEqual([{ line: 4, column: 'employees', message: "'many' is not a number" }]);
  });
  it('a Target column naming an entity the lookup cannot point at is an error', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['parentid', 'parentidTarget'] });
    expect(r.read({ type: 'cells', line: 2, cells: ['Acme', 'invoice'] })!.errors[0]).toMatchObject({ column: 'parentidTarget' });
  });
  it('ragged rows are errors of their line; trailing empty cells are tolerated', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['name', 'employees'] });
    expect(r.read({ type: 'cells', line: 2, cells: ['a'] })!.errors).toEqual([{ line: 2, message: 'the row has 1 cells, the header has 2' }]);
    expect(r.read({ type: 'cells', line: 3, cells: ['a', '1', 'x'] })!.errors).toHaveLength(1);
    expect(r.read({ type: 'cells', line: 4, cells: ['a', '1', ''] })!.errors).toEqual([]);
  });
  it('a cell that was not valid UTF-8 is an error of its line', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['name'] });
    expect(r.read({ type: 'cells', line: 2, cells: ['Ko\uFFFDice'] })!.errors[0]).toMatchObject({ line: 2, column: 'name' });
  });
  it('cells neutralized against formulas by export are read back to their value', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['name'] });
    expect(r.read({ type: 'cells', line: 2, cells: ["'=1+2"] })!.values.name).toBe('=1+2');
  });
  it('a header naming no field makes the file unreadable', () => {
    const r = new RowReader(account);
    r.read({ type: 'header', line: 1, cells: ['foo', 'bar'] });
    expect(r.fatal).toBe('Line 1: no column of the header names a field of account');
  });
});

const readJson = (text: string, cut: number[] = []): { items: JsonItem[]; fatal?: string } => {
  const reader = new JsonArrayReader();
  const items: JsonItem[] = [];
  let fatal: string | undefined;
  let from = 0;
  for (const at of [...cut.filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length]) {
    const r = reader.push(text.slice(from, at));
    items.push(...r.items);
    fatal ??= r.fatal;
    from = at;
  }
  const e = reader.end();
  return { items, fatal: fatal ?? e.fatal };
};

describe('spec 002 section 5 / issue 7: a .json file is an array of objects', () => {
  it('reads the objects with the line each starts on', () => {
    expect(readJson('[\n {"name":"a"},\n {"name":"b ] , {"}\n]').items).toEqual([
      { line: 2, value: { name: 'a' } },
      { line: 3, value: { name: 'b ] , {' } },
    ]);
  });
  it('anything but an array is an error; items that are not objects are errors of their line', () => {
    expect(readJson('{"name":"a"}').fatal).toBe('A .json file must be an array of objects');
    expect(readJson('').fatal).toBe('The file is empty');
    expect(readJson('[{"a":1}').fatal).toMatch(/not closed/);
    expect(readJson('[1, "x", {"a":1}]').items.map((i) => ('error' in i ? i.error : 'ok'))).toEqual([
      'an object is expected',
      'an object is expected',
      'ok',
    ]);
  });
  it('deep nesting is refused', () => {
    const r = readJson('[{"a":{"b":{"c":1}}}, {"a":{"id":"x"}}]');
    expect(r.items[0]).toEqual({ line: 1, error: 'nested deeper than 3 levels' });
    expect(r.items[1]).toEqual({ line: 1, value: { a: { id: 'x' } } });
    expect(readJson(`[${'['.repeat(100000)}${']'.repeat(100000)}]`).items[0]).toMatchObject({ error: 'nested deeper than 3 levels' });
  });
  it('__proto__ keys are ignored and never reach an object prototype', () => {
    const r = readJson('[{"__proto__":{"polluted":true},"name":"a","parentid":{"__proto__":"x","id":"i"}}]');
    const v = (r.items[0] as { value: Record<string, unknown> }).value;
    expect(Object.keys(v)).toEqual(['name', 'parentid']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v.parentid as object)).toEqual(['id']);
  });
  it('gives the same items wherever the file is cut into chunks', () => {
    const records = fc.array(fc.dictionary(fc.string({ maxLength: 5 }).filter((k) => k !== '__proto__'), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }), { maxLength: 6 });
    fc.assert(
      fc.property(records, fc.array(fc.nat(400), { maxLength: 6 }), (recs, cuts) => {
        const text = JSON.stringify(recs, null, 1);
        const r = readJson(text, cuts);
        expect(r.fatal).toBeUndefined();
        expect(r.items.map((i) => ('value' in i ? i.value : i))).toEqual(recs);
      }),
    );
  });
});

describe('spec 002 section 5: the import template', () => {
  it('lists property names except created and modified fields, joined by semicolons, in import_{object}.csv', () => {
    const t = importTemplate(account);
    expect(isRight(t) && t.right).toEqual({
      fileName: 'import_account.csv',
      content: '\uFEFFid;name;revenue;employees;active;founded;lastcall;category;parentid\r\n',
    });
  });
  it('link (many) entities are not offered', () => {
    const link: Entity = { logicalName: 'account_contact', displayName: 'L', displayNamePlural: 'L', type: 'many', properties: [] };
    expect(importableEntities([account, link])).toEqual([account]);
    expect(isLeft(importTemplate(link))).toBe(true);
  });
});
