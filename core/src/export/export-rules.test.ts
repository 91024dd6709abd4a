import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { Entity, Property } from '../metadata/entity.js';
import { systemCaller } from '../ports/record-store.js';
import type { Caller } from '../permissions/types.js';
import { csvCell, unescapeQuotedCell } from './csv-cell.js';
import { csvColumns } from './export-columns.js';
import { csvHeaderLine, csvRecordLine, csvStart, csvTotalsLine } from './csv-writer.js';
import { exportFileName, loadExportDefaults, parseExportOptions, resolveExportOptions, DEFAULT_EXPORT_OPTIONS } from './export-options.js';
import { needsNeutralizing, neutralizeFormula, restoreNeutralized } from './formula-neutralization.js';
import { fitColumns, pdfCellText, pdfTable, slovakShortDate, pdfTotalsTexts } from './pdf-table.js';
import { Totals } from './totals.js';
import { csvExportChunks, exportPlan, jsonExportChunks } from './export-run.js';

const props: Property[] = [
  { logicalName: 'name', displayName: 'Name', type: 'String' },
  { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
  { logicalName: 'employees', displayName: 'Employees', type: 'Integer' },
  { logicalName: 'founded', displayName: 'Founded', type: 'DateTime', flags: ['DateOnly'] },
  { logicalName: 'lastcall', displayName: 'Last Call', type: 'DateTime' },
  { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
  { logicalName: 'category', displayName: 'Category', type: 'Integer', flags: ['OptionSet'], richOptions: [{ value: 1, label: 'Customer' }] },
  { logicalName: 'parentid', displayName: 'Parent', type: 'Lookup', targets: ['account'] },
];
const entity: Entity = { logicalName: 'account', displayName: 'Account', displayNamePlural: 'Accounts', properties: props };
const opts = { ...DEFAULT_EXPORT_OPTIONS };
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const record = {
  name: 'Acme; "the best"\nand more',
  revenue: 1234.5,
  employees: -3,
  founded: '2020-01-31',
  lastcall: '2026-11-21T10:30:00.000Z',
  active: true,
  category: 1,
  parentid: { id: ID, name: 'account', label: '=HYPERLINK("x")' },
};

describe('spec 002 section 5: CSV export', () => {
  it('starts with a UTF-8 byte-order mark and, optionally, the line sep=;', () => {
    expect(csvStart({ csvHeader: false })).toBe('\uFEFF');
    expect(csvStart({ csvHeader: true })).toBe('\uFEFFsep=;\r\n');
  });
  it('a lookup column expands into value, Target and Label columns', () => {
    expect(csvHeaderLine(csvColumns(props))).toBe('name;revenue;employees;founded;lastcall;active;category;parentid;parentidTarget;parentidLabel\r\n');
  });
  it('writes ISO dates, the configured decimal separator, and quotes cells with a quote, semicolon or newline (quotes doubled, newline escaped)', () => {
    const line = csvRecordLine(csvColumns(props), record, { ...opts, decimalSeparator: ',' });
    expect(line).toBe(`"Acme; ""the best""\\nand more";1234,5;-3;2020-01-31;2026-11-21T10:30:00.000Z;true;1;${ID};account;"'=HYPERLINK(""x"")"\r\n`);
    expect(csvRecordLine(csvColumns(props), record, opts)).toContain(';1234.5;-3;');
  });
  it('neutralizes text cells starting with = + - @ tab or CR (OWASP) unless the option turns it off; numbers stay numbers', () => {
    const cols = csvColumns(props.slice(0, 3));
    expect(csvRecordLine(cols, { name: '+1', employees: -1 }, opts)).toBe(`"'+1";;-1\r\n`);
    expect(csvRecordLine(cols, { name: '@SUM(A1)' }, { ...opts, neutralizeFormulas: false })).toBe('@SUM(A1);;\r\n');
    for (const t of ['=', '+', '-', '@', '\t', '\r']) expect(needsNeutralizing(`${t}x`)).toBe(true);
  });
  it('import reads neutralized cells back to their original value (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      expect(restoreNeutralized(neutralizeFormula(s))).toBe(s);
    }));
    fc.assert(fc.property(fc.string(), (s) => {
      expect(restoreNeutralized(neutralizeFormula(`'${s}`))).toBe(`'${s}`);
    }));
  });
  it('backslash and newline escapes inside quotes read back to the same text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\\', 'n', 'r', '\n', '\r', '"', ';', ' ') }), (s) => {
        const cell = csvCell(s, ';');
        // what csv-parse hands over for a quoted cell: the inside, with doubled quotes undone
        const parsed = cell.startsWith('"') ? unescapeQuotedCell(cell.slice(1, -1).replace(/""/g, '"')) : cell;
        expect(parsed).toBe(s);
      }),
    );
  });
  it('a totals row sums numeric columns and counts the others', () => {
    const totals = new Totals(props);
    totals.add(record);
    totals.add({ name: 'B', revenue: 0.1, employees: 4 });
    totals.add({ revenue: 0.2 });
    expect(csvTotalsLine(csvColumns(props), totals, { ...opts, decimalSeparator: ',' })).toBe('2;1234,8;1;1;1;1;1;1;;\r\n');
    const chosen = new Totals(props, ['revenue']);
    chosen.add(record);
    expect(pdfTotalsTexts(props, chosen, '.')).toEqual(['', '1\u00a0234.50', '', '', '', '', '', '']);
  });
  it('streams the file page by page, then the totals row', async () => {
    async function* pages() {
      yield [{ name: 'a', revenue: 1 }];
      yield [{ name: 'b', revenue: 2 }];
    }
    const chunks: string[] = [];
    for await (const c of csvExportChunks(props.slice(0, 2), pages(), { ...opts, totals: true })) chunks.push(c);
    expect(chunks).toEqual(['\uFEFFname;revenue\r\n', 'a;1\r\n', 'b;2\r\n', '2;3\r\n']);
  });
});

