import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import { withSystemFields } from '../metadata/system-fields.js';
import { systemPack } from '../packs/packs.js';
import type { AppliedMetadata, ApplyFailure, DataAtRisk, SchemaStore, StepProgress } from '../ports/schema-store.js';
import { diffSchema, describeStep, type MigrationPlan } from './migration-plan.js';
import { emptySchema, nameKey, schemaOf, type Schema } from './schema-model.js';

/** The schema of a metadata set as the database holds it: every entity with its system fields. */
export const schemaOfMetadata = (entities: readonly Entity[]): Either<InputError, Schema> => {
  const complete: Entity[] = [];
  for (const e of entities) {
    const c = withSystemFields(e);
    if (c._tag === 'Left') return c;
    complete.push(c.right);
  }
  return schemaOf(complete);
};

/** Lossy steps that would drop or cut values, refused unless data loss is allowed. */
export type DataLossRefused = { readonly _tag: 'DataLossRefused'; readonly atRisk: readonly DataAtRisk[] };

export type MigrationOutcome = {
  readonly from: Schema;
  readonly to: Schema;
  readonly plan: MigrationPlan;
  /** The lossy steps and how many rows hold values they drop or cut (only those with rows). */
  readonly atRisk: readonly DataAtRisk[];
  /** The newly recorded metadata; null on a dry run, or when the metadata was already applied. */
  readonly applied: AppliedMetadata | null;
};

export type MigrationFailure = InputError | DataLossRefused | ApplyFailure;

export type MigrateOptions = {
  readonly allowDataLoss?: boolean;
  readonly dryRun?: boolean;
  /** The schema the database really has, when it is known to differ from the applied metadata's. */
  readonly from?: Schema;
  readonly progress?: StepProgress;
  /** The entities and fields a change may not remove or retype; default: those of the system pack. */
  readonly required?: readonly Entity[];
  /**
   * The applied version the change was planned against (the metadata editor's review): another
   * one is MetadataMoved, checked again inside the apply's transaction. Default: the one read now.
   */
  readonly expectedVersion?: number;
};

/**
 * What a change would take away that the product itself needs: each entity and declared field of
 * `required` (the system pack) that the applied metadata holds and the target drops or retypes.
 * Sign-in reads systemuser.emailaddress and its password hash, the client its inu_view records:
 * losing one breaks the organization whatever --allow-data-loss says, and an empty table (say
 * inu_localize) would otherwise go without a question. Names compare without case, as tables do.
 */
export const requiredMetadataRemoved = (
  applied: readonly Entity[],
  target: readonly Entity[],
  required: readonly Entity[],
): string[] => {
  const find = (set: readonly Entity[], name: string) => set.find((e) => nameKey(e.logicalName) === nameKey(name));
  const removed: string[] = [];
  for (const r of required) {
    const before = find(applied, r.logicalName);
    if (!before) continue;
    const after = find(target, r.logicalName);
    if (!after) {
      removed.push(`entity ${before.logicalName}`);
      continue;
    }
    for (const p of r.properties) {
      const had = before.properties.find((x) => nameKey(x.logicalName) === nameKey(p.logicalName));
      if (!had) continue;
      const has = after.properties.find((x) => nameKey(x.logicalName) === nameKey(p.logicalName));
      if (!has) removed.push(`field ${before.logicalName}.${had.logicalName}`);
      else if (has.type !== had.type) removed.push(`field ${before.logicalName}.${had.logicalName} (${had.type} to ${has.type})`);
    }
  }
  return removed;
};

const sameMetadata = (a: readonly Entity[], b: readonly Entity[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The plan from the applied metadata (or the given live schema) to `target`. */
export const planMigration = (
  applied: AppliedMetadata | null,
  target: readonly Entity[],
  from?: Schema,
): Either<InputError, { from: Schema; to: Schema; plan: MigrationPlan }> => {
  let start = from ?? emptySchema;
  if (!from && applied) {
    const s = schemaOfMetadata(applied.entities);
    if (s._tag === 'Left') return left(inputError(`The applied metadata (version ${applied.version}) is invalid: ${s.left.message}`));
    start = s.right;
  }
  const to = schemaOfMetadata(target);
  if (to._tag === 'Left') return to;
  return right({ from: start, to: to.right, plan: diffSchema(start, to.right) });
};

/**
 * Migrates an organization's schema to `target` (spec 000 section 3): plans, measures the data the
 * lossy steps would drop, refuses when rows would lose values unless allowed, and applies the plan
 * and records the metadata in one transaction. The recorded metadata is the target with its
 * system fields, so that `schema export` writes the complete set.
 */
export const migrateSchema = async (
  store: SchemaStore,
  target: readonly Entity[],
  options: MigrateOptions = {},
): Promise<Either<MigrationFailure, MigrationOutcome>> => {
  const applied = await store.readApplied();
  const found = applied?.version ?? 0;
  if (options.expectedVersion !== undefined && options.expectedVersion !== found)
    return left({ _tag: 'MetadataMoved', expected: options.expectedVersion, found });
  const complete: Entity[] = [];
  for (const e of target) {
    const c = withSystemFields(e);
    if (c._tag === 'Left') return c;
    complete.push(c.right);
  }
  if (applied) {
    const removed = requiredMetadataRemoved(applied.entities, complete, options.required ?? systemPack().entities);
    if (removed.length > 0)
      return left(
        inputError(
          `The metadata removes what every organization needs (the system pack): ${removed.join('; ')}. Keep them as they are`,
        ),
      );
  }
  const planned = planMigration(applied, complete, options.from);
  if (planned._tag === 'Left') return planned;
  const { from, to, plan } = planned.right;
  const atRisk = (await store.dataAtRisk(plan)).filter((r) => r.rows > 0);
  const outcome = { from, to, plan, atRisk, applied: null };
  if (atRisk.length > 0 && !options.allowDataLoss) return left({ _tag: 'DataLossRefused', atRisk });
  if (options.dryRun) return right(outcome);
  if (plan.length === 0 && applied && sameMetadata(applied.entities, complete)) return right(outcome);
  const result = await store.apply({ from, plan, entities: complete, expectedVersion: found }, options.progress);
  if (result._tag === 'Left') return result;
  return right({ ...outcome, applied: result.right });
};

/** One line per refused step: what would go, and how many rows hold values there. */
export const describeDataAtRisk = (r: DataAtRisk): string => {
  const rows = `${r.rows} row${r.rows === 1 ? '' : 's'}`;
  switch (r.step.kind) {
    case 'dropTable':
      return `table ${r.step.table} holds ${rows}`;
    case 'dropColumn':
      return `column ${r.step.table}.${r.step.column} has values in ${rows}`;
    case 'alterStringLength':
      return `column ${r.step.table}.${r.step.column} has ${rows} longer than ${r.step.to ?? 'max'}`;
    default:
      return `${describeStep(r.step)}: ${rows}`;
  }
};
