import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import {
  DEFAULT_WRITE_BATCH,
  importConfirmationText,
  IMPORT_MODES,
  importableEntity,
  runImport,
  systemCaller,
  Tokens,
  withWriteEffects,
  type ImportMode,
  type ImportPreview,
} from '@tessera/core/internal';
import { existsSync } from 'node:fs';
import { isLeft } from 'fp-ts/lib/Either.js';
import { resolveAll } from '../di.js';
import { CliFailure, EXIT } from '../program.js';
import { withContainer, withHostOptions, type HostOptions } from './host-options.js';
import { openEntity } from './import-export-shared.js';
import { ImportProgressView } from './import-progress.js';

type ImportOptions = HostOptions & { org: string; entity: string; file: string; match?: string; mode: ImportMode; yes?: boolean; batchSize?: number };

/** Asks on the terminal (or reads the answer from a pipe); no answer is a no. */
const ask = (question: string): Promise<boolean> =>
  new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: false });
    let answered = false;
    rl.on('close', () => {
      if (!answered) resolve(false);
    });
    process.stdout.write(`${question} [y/N] `);
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(/^\s*(y|yes|a|ano|áno)\s*$/i.test(line));
    });
  });

const describePreview = (p: ImportPreview): string[] => [
  ...p.ignoredColumns,
  `${p.rows} rows: ${p.create} to create, ${p.update} to update, ${p.skip} to skip, ${p.errors} with errors`,
];

/**
 * `tessera import`: checks the whole file (printing the columns it ignores and the counts), asks
 * the confirmation question of spec 002 unless --yes, writes in atomic batches and prints the
 * result text. Runs as the system (an administrator at the console). Exit code 0 when every
 * row was imported, 1 when the file was refused, the import declined or any row failed.
 */
export const registerImport = (program: Command): void => {
  withHostOptions(
    program
      .command('import')
      .description('import records from a CSV or JSON file (spec 002: import)')
      .requiredOption('--org <name>', 'the organization')
      .requiredOption('--entity <name>', 'the entity (logical name) to import into')
      .requiredOption('--file <path>', 'the file: .json is JSON, anything else CSV')
      .option('--match <field>', 'find existing records by this field')
      .addOption(new Option('--mode <mode>', 'matching records: update, skip or create new').choices([...IMPORT_MODES]).default('update'))
      .option('--yes', 'do not ask for confirmation')
      .addOption(
        new Option('--batch-size <rows>', `rows per atomic write (default ${DEFAULT_WRITE_BATCH})`)
          .argParser((v) => {
            const n = Number(v);
            if (!Number.isInteger(n) || n < 1 || n > 1000) throw new CliFailure('--batch-size must be a whole number from 1 to 1000', EXIT.usage);
            return n;
          })
          .hideHelp(),
      ),
  ).action(async (o: ImportOptions) => {
    if (!existsSync(o.file)) throw new CliFailure(`no file ${o.file}`);
    await withContainer(o, async (c) => {
      const { directory, tenants, files, sessions, clock } = resolveAll(c, {
        directory: Tokens.OrganizationDirectory,
        tenants: Tokens.TenantRegistry,
        files: Tokens.ImportFiles,
        sessions: Tokens.SessionStore,
        clock: Tokens.Clock,
      });
      const { tenant, entity: named } = await openEntity({ directory, tenants }, o.org, o.entity);
      const importable = importableEntity([named], named.logicalName);
      if (isLeft(importable)) throw new CliFailure(importable.left.message);
      const entity = importable.right;
      const file = files.open(o.file);
      const progress = new ImportProgressView(process.stderr);
      // Users deactivated by the file are signed out, as on /api/update (core applyWrites).
      const store = withWriteEffects(tenant.store, { sessions, clock }, { orgName: tenant.name });
      const outcome = await runImport(
        store,
        { entity, caller: systemCaller(), mode: o.mode, matchField: o.match, writeBatchSize: o.batchSize },
        file.source,
        {
          spool: file.spool(),
          onProgress: (p) => progress.update(p),
          confirm: async (preview) => {
            progress.finish();
            process.stderr.write(`${describePreview(preview).join('\n')}\n`);
            return o.yes === true || (await ask(importConfirmationText(preview)));
          },
        },
      );
      progress.finish();
      process.stdout.write(`${outcome.cancelled ? 'Import cancelled: no records processed' : outcome.text}\n`);
      if (outcome.notes.length > 0) process.stdout.write(`Notes: ${outcome.notes.length}\n${outcome.notes.join('\n')}\n`);
      if (outcome.cancelled || outcome.fatal !== undefined || outcome.errors > 0) throw new CliFailure(outcome.cancelled ? 'import declined' : 'not every row was imported');
    });
  });
};
