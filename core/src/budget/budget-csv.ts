import { BOM } from '../import/csv-preamble.js';
import { csvCell } from '../export/csv-cell.js';
import { CSV_SEPARATOR } from '../export/csv-writer.js';
import { needsNeutralizing, neutralizeFormula } from '../export/formula-neutralization.js';
import { translate, type Language } from '../i18n/catalogue.js';
import { BUDGET_IN, monthlyBalance, type BudgetLine } from './budget-balance.js';
import type { AllowanceLine } from './family-allowances.js';

/** The file names of the budget's exports (spec 002 section 9). */
export const BUDGET_CSV_FILE = 'RodinnyRozpocet.csv';
export const BUDGET_PDF_FILE = 'RodinnyRozpocet.pdf';

const EOL = '\r\n';

export type BudgetCsvInput = {
  readonly lines: readonly BudgetLine[];
  readonly allowances: readonly AllowanceLine[];
  /** the name of a person by id (the family's members) */
  readonly personName: (id: string) => string;
  readonly lang: Language;
  /** ',' for the Slovak, Czech and German readers' spreadsheets, '.' for English */
  readonly decimalSeparator: '.' | ',';
};

/** An amount with two decimals and the reader's separator: 351,80. */
export const budgetAmountText = (n: number, separator: '.' | ','): string => {
  const s = n.toFixed(2);
  return separator === '.' ? s : s.replace('.', ',');
};

/** A text cell: quoted when needed, and never run as a formula by a spreadsheet (a name typed as =SUM(...)). */
const text = (s: string | null | undefined): string => {
  const v = s ?? '';
  return needsNeutralizing(v) ? csvCell(neutralizeFormula(v), CSV_SEPARATOR, true) : csvCell(v, CSV_SEPARATOR);
};

/**
 * The rows of RodinnyRozpocet.csv (spec 002 sections 5 and 9: semicolon-separated, UTF-8 with a
 * byte-order mark, CRLF lines): a header in the reader's language, the budget lines, the computed
 * allowances as income lines, then three summary rows (income, expense, balance per month).
 */
export const budgetCsvRows = (input: BudgetCsvInput): string[][] => {
  const t = (k: Parameters<typeof translate>[1]) => translate(input.lang, k);
  const amount = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? budgetAmountText(n, input.decimalSeparator) : '');
  const typeText = (type: number | null | undefined) => (type === BUDGET_IN ? t('BudgetIn') : type === undefined || type === null ? '' : t('BudgetOut'));
  const person = (id: string | null | undefined) => (id ? input.personName(id) : '');
  const b = monthlyBalance(input.lines, input.allowances);
  return [
    [t('BudgetType'), t('BudgetName'), t('BudgetCategory'), t('BudgetAmount'), t('BudgetComment'), t('BudgetPerson')],
    ...input.lines.map((l) => [typeText(l.type), l.name ?? '', l.category ?? '', amount(l.amount), l.comment ?? '', person(l.personid)]),
    ...input.allowances.map((a) => [
      t('BudgetIn'),
      t(a.kind === 'childAllowance' ? 'BudgetChildAllowance' : 'BudgetParentalAllowance'),
      t('BudgetAllowanceCategory'),
      amount(a.amount),
      '',
      person(a.personid),
    ]),
    ['', t('BudgetIncomeTotal'), '', amount(b.income + b.allowances), '', ''],
    ['', t('BudgetExpenseTotal'), '', amount(b.expense), '', ''],
    ['', t('BudgetBalance'), '', amount(b.balance), '', ''],
  ];
};

/** The text of RodinnyRozpocet.csv: the BOM, then the rows (amounts are plain cells, the rest text cells). */
export const budgetCsv = (input: BudgetCsvInput): string =>
  BOM +
  budgetCsvRows(input)
    .map((row) => row.map((cell, i) => (i === 3 ? csvCell(cell, CSV_SEPARATOR) : text(cell))).join(CSV_SEPARATOR) + EOL)
    .join('');
