import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BUDGET_CSV_FILE, BUDGET_PDF_FILE, budgetCsv, budgetCsvRows } from './budget-csv.js';
import { BUDGET_IN, BUDGET_OUT } from './budget-balance.js';

const people: Record<string, string> = { mum: 'Jana Nováková', kid: 'Peter Novák' };
const input = {
  lines: [
    { type: BUDGET_IN, name: 'Mzda', category: 'Práca', amount: 1250.5, personid: 'mum' },
    { type: BUDGET_OUT, name: 'Nájom; byt', category: 'Bývanie', amount: 480, comment: 'vrátane "energií"' },
    { type: BUDGET_OUT, name: '=SUM(A1:A9)', category: 'Iné', amount: 10 },
  ],
  allowances: [{ kind: 'childAllowance' as const, type: 'in' as const, personid: 'kid', amount: 60 }],
  personName: (id: string) => people[id] ?? id,
  lang: 'sk' as const,
  decimalSeparator: ',' as const,
};

describe('family budget export RodinnyRozpocet.csv (spec 002 sections 5 and 9)', () => {
  it('names the files of the spec', () => {
    expect(BUDGET_CSV_FILE).toBe('RodinnyRozpocet.csv');
    expect(BUDGET_PDF_FILE).toBe('RodinnyRozpocet.pdf');
  });

  it('is semicolon-separated UTF-8 with a byte-order mark, Slovak header first, CRLF lines', () => {
    const text = budgetCsv(input);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe('Typ;Názov;Kategória;Suma (EUR);Komentár;Osoba');
    expect(lines[1]).toBe('Príjem;Mzda;Práca;1250,50;;Jana Nováková');
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('quotes a cell with a semicolon or a quote (doubled), and never lets a name run as a formula', () => {
    const lines = budgetCsv(input).slice(1).split('\r\n');
    expect(lines[2]).toBe('Výdavok;"Nájom; byt";Bývanie;480,00;"vrátane ""energií""";');
    expect(lines[3]).toBe(`Výdavok;"'=SUM(A1:A9)";Iné;10,00;;`);
  });

  it('adds the computed allowances as income lines and the income, expense and balance per month', () => {
    const rows = budgetCsvRows(input);
    expect(rows.slice(4)).toEqual([
      ['Príjem', 'Prídavok na dieťa', 'Štátne dávky', '60,00', '', 'Peter Novák'],
      ['', 'Príjmy spolu', '', '1310,50', '', ''],
      ['', 'Výdavky spolu', '', '490,00', '', ''],
      ['', 'Bilancia za mesiac', '', '820,50', '', ''],
    ]);
  });

  it('English readers get a point as the decimal separator', () => {
    expect(budgetCsvRows({ ...input, lang: 'en', decimalSeparator: '.' })[1]).toEqual(['Income', 'Mzda', 'Práca', '1250.50', '', 'Jana Nováková']);
  });

  it('property: one row per line and allowance, plus the header and three summary rows; every row has six cells', () => {
    const lineArb = fc.record({ type: fc.constantFrom(BUDGET_IN, BUDGET_OUT), name: fc.string(), amount: fc.integer({ min: 0, max: 10_000_00 }).map((c) => c / 100) });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 20 }), (lines) => {
        const rows = budgetCsvRows({ ...input, lines });
        expect(rows.length).toBe(lines.length + input.allowances.length + 4);
        expect(rows.every((r) => r.length === 6)).toBe(true);
      }),
    );
  });
});
