import { sql, type Kysely } from 'kysely';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  decode,
  Entity,
  describeStep,
  type AppliedMetadata,
  type ApplyFailure,
  type Clock,
  type DataAtRisk,
  type MigrationPlan,
  type SchemaChange,
  type SchemaStore,
  type StepProgress,
} from '@tessera/core/internal';
import * as t from 'io-ts';
import { compilePlan, METADATA_TABLE, type DdlDialect } from './ddl-dialect.js';

/** Thrown inside the transaction to roll it back, caught outside and returned as a value. */
class ApplyAborted extends Error {
  constructor(readonly failure: ApplyFailure) {
    super(failure._tag);
  }
}

const StoredEntities = t.array(Entity, 'metadata');

type MetadataRow = { version: number; appliedon: string | Date; metadata: string };

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/**
 * The SchemaStore of one organization's database, for SQLite and SQL Server alike: the dialect
 * writes the DDL, Kysely runs it. The applied metadata is kept in `tessera_metadata`, one row per
 * applied version (a history), with the time it was applied.
 */
export class KyselySchemaStore implements SchemaStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly ddl: DdlDialect,
    private readonly clock: Clock,
  ) {}

  private async ensureMetadataTable(db: Kysely<any>): Promise<void> {
    for (const statement of this.ddl.metadataTable()) await sql.raw(statement).execute(db);
  }

  private async latest(db: Kysely<any>): Promise<AppliedMetadata | null> {
    const table = sql.table(METADATA_TABLE);
    const rows = await sql<MetadataRow>`SELECT ${sql.ref('version')}, ${sql.ref('appliedon')}, ${sql.ref('metadata')} FROM ${table}
      WHERE ${sql.ref('version')} = (SELECT MAX(${sql.ref('version')}) FROM ${table})`.execute(db);
    const row = rows.rows[0];
    if (!row) return null;
    const entities = decode(StoredEntities, JSON.parse(row.metadata), `recorded metadata version ${row.version}`);
    if (entities._tag === 'Left') throw new Error(entities.left.message);
    const appliedOn = row.appliedon instanceof Date ? row.appliedon.toISOString() : row.appliedon;
    return { version: Number(row.version), appliedOn, entities: entities.right };
  }

  async readApplied(): Promise<AppliedMetadata | null> {
    await this.ensureMetadataTable(this.db);
    return this.latest(this.db);
  }

  async dataAtRisk(plan: MigrationPlan): Promise<DataAtRisk[]> {
    const out: DataAtRisk[] = [];
    for (const step of plan) {
      if (!step.dataLoss) continue;
      const count = this.ddl.countAtRisk(step);
      if (count === null) continue;
      const r = await sql.raw<{ n: number | bigint }>(count).execute(this.db);
      out.push({ step, rows: Number(r.rows[0]?.n ?? 0) });
    }
    return out;
  }

  async apply(change: SchemaChange, progress?: StepProgress): Promise<Either<ApplyFailure, AppliedMetadata>> {
    const compiled = compilePlan(this.ddl, change.from, change.plan);
    // A plan that does not run on its own starting schema is a bug of the planner, not a user error.
    if (compiled._tag === 'Left') throw new Error(`The migration plan does not run: ${compiled.left}`);
    try {
      const applied = await this.db.transaction().execute(async (trx) => {
        await this.ensureMetadataTable(trx);
        const found = (await this.latest(trx))?.version ?? 0;
        if (found !== change.expectedVersion)
          throw new ApplyAborted({ _tag: 'MetadataMoved', expected: change.expectedVersion, found });
        for (const [i, { step, statements }] of compiled.right.entries()) {
          progress?.(i + 1, compiled.right.length, step);
          for (const statement of statements) {
            try {
              await sql.raw(statement).execute(trx);
            } catch (e) {
              throw new ApplyAborted({ _tag: 'StepFailed', stepNumber: i + 1, step, message: errorMessage(e) });
            }
          }
        }
        const next: AppliedMetadata = {
          version: found + 1,
          appliedOn: this.clock.now().toISOString(),
          entities: change.entities,
        };
        await sql`INSERT INTO ${sql.table(METADATA_TABLE)} (${sql.ref('version')}, ${sql.ref('appliedon')}, ${sql.ref('metadata')})
          VALUES (${next.version}, ${next.appliedOn}, ${JSON.stringify(next.entities)})`.execute(trx);
        return next;
      });
      return right(applied);
    } catch (e) {
      if (e instanceof ApplyAborted) return left(e.failure);
      throw e;
    }
  }
}

/** One line for a failure to apply, with what to do next. */
export const describeApplyFailure = (f: ApplyFailure): string =>
  f._tag === 'StepFailed'
    ? `step ${f.stepNumber} (${describeStep(f.step)}) failed: ${f.message}; nothing was changed`
    : `the applied metadata moved from version ${f.expected} to ${f.found} meanwhile; nothing was changed, run the command again`;
