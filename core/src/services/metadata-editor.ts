import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, noObject, permissionDenied, versionConflict, type DomainError, type InputError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import { metadataSet } from '../metadata/metadata-set.js';
import { propertyProblems } from '../metadata/pack.js';
import { withSystemFields } from '../metadata/system-fields.js';
import { levelOf } from '../permissions/access.js';
import { METADATA_ENTITY } from '../permissions/roles.js';
import type { Caller } from '../permissions/types.js';
import type { ChangeFeed } from '../ports/change-feed.js';
import type { Clock } from '../ports/clock.js';
import type { DataAtRisk, TenantSchema } from '../ports/schema-store.js';
import { describeDataAtRisk, migrateSchema, requiredMetadataRemoved, type MigrationFailure, type MigrationOutcome } from '../schema/migrate.js';
import { systemPack } from '../packs/packs.js';
import { describeStep, type MigrationStep } from '../schema/migration-plan.js';
import { planText } from '../schema/plan-text.js';
import { nameKey, schemaOf } from '../schema/schema-model.js';

/**
 * The metadata editor's use cases (issue 15, docs/schema.md "Metadata editor"): the migration plan
 * of a proposed change and its apply, through the same `migrateSchema` as `tessera schema apply`
 * (one transaction, recorded as a new applied version). The change names what it creates,
 * updates and removes; everything else stays as applied.
 */

/** A proposed change of an organization's entities (complete entities; system fields may be left out). */
export type MetadataChange = {
  readonly create: readonly Entity[];
  readonly update: readonly Entity[];
  readonly remove: readonly string[];
};

/** A step that can lose data, with the rows that hold values there now (0: none do). */
export type DestructiveStep = {
  /** describeStep's line: what an apply's confirmation names. */
  readonly step: string;
  readonly kind: MigrationStep['kind'];
  readonly table: string;
  readonly column?: string;
  readonly rows: number;
  /** describeDataAtRisk's line: the column or table and its rows. */
  readonly description: string;
};

export type MetadataPlan = {
  /** The applied version the plan starts from: the apply sends it back. */
  readonly version: number;
  readonly dialect: string;
  readonly steps: Array<{ readonly description: string; readonly dataLoss: boolean }>;
  /** The plan as `tessera schema diff` prints it. */
  readonly ddl: string;
  readonly destructive: DestructiveStep[];
};

export type MetadataApplied = { readonly version: number; readonly steps: number };

/** A plan with steps that can lose data, applied without naming each of them in the confirmation. */
export type DataLossUnconfirmed = {
  readonly _tag: 'DataLossUnconfirmed';
  readonly code: 'ERR_DATA_LOSS';
  readonly message: string;
  readonly destructive: readonly DestructiveStep[];
};

export type MetadataEditorFailure = DomainError | DataLossUnconfirmed;

/** Who may use the editor (docs/schema.md "Metadata editor"): update on inu_metadata at organization level (the admin role has it). */
export const canEditMetadata = (caller: Caller): boolean => levelOf(caller.permissions, METADATA_ENTITY, 'update') === 3;

const notAllowed = () => permissionDenied(`The metadata editor needs the organization level of update on ${METADATA_ENTITY}`);

/** At most ten problems, then how many more: removing an entity that 40 lookups target is one mistake. */
const listed = (problems: readonly string[]): string =>
  problems.length <= 10 ? problems.join('; ') : `${problems.slice(0, 10).join('; ')}; and ${problems.length - 10} more`;

const findIn = (set: readonly Entity[], name: string): Entity | undefined => set.find((e) => nameKey(e.logicalName) === nameKey(name));

/**
 * The complete target metadata: the applied entities with the change, checked as a pack is
 * (duplicate entity and field names, names that cannot be tables or columns or are reserved,
 * lookups to missing entities, option sets, string lengths). An updated entity keeps the applied
 * entity's secret properties, which clients never see (password hashes).
 */
