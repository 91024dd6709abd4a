import type { Either } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import type { MigrationPlan, MigrationStep } from '../schema/migration-plan.js';
import type { Schema } from '../schema/schema-model.js';

/** The metadata an organization's tables were last built from, as recorded in its database. */
export type AppliedMetadata = {
  /** 1 for the first apply, then one more for each. */
  readonly version: number;
  /** ISO 8601, UTC. */
  readonly appliedOn: string;
  readonly entities: readonly Entity[];
};

/** How many rows hold values that a lossy step would drop or cut. */
export type DataAtRisk = { readonly step: MigrationStep; readonly rows: number };

/** A step the database refused: which one (1-based) and the database's own message. Nothing was changed. */
export type StepFailed = { readonly _tag: 'StepFailed'; readonly stepNumber: number; readonly step: MigrationStep; readonly message: string };
/** Someone applied other metadata since this plan was made. Nothing was changed. */
export type MetadataMoved = { readonly _tag: 'MetadataMoved'; readonly expected: number; readonly found: number };
export type ApplyFailure = StepFailed | MetadataMoved;

export type SchemaChange = {
  /** The schema the plan starts from (the one of the applied metadata). */
  readonly from: Schema;
  readonly plan: MigrationPlan;
  /** The metadata to record once the plan ran. */
  readonly entities: readonly Entity[];
  /** The applied version the plan was made against (0 when nothing was applied yet). */
  readonly expectedVersion: number;
};

/** Called before each step runs: `n` of `total` (1-based). */
export type StepProgress = (n: number, total: number, step: MigrationStep) => void;

/**
 * The schema of one organization's database (ARCHITECTURE.md, Ports). `apply` runs the whole plan
 * and records the metadata in one transaction: on any failure the tables and the recorded
 * metadata stay exactly as they were.
 */
export interface SchemaStore {
  readApplied(): Promise<AppliedMetadata | null>;
  dataAtRisk(plan: MigrationPlan): Promise<DataAtRisk[]>;
  apply(change: SchemaChange, progress?: StepProgress): Promise<Either<ApplyFailure, AppliedMetadata>>;
}

/** The statements one step of a plan runs, in a database's own dialect (empty: done by an earlier step). */
export type CompiledStep = { readonly step: MigrationStep; readonly statements: readonly string[] };

/**
 * One organization's schema as the host that serves it migrates it (the metadata editor, issue 15):
 * the SchemaStore, plus the DDL of a plan in the database's dialect, so that the editor shows the
 * same text as `tessera schema diff`. Its `apply` also makes the host's tenant see the new
 * metadata at once (not after the periodic re-check).
 */
export interface TenantSchema extends SchemaStore {
  /** The database's SQL dialect ('sqlite', 'mssql'). */
  readonly dialect: string;
  /** The statements of each step, compiled against the schemas along the plan; Left: the plan does not run (a bug). */
  statements(from: Schema, plan: MigrationPlan): Either<string, CompiledStep[]>;
}
