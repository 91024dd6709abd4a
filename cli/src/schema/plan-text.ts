import {
  describeDataAtRisk,
  describeStep,
  type DataAtRisk,
  type MigrationPlan,
  type MigrationStep,
  type Schema,
} from '@tessera/core/internal';
import { compilePlan, type DdlDialect } from '@tessera/adapters-sql';

const rowsAtRisk = (atRisk: readonly DataAtRisk[], step: MigrationStep): DataAtRisk | undefined =>
  atRisk.find((r) => r.step === step);

/**
 * The plan as DDL of one dialect: each step as a comment line (flagged when it can lose data,
 * with the rows that hold values there) followed by its statements.
 */
export const planAsDdl = (
  ddl: DdlDialect,
  from: Schema,
  plan: MigrationPlan,
  atRisk: readonly DataAtRisk[],
  heading: string,
): string => {
  const compiled = compilePlan(ddl, from, plan);
  if (compiled._tag === 'Left') throw new Error(`The migration plan does not run: ${compiled.left}`);
  const lossy = plan.filter((s) => s.dataLoss).length;
  const lines = [`-- ${heading}`];
  if (plan.length === 0) {
    lines.push('-- no changes: the tables already match');
    return `${lines.join('\n')}\n`;
  }
  lines.push(`-- ${plan.length} step${plan.length === 1 ? '' : 's'}, ${lossy} can lose data (${ddl.name})`);
  for (const [i, { step, statements }] of compiled.right.entries()) {
    const risk = rowsAtRisk(atRisk, step);
    const flag = !step.dataLoss ? '' : risk && risk.rows > 0 ? `  -- DATA LOSS: ${describeDataAtRisk(risk)}` : '  -- can lose data (no rows hold values now)';
    lines.push('', `-- step ${i + 1}: ${describeStep(step)}${flag}`);
    if (statements.length === 0) lines.push('-- (done by the rebuild of its table above)');
    for (const s of statements) lines.push(`${s};`);
  }
  return `${lines.join('\n')}\n`;
};

/** The one-line refusal of a lossy plan: every column or table, with the rows that hold values. */
export const refusalText = (atRisk: readonly DataAtRisk[]): string =>
  `refused: the plan would lose data: ${atRisk.map(describeDataAtRisk).join('; ')}. ` +
  `Check with "tessera schema diff", then run again with --allow-data-loss to apply it`;