export const proposedMetadata = (applied: readonly Entity[], change: MetadataChange): Either<InputError, Entity[]> => {
  const problems: string[] = [];
  const touched = new Map<string, string>();
  const touch = (name: string, how: string) => {
    const was = touched.get(nameKey(name));
    if (was) problems.push(`Entity ${name} is ${was} and ${how} in one change`);
    touched.set(nameKey(name), how);
  };
  for (const e of change.create) {
    if (findIn(applied, e.logicalName)) problems.push(`Entity ${e.logicalName} exists already`);
    touch(e.logicalName, 'created');
  }
  for (const e of change.update) {
    if (!findIn(applied, e.logicalName)) problems.push(noObject(e.logicalName).message);
    touch(e.logicalName, 'updated');
  }
  for (const name of change.remove) {
    if (!findIn(applied, name)) problems.push(noObject(name).message);
    touch(name, 'removed');
  }
  if (problems.length > 0) return left(inputError(listed(problems)));

  const target: Entity[] = [];
  for (const old of applied) {
    const key = nameKey(old.logicalName);
    if (change.remove.some((n) => nameKey(n) === key)) continue;
    const next = change.update.find((e) => nameKey(e.logicalName) === key);
    if (!next) {
      target.push(old);
      continue;
    }
    const secret = old.properties.filter((p) => p.secret === true && !next.properties.some((q) => q.logicalName === p.logicalName));
    target.push({ ...next, logicalName: old.logicalName, properties: [...next.properties, ...secret] });
  }
  target.push(...change.create);

  const complete: Entity[] = [];
  for (const e of target) {
    const c = withSystemFields(e);
    if (isLeft(c)) return left(inputError(`Invalid metadata: ${c.left.message}`));
    complete.push(c.right);
  }
  const removed = requiredMetadataRemoved(applied, complete, systemPack().entities);
  if (removed.length > 0)
    return left(inputError(`The metadata removes what every organization needs (the system pack): ${removed.join('; ')}. Keep them as they are`));
  const set = metadataSet(complete);
  if (isLeft(set)) return left(inputError(`Invalid metadata: ${set.left.message}`));
  const found = complete.flatMap((e) => e.properties.flatMap((p) => propertyProblems(set.right, e, p)));
  if (found.length > 0) return left(inputError(`Invalid metadata: ${listed(found)}`));
  const schema = schemaOf(complete);
  if (isLeft(schema)) return schema;
  return right(complete);
};

const destructiveOf = (plan: readonly MigrationStep[], atRisk: readonly DataAtRisk[]): DestructiveStep[] =>
  plan
    .filter((s) => s.dataLoss)
    .map((s) => {
      const rows = atRisk.find((r) => r.step === s)?.rows ?? 0;
      const column = s.kind === 'dropColumn' || s.kind === 'alterStringLength' ? s.column : undefined;
      const table = s.kind === 'createTable' ? s.table.name : s.table;
      return { step: describeStep(s), kind: s.kind, table, ...(column === undefined ? {} : { column }), rows, description: describeDataAtRisk({ step: s, rows }) };
    });

const failureOf = (f: MigrationFailure): DomainError => {
  switch (f._tag) {
    case 'InputError':
      return f;
    case 'MetadataMoved':
      return versionConflict(`The metadata was changed meanwhile (version ${f.expected}, now ${f.found}): review the changes again`);
    case 'DataLossRefused':
      return inputError(`The plan would lose data: ${f.atRisk.map(describeDataAtRisk).join('; ')}`);
    case 'StepFailed':
      return inputError(`Step ${f.stepNumber} (${describeStep(f.step)}) failed: ${f.message}; nothing was changed`);
  }
};

export type MetadataEditorDeps = { readonly org: string; readonly schema: TenantSchema };