describe('issue 7: JSON export', () => {
  it('is an array of records as /api/fetch returns them', async () => {
    async function* pages() {
      yield [record];
      yield [{ name: 'b' }];
    }
    let text = '';
    for await (const c of jsonExportChunks(pages())) text += c;
    expect(JSON.parse(text)).toEqual([record, { name: 'b' }]);
  });
});

describe('spec 002 sections 3, 6 and 9: export options', () => {
  it('are read from the options JSON; invalid JSON is a clear error', () => {
    const ok = parseExportOptions('{"format":"pdf","fontSize":10,"orientation":"landscape","totals":["revenue"],"decimalSeparator":","}');
    expect(isRight(ok) && resolveExportOptions(ok.right)).toMatchObject({ format: 'pdf', fontSize: 10, orientation: 'landscape', totals: ['revenue'], decimalSeparator: ',', formats: ['csv', 'pdf'] });
    const bad = parseExportOptions('{format: pdf');
    expect(isLeft(bad) && bad.left.message).toMatch(/^Invalid export options in inu_orgsettings.export_options: /);
    const wrong = parseExportOptions('{"fontSize":"big"}');
    expect(isLeft(wrong) && wrong.left.message).toMatch(/fontSize/);
  });
  it('default to csv, formats csv and pdf, font size 12; later layers win', () => {
    expect(resolveExportOptions()).toMatchObject({ format: 'csv', formats: ['csv', 'pdf'], fontSize: 12, neutralizeFormulas: true });
    expect(resolveExportOptions({ format: 'pdf' }, { format: 'json' }).format).toBe('json');
    expect(resolveExportOptions({ landscape: true }).orientation).toBe('landscape');
  });
  it('are read from inu_orgsettings only when the user may read inu_orgsettings', async () => {
    let asked = 0;
    const store = {
      retrieveMultiple: async () => {
        asked++;
        return { _tag: 'Right' as const, right: { records: [{ export_options: '{"format":"pdf"}' }], count: 1, page: 1, pageSize: 1, moreRecords: false } };
      },
    };
    const noRights: Caller = { userId: 'u', teams: [], permissions: { permissions: {}, apps: [], owners: [], needsTeams: false } };
    expect(await loadExportDefaults(store, noRights)).toEqual({ _tag: 'Right', right: {} });
    expect(asked).toBe(0);
    expect(await loadExportDefaults(store, systemCaller())).toEqual({ _tag: 'Right', right: { format: 'pdf' } });
  });
  it('the default file name is the plural name plus the page-title suffix', () => {
    expect(exportFileName(entity, 'csv')).toBe('Accounts.csv');
    expect(exportFileName(entity, 'pdf', ' - Tessera')).toBe('Accounts - Tessera.pdf');
    expect(exportFileName(entity, 'csv', '', 'a/b:c.csv')).toBe('a_b_c.csv');
  });
  it('exports the chosen columns, else the query attributes, in a stable order', () => {
    const plan = exportPlan(entity, { entity: { name: 'account', attributes: [{ attribute: 'name' }, { attribute: 'revenue' }] } }, {});
    expect(isRight(plan) && plan.right.properties.map((p) => p.logicalName)).toEqual(['name', 'revenue']);
    expect(isRight(plan) && plan.right.request.entity.orders).toEqual([{ attribute: 'id' }]);
    expect(isLeft(exportPlan(entity, { entity: { name: 'account' } }, { columns: ['nope'] }))).toBe(true);
  });
});

