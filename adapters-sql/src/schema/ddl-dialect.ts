import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { schemasAlong, type Column, type CompiledStep, type MigrationPlan, type MigrationStep, type Schema, type Table } from '@tessera/core/internal';

/** The SQL dialects the schema generator writes. */
export type DdlDialectName = 'sqlite' | 'mssql' | 'postgres';

/**
 * What one SQL dialect knows about DDL. Every statement is built from validated identifiers,
 * quoted by `quote`; no value from metadata is ever spliced in unquoted.
 */
export interface DdlDialect {
  readonly name: DdlDialectName;
  quote(identifier: string): string;
  columnType(c: Column): string;
  createTable(t: Table): string[];
  /** The statements of one step, given the schema the step meets (SQLite rebuilds a table to change a length). */
  step(step: MigrationStep, before: Schema): string[];
  /**
   * The statements of every step of a plan, given the schemas along it (`along[i]` is met by step i).
   * A dialect may merge steps: SQLite rebuilds a table once for all of its column changes.
   */
  steps?(plan: MigrationPlan, along: readonly Schema[]): string[][];
  /** Creates the table that records applied metadata, when it is missing. */
  metadataTable(): string[];
  /** A `SELECT ... AS n` counting the rows a lossy step would cut or drop. */
  countAtRisk(step: MigrationStep): string | null;
}

/** The name of the table that records the applied metadata (the `tessera_` prefix is reserved for it). */
export const METADATA_TABLE = 'tessera_metadata';

/** The statements of one step (the type is core's, shared with the TenantSchema port). */
export type { CompiledStep };

/** The DDL of a whole plan, each step compiled against the schema it meets. */
export const compilePlan = (dialect: DdlDialect, from: Schema, plan: MigrationPlan): Either<string, CompiledStep[]> => {
  const along = schemasAlong(from, plan);
  if (along._tag === 'Left') return left(along.left);
  const statements = dialect.steps ? dialect.steps(plan, along.right) : plan.map((step, i) => dialect.step(step, along.right[i]));
  return right(plan.map((step, i) => ({ step, statements: statements[i] })));
};
