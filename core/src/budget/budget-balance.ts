/**
 * The family budget's lines and its balance per month (spec 002 sections 3 and 9). Every line is
 * an amount in euro per month (the project's decision: the budget is a household's monthly plan,
 * so "balance per month" is what is left of a month's income after its expenses). The computed
 * allowances (family-allowances.ts) count as income. Sums are taken in whole cents, so adding
 * many lines never drifts by a floating-point remainder.
 */

/** fi_budget_line.type: 1 income (In), 2 expense (Out). */
export const BUDGET_IN = 1;
export const BUDGET_OUT = 2;
export type BudgetLineType = typeof BUDGET_IN | typeof BUDGET_OUT;

/** A budget line (fi_budget_line) as the panel edits it; personid is the person's id. */
export type BudgetLine = {
  readonly id?: string;
  readonly type?: number | null;
  readonly name?: string | null;
  readonly category?: string | null;
  readonly amount?: number | null;
  readonly comment?: string | null;
  readonly personid?: string | null;
};

export type MonthlyBalance = {
  /** the income lines, without the allowances */
  readonly income: number;
  /** the computed allowances */
  readonly allowances: number;
  readonly expense: number;
  /** income + allowances - expense */
  readonly balance: number;
};

const cents = (n: number): number => Math.round(n * 100);

/** Whether a line counts: a known type and a finite amount (a row still being typed does not). */
export const countsInBalance = (l: BudgetLine): boolean =>
  (l.type === BUDGET_IN || l.type === BUDGET_OUT) && typeof l.amount === 'number' && Number.isFinite(l.amount);

/** The balance per month of a family's lines and its computed allowances. */
export const monthlyBalance = (lines: readonly BudgetLine[], allowances: readonly { readonly amount: number }[] = []): MonthlyBalance => {
  let income = 0;
  let expense = 0;
  for (const l of lines) {
    if (!countsInBalance(l)) continue;
    if (l.type === BUDGET_IN) income += cents(l.amount as number);
    else expense += cents(l.amount as number);
  }
  const allowed = allowances.reduce((s, a) => s + cents(a.amount), 0);
  return { income: income / 100, allowances: allowed / 100, expense: expense / 100, balance: (income + allowed - expense) / 100 };
};