describe('spec 002 section 9: the PDF table', () => {
  it('title is the plural name, subtitle the date in Slovak short format; font 12; landscape margins 10', () => {
    const t = pdfTable(entity, props, { ...opts, orientation: 'landscape' }, new Date('2026-11-21T10:00:00Z'));
    expect(t).toMatchObject({ title: 'Accounts', subtitle: '21. 11. 2026', fontSize: 12, margins: 10, orientation: 'landscape' });
    expect(t.pageWidth).toBeGreaterThan(t.pageHeight);
    expect(slovakShortDate(new Date('2026-01-05T12:00:00Z'))).toBe('5. 1. 2026');
  });
  it('cells show labels, Slovak dates and numbers with the decimal separator', () => {
    const p = (n: string) => props.find((x) => x.logicalName === n)!;
    expect(pdfCellText(p('category'), 1, ',')).toBe('Customer');
    expect(pdfCellText(p('parentid'), record.parentid, ',')).toBe('=HYPERLINK("x")');
    expect(pdfCellText(p('revenue'), 1234567.5, ',')).toBe('1\u00a0234\u00a0567,50');
    expect(pdfCellText(p('founded'), '2020-01-31', ',')).toBe('31. 1. 2020');
    expect(pdfCellText(p('lastcall'), '2026-11-21T10:30:00.000Z', ',')).toBe('21. 11. 2026 11:30');
  });
  it('tables wider than the page: shrink the font down to 7, then give each column its longest word and share the rest; never wider than the page (property)', () => {
    expect(fitColumns([100, 100], 400, 12)).toEqual({ fontSize: 12, widths: [200, 200], wrap: false });
    expect(fitColumns([300, 300], 400, 12)).toMatchObject({ wrap: false, fontSize: 8 });
    const wide = fitColumns([1200, 60], 300, 12, [120, 60]);
    expect(wide.fontSize).toBe(7);
    expect(wide.widths[1]).toBeCloseTo(35); // the narrow column keeps its whole width (60 at 12 pt is 35 at 7 pt)
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 1, max: 2000, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 40 }),
        fc.double({ min: 100, max: 900, noNaN: true }),
        (cols, available) => {
          const natural = cols.map(([w]) => w);
          const minimum = cols.map(([w, f]) => w * f);
          const r = fitColumns(natural, available, 12, minimum);
          expect(r.widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(available + 1e-6);
          expect(r.fontSize).toBeGreaterThanOrEqual(7);
          if (!r.wrap) r.widths.forEach((w, i) => expect(w + 1e-6).toBeGreaterThanOrEqual((natural[i] * r.fontSize) / 12));
          const minTotal = minimum.reduce((a, b) => a + (b * 7) / 12, 0);
          if (r.wrap && minTotal < available) r.widths.forEach((w, i) => expect(w + 1e-6).toBeGreaterThanOrEqual(Math.min((minimum[i] * 7) / 12, (natural[i] * 7) / 12, available / natural.length)));
        },
      ),
    );
  });
});