/** The dry run of a change: its plan, measured, as the editor reviews it. */
const dryRun = async (
  deps: MetadataEditorDeps,
  caller: Caller,
  change: MetadataChange,
  version?: number,
): Promise<Either<DomainError, { version: number; outcome: MigrationOutcome; target: Entity[] }>> => {
  if (!canEditMetadata(caller)) return left(notAllowed());
  const applied = await deps.schema.readApplied();
  const current = applied?.version ?? 0;
  if (version !== undefined && version !== current) return left(failureOf({ _tag: 'MetadataMoved', expected: version, found: current }));
  const target = proposedMetadata(applied?.entities ?? [], change);
  if (isLeft(target)) return target;
  // Plan and measure only, as `tessera schema diff` does: every lossy step with its rows.
  const r = await migrateSchema(deps.schema, target.right, { dryRun: true, allowDataLoss: true, expectedVersion: current });
  if (isLeft(r)) return left(failureOf(r.left));
  return right({ version: current, outcome: r.right, target: target.right });
};

/** The migration plan of a proposed change (the editor's "Review changes"): steps, DDL, what it would drop. */
export const planMetadataChange = async (deps: MetadataEditorDeps, caller: Caller, change: MetadataChange): Promise<Either<DomainError, MetadataPlan>> => {
  const dry = await dryRun(deps, caller, change);
  if (isLeft(dry)) return dry;
  const { version, outcome } = dry.right;
  const compiled = deps.schema.statements(outcome.from, outcome.plan);
  // A plan that does not run on its own starting schema is a bug of the planner, not a user error.
  if (isLeft(compiled)) throw new Error(`The migration plan does not run: ${compiled.left}`);
  return right({
    version,
    dialect: deps.schema.dialect,
    steps: outcome.plan.map((s) => ({ description: describeStep(s), dataLoss: s.dataLoss })),
    ddl: planText(deps.schema.dialect, outcome.plan, compiled.right, outcome.atRisk, `metadata editor: ${deps.org} (applied version ${version})`),
    destructive: destructiveOf(outcome.plan, outcome.atRisk),
  });
};

export type ApplyMetadataRequest = {
  readonly change: MetadataChange;
  /** The applied version the reviewed plan started from. */
  readonly version: number;
  /** describeStep's line of every step that can lose data (DestructiveStep.step). */
  readonly confirm: readonly string[];
};

/**
 * Applies a reviewed change: the same plan as reviewed (a moved version is ERR_8001), each step
 * that can lose data named in `confirm` (else ERR_DATA_LOSS naming them with their rows, nothing
 * applied), then one transaction. Every open client hears of it on the realtime stream (a change
 * of inu_metadata: the metadata-changed event), so it reloads its metadata.
 */
export const applyMetadataChange = async (
  deps: MetadataEditorDeps & { readonly feed: ChangeFeed; readonly clock: Clock },
  caller: Caller,
  request: ApplyMetadataRequest,
): Promise<Either<MetadataEditorFailure, MetadataApplied>> => {
  const dry = await dryRun(deps, caller, request.change, request.version);
  if (isLeft(dry)) return dry;
  const { outcome, target } = dry.right;
  const lossy = outcome.plan.filter((s) => s.dataLoss);
  const unconfirmed = lossy.filter((s) => !request.confirm.includes(describeStep(s)));
  if (unconfirmed.length > 0) {
    const destructive = destructiveOf(lossy, outcome.atRisk);
    return left({
      _tag: 'DataLossUnconfirmed',
      code: 'ERR_DATA_LOSS',
      message: `The change can lose data: ${destructive.map((d) => d.description).join('; ')}. Confirm each of these steps to apply it`,
      destructive,
    });
  }
  const r = await migrateSchema(deps.schema, target, { allowDataLoss: true, expectedVersion: request.version });
  if (isLeft(r)) return left(failureOf(r.left));
  const applied = r.right.applied;
  if (applied)
    deps.feed.publish({ entity: METADATA_ENTITY, id: String(applied.version), operation: 'update', stamp: deps.clock.now().toISOString() });
  return right({ version: applied?.version ?? request.version, steps: r.right.plan.length });
};

/** The wire text of a failure of the editor (API.md: `CODE: message`). */
export const metadataEditorErrorText = (f: MetadataEditorFailure): string => `${f.code}: ${f.message}`;
