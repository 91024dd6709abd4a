import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describeStep, migrateSchema, type Entity, type MigrationFailure, type Schema } from '@tessera/core/internal';
import { describeApplyFailure, mssqlDdl, sqliteDdl, type DdlDialectName } from '@tessera/adapters-sql';
import { CliFailure, EXIT } from '../program.js';
import { withHostOptions } from './host-options.js';
import { exportedPack, readMetadataFile } from '../schema/metadata-file.js';
import { planAsDdl, refusalText } from '../schema/plan-text.js';
import { openSchemaDatabase, type DatabaseOptions, type SchemaDatabase } from '../schema/schema-database.js';

/**
 * `tessera schema export|diff|apply` (docs/schema.md): administrators export an organization's
 * applied metadata, edit it, see the DDL a change runs, and apply it in one transaction.
 */
type Common = DatabaseOptions;
type DiffOptions = Common & { to?: string; dialect?: DdlDialectName };
type ApplyOptions = Common & { to?: string; dryRun?: boolean; allowDataLoss?: boolean };

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

const withDatabaseOptions = (cmd: Command): Command => withHostOptions(cmd.requiredOption('--org <name>', 'the organization'));

/** Runs a command on the organization's database, always closing it; database errors become one line. */
const onDatabase = async (o: Common, work: (db: SchemaDatabase) => Promise<void>): Promise<void> => {
  const db = openSchemaDatabase(o);
  try {
    await work(db);
  } catch (e) {
    if (e instanceof CliFailure) throw e;
    throw new CliFailure(`database error on ${db.org}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  } finally {
    await db.close();
  }
};

/** The target metadata: the file of --to, or else the applied metadata over the tables as they really are. */
const targetOf = async (db: SchemaDatabase, to: string | undefined): Promise<{ entities: Entity[]; from?: Schema; label: string }> => {
  if (to) {
    const entities = readMetadataFile(to);
    if (entities._tag === 'Left') throw new CliFailure(entities.left);
    return { entities: entities.right, label: to };
  }
  const live = db.liveSchema();
  if (!live) throw new CliFailure('--to metadata.json is required with --db mssql', EXIT.usage);
  const applied = await db.store.readApplied();
  if (!applied) throw new CliFailure(`organization ${db.org} has no applied metadata: give the metadata with --to metadata.json`);
  return { entities: [...applied.entities], from: live, label: `its applied metadata (version ${applied.version}), compared with the tables as they are` };
};

const failureText = (f: MigrationFailure): string => {
  switch (f._tag) {
    case 'InputError':
      return `${f.message}; fix the metadata and run again`;
    case 'DataLossRefused':
      return refusalText(f.atRisk);
    default:
      return describeApplyFailure(f);
  }
};

const exportAction = async (o: Common & { out?: string }) =>
  onDatabase(o, async (db) => {
    const applied = await db.store.readApplied();
    if (!applied) throw new CliFailure(`organization ${db.org} has no applied metadata yet`);
    const text = `${JSON.stringify(exportedPack(db.org, applied.entities), null, 2)}\n`;
    if (!o.out) return void process.stdout.write(text);
    writeFileSync(o.out, text);
    out(`wrote ${applied.entities.length} entities of ${db.org} (metadata version ${applied.version}, applied ${applied.appliedOn}) to ${o.out}`);
  });

const diffAction = async (o: DiffOptions) =>
  onDatabase(o, async (db) => {
    const target = await targetOf(db, o.to);
    const applied = await db.store.readApplied();
    // Plan and measure only: a diff never refuses, it shows what would be lost.
    const r = await migrateSchema(db.store, target.entities, { dryRun: true, allowDataLoss: true, ...(target.from ? { from: target.from } : {}) });
    if (r._tag === 'Left') throw new CliFailure(failureText(r.left));
    const ddl = (o.dialect ?? db.ddl.name) === 'mssql' ? mssqlDdl : sqliteDdl;
    const heading = `tessera schema diff: ${db.org} (applied version ${applied?.version ?? 'none'}) to ${target.label}`;
    out(planAsDdl(ddl, r.right.from, r.right.plan, r.right.atRisk, heading));
  });

const applyAction = async (o: ApplyOptions) =>
  onDatabase(o, async (db) => {
    const target = await targetOf(db, o.to);
    const r = await migrateSchema(db.store, target.entities, {
      dryRun: o.dryRun ?? false,
      allowDataLoss: o.allowDataLoss ?? false,
      ...(target.from ? { from: target.from } : {}),
      progress: (n, total, step) => out(`step ${n}/${total}: ${describeStep(step)}`),
    });
    if (r._tag === 'Left') throw new CliFailure(failureText(r.left));
    const { plan, applied } = r.right;
    if (o.dryRun) {
      out(planAsDdl(db.ddl, r.right.from, plan, r.right.atRisk, `tessera schema apply --dry-run: ${db.org} to ${target.label}`));
      out(`dry run: ${plan.length} step${plan.length === 1 ? '' : 's'} planned, nothing applied`);
    } else if (!applied) out(`nothing to apply: ${db.org} already has this metadata`);
    else out(`applied metadata version ${applied.version} to ${db.org}: ${plan.length} step${plan.length === 1 ? '' : 's'}, at ${applied.appliedOn}`);
  });

export const registerSchemaCommands = (program: Command): void => {
  const schema = program
    .command('schema')
    .description("Export an organization's metadata, show the DDL a change of it runs, and apply it (docs/schema.md)");
  withDatabaseOptions(
    schema
      .command('export')
      .description("Write the organization's applied metadata: the complete set of entities, as a pack (docs/metadata.md)")
      .option('--out <file>', 'the file to write (default: standard output)'),
  ).action(exportAction);
  withDatabaseOptions(
    schema
      .command('diff')
      .description('Print the migration plan as DDL, flagging the steps that can lose data and the rows that hold values there')
      .option('--to <file>', 'the complete target metadata, as `schema export` writes it (default: the applied metadata, compared with the tables as they are)')
      .addOption(new Option('--dialect <dialect>', 'the SQL to print (default: that of --db)').choices(['sqlite', 'mssql'])),
  ).action(diffAction);
  withDatabaseOptions(
    schema
      .command('apply')
      .description('Apply the metadata: the whole plan and the record of the new metadata in one transaction')
      .option('--to <file>', 'the complete target metadata, as `schema export` writes it (default: repair the tables to the applied metadata)')
      .option('--dry-run', 'plan, measure and print, change nothing')
      .option('--allow-data-loss', 'apply drops and shortened strings even where rows hold values'),
  ).action(applyAction);
};
