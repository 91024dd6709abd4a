import type { CompiledStep, DataAtRisk } from '../ports/schema-store.js';
import type { MigrationPlan, MigrationStep } from './migration-plan.js';
import { describeStep } from './migration-plan.js';
import { describeDataAtRisk } from './migrate.js';

/**
 * The text of a migration plan as DDL (docs/schema.md "tessera schema"): `tessera schema diff`
 * prints it and the metadata editor shows it (issue 15), from one implementation. Each step is a
 * comment line (flagged when it can lose data, with the rows that hold values there) followed by
 * its statements in the database's dialect.
 */
export const planText = (
  dialect: string,
  plan: MigrationPlan,
  compiled: readonly CompiledStep[],
  atRisk: readonly DataAtRisk[],
  heading: string,
): string => {
  const rowsAtRisk = (step: MigrationStep): DataAtRisk | undefined => atRisk.find((r) => r.step === step);
  const lossy = plan.filter((s) => s.dataLoss).length;
  const lines = [`-- ${heading}`];
  if (plan.length === 0) {
    lines.push('-- no changes: the tables already match');
    return `${lines.join('\n')}\n`;
  }
  lines.push(`-- ${plan.length} step${plan.length === 1 ? '' : 's'}, ${lossy} can lose data (${dialect})`);
  for (const [i, { step, statements }] of compiled.entries()) {
    const risk = rowsAtRisk(step);
    const flag = !step.dataLoss ? '' : risk && risk.rows > 0 ? `  -- DATA LOSS: ${describeDataAtRisk(risk)}` : '  -- can lose data (no rows hold values now)';
    lines.push('', `-- step ${i + 1}: ${describeStep(step)}${flag}`);
    if (statements.length === 0) lines.push('-- (done by the rebuild of its table above)');
    for (const s of statements) lines.push(`${s};`);
  }
  return `${lines.join('\n')}\n`;
};

/** The one-line refusal of a lossy plan by `tessera schema apply`: every column or table, with the rows that hold values. */
export const refusalText = (atRisk: readonly DataAtRisk[]): string =>
  `refused: the plan would lose data: ${atRisk.map(describeDataAtRisk).join('; ')}. ` +
  `Check with "tessera schema diff", then run again with --allow-data-loss to apply it`;
