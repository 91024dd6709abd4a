import { planText, type DataAtRisk, type MigrationPlan, type Schema } from '@tessera/core/internal';
import { compilePlan, type DdlDialect } from '@tessera/adapters-sql';

/**
 * The plan as DDL of one dialect (the text is core's `planText`, which the metadata editor shows
 * too): each step as a comment line, flagged when it can lose data, followed by its statements.
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
  return planText(ddl.name, plan, compiled.right, atRisk, heading);
};

export { refusalText } from '@tessera/core/internal';
